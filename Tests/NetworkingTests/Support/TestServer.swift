import CompressNIO
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Networking

/// A real HTTP/1.1 server on 127.0.0.1 (ephemeral port) whose routes behave and misbehave on
/// purpose. Each test starts its own.
final class TestServer: Sendable {
    private let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let state: Counter
    /// The port it listens on.
    let port: Int
    /// A server provider answering this server's base URL, alive as long as the server.
    let environment: TestEnvironment

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Connections open right now.
    var openConnections: Int { state.value("connections") }

    /// Connections accepted since the server started.
    var acceptedConnections: Int { state.value("accepted") }

    /// How many requests a path got.
    func hits(_ path: String) -> Int { state.value("hits:" + path) }

    /// A named counter of the server's (`digest:without-credentials` …).
    func count(_ name: String) -> Int { state.value(name) }

    private init(
        channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>, state: Counter
    ) {
        self.channel = channel
        self.state = state
        self.port = channel.channel.localAddress?.port ?? 0
        self.environment = TestEnvironment(URL(string: "http://127.0.0.1:\(channel.channel.localAddress?.port ?? 0)")!)
        // Served on the connections' event loops, not on Swift's global executor: the whole
        // suite runs in parallel on two cores, and tests that compute for seconds without
        // suspending have kept the global executor's threads busy past a test's timeouts
        // (a head that was due at once arrived after 10 s).
        Task(executorPreference: EventLoopExecutor(channel.channel.eventLoop)) {
            try? await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask(executorPreference: EventLoopExecutor(connection.channel.eventLoop)) {
                            await Self.serve(connection, state: state)
                        }
                    }
                }
            }
        }
    }

    /// Starts a server.
    static func start() async throws -> TestServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: child)
                }
            }
        return TestServer(channel: channel, state: Counter())
    }

    /// Stops listening and closes every connection.
    func stop() async {
        // Closing the listener ends the accept loop after the connections already accepted are
        // handed over, each then served until its client goes. (Cancelling the loop instead
        // dropped a connection accepted meanwhile unserved, which NIO traps on.)
        try? await channel.channel.close()
    }

    // MARK: - Serving

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, state: Counter
    ) async {
        state.add("connections", 1)
        state.add("accepted", 1)
        defer { state.add("connections", -1) }
        try? await connection.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            while let part = try await iterator.next() {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let head else { continue }
                    switch try await respond(to: head, body: body, outbound: outbound, state: state) {
                    case .keepOpen: break
                    case .close: return
                    case .stall:
                        // Never answer; wait for the client to go away.
                        while try await iterator.next() != nil {}
                        return
                    }
                }
            }
        }
    }

    /// What happens to a connection after a route.
    private enum After { case keepOpen, close, stall }

    /// Answers one request.
    private static func respond(
        to head: HTTPRequestHead, body: ByteBuffer, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        state: Counter
    ) async throws -> After {
        let components = URLComponents(string: head.uri)
        let path = components?.percentEncodedPath ?? head.uri
        let query = Dictionary(
            (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        state.add("hits:" + path, 1)
        let segments = path.split(separator: "/").map(String.init)

        func send(_ status: Int, _ headers: [(String, String)] = [], _ bytes: [UInt8]) async throws {
            var fields = NIOHTTP1.HTTPHeaders(headers)
            if !fields.contains(name: "content-length") {
                fields.add(name: "Content-Length", value: String(bytes.count))
            }
            try await outbound.write(
                .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: fields)))
            if !bytes.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes)))) }
            try await outbound.write(.end(nil))
        }
        func sendText(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") async throws {
            try await send(status, [("Content-Type", contentType)], Array(text.utf8))
        }

        switch segments.first ?? "" {
        case "echo", "v1", "v2", "api":
            var bodyCopy = body
            let bodyBytes = bodyCopy.readBytes(length: bodyCopy.readableBytes) ?? []
            let echo: [String: Any] = [
                "method": head.method.rawValue,
                "uri": head.uri,
                "path": path,
                "headers": head.headers.map { [$0.name, $0.value] },
                "body": String(decoding: bodyBytes, as: UTF8.self),
                "bodyBase64": Data(bodyBytes).base64EncodedString(),
            ]
            let data = try JSONSerialization.data(withJSONObject: echo, options: [.sortedKeys])
            try await send(200, [("Content-Type", "application/json")], Array(data))
        case "readme":
            // /readme/v1/posts/1 is a post; any other id is a problem+json 404.
            if path == "/readme/v1/posts/1" {
                try await sendText(200, #"{"id":1,"title":"Hello, Linux"}"#, contentType: "application/json")
            } else {
                try await sendText(
                    404, #"{"title":"Not Found","status":404,"detail":"No post with that id."}"#,
                    contentType: "application/problem+json")
            }
        case "status":
            let code = Int(segments.dropFirst().first ?? "") ?? 500
            try await sendText(code, "body of \(code)")
        case "problem":
            let problem =
                #"{"type":"https://example.com/probs/out-of-credit","title":"You do not have enough credit.","status":403,"detail":"Your current balance is 30, but that costs 50.","instance":"/account/12345/msgs/abc","balance":30,"accounts":["/account/12345","/account/67890"]}"#
            try await sendText(403, problem, contentType: "application/problem+json")
        case "latin1":
            // "café" in ISO-8859-1; with charset named or not.
            let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
            let contentType = query["named"] == "1" ? "text/plain; charset=ISO-8859-1" : "text/plain"
            try await send(200, [("Content-Type", contentType)], bytes)
        case "utf16":
            let data = "héllo".data(using: .utf16BigEndian)!
            try await send(200, [("Content-Type", "text/plain; charset=utf-16be")], Array(data))
        case "gzip":
            let gzipped: [UInt8] = [
                31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 87, 72, 175, 202, 44, 0, 0, 25, 106, 210, 223,
                10, 0, 0, 0,
            ]
            try await send(200, [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], gzipped)
        case "bad-gzip":
            try await send(
                200, [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")],
                Array("this is not gzip at all, not even close".utf8))
        case "redirect":
            let count = Int(segments.dropFirst().first ?? "") ?? 0
            if count <= 0 {
                try await sendText(200, "arrived")
            } else {
                try await send(302, [("Location", "/redirect/\(count - 1)")], [])
            }
        case "redirect-to":
            // 302 to the URL in ?url= (another host, for redirects that change the route), or 303 with ?status=303.
            try await send(Int(query["status"] ?? "") ?? 302, [("Location", query["url"] ?? "/")], [])
        case "login":
            // A login form's answer: 302 to /home with the session cookie.
            try await send(302, [("Set-Cookie", "session=s3ss10n; Path=/; HttpOnly"), ("Location", "/home")], [])
        case "home":
            // Signed in with the session of /login, or 401.
            if (head.headers.first(name: "cookie") ?? "").contains("session=s3ss10n") {
                try await sendText(200, "welcome (\(head.method.rawValue))")
            } else {
                try await sendText(401, "not signed in")
            }
        case "redirect-stalled":
            // A redirect whose body promises 100 bytes, sends 10 and stalls.
            try await outbound.write(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: .found,
                        headers: ["Location": "/echo/after", "Content-Length": "100"])))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: "r"), count: 10))))
            return .stall
        case "redirect-loop":
            try await send(302, [("Location", "/redirect-loop")], [])
        case "once":
            // Redirects to itself once, setting a cookie; with the cookie, arrives.
            if (head.headers.first(name: "cookie") ?? "").contains("seen=1") {
                try await sendText(200, "second visit")
            } else {
                try await send(302, [("Set-Cookie", "seen=1; Path=/"), ("Location", "/once")], [])
            }
        case "stall":
            return .stall
        case "close-mid-body":
            try await outbound.write(
                .head(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "1000"])))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: "x"), count: 100))))
            return .close
        case "bytes":
            let total = Int(segments.dropFirst().first ?? "") ?? 0
            try await outbound.write(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: .ok,
                        headers: ["Content-Length": String(total), "Content-Type": "application/octet-stream"])))
            let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 256 * 1024)
            var left = total
            while left > 0 {
                let size = min(left, chunk.readableBytes)
                try await outbound.write(.body(.byteBuffer(chunk.getSlice(at: 0, length: size)!)))
                left -= size
            }
            try await outbound.write(.end(nil))
        case "endless":
            // A chunked body that never ends: 64 KiB of JSON-ish text until the client goes.
            try await outbound.write(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: .ok,
                        headers: ["Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked"])))
            let line = ByteBuffer(string: String(repeating: "{\"n\":1234567890}\n", count: 4096))
            while true {
                try await outbound.write(.body(.byteBuffer(line)))
            }
        case "gzip-bomb":
            // 32 MiB of zeros, gzipped to about 32 KiB: a ratio near deflate's maximum.
            let bomb = try gzipBomb()
            try await send(
                200, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], Array(bomb.readableBytesView)
            )
        case "drip":
            // `count` lines, one every `every` milliseconds; `count` 0 or absent: 5 lines.
            let count = Int(query["count"] ?? "") ?? 5
            let every = Int(query["every"] ?? "") ?? 50
            try await outbound.write(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: .ok,
                        headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])))
            for index in 0..<count {
                if index > 0 { try await Task.sleep(for: .milliseconds(every)) }
                try await outbound.write(.body(.byteBuffer(ByteBuffer(string: "line \(index)\n"))))
                state.add("sent:" + path, 1)
            }
            try await outbound.write(.end(nil))
        case "sse", "ndjson":
            // The stream, then (with ?hold=1) the connection kept open until the client goes.
            let isSSE = segments.first == "sse"
            let text =
                isSSE
                ? sseStream : #"{"id":1,"name":"first"}\#n{"id":2,"name":"second"}\#n{"id":3,"nested":{"ok":true}}\#n"#
            try await outbound.write(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: .ok,
                        headers: [
                            "Content-Type": isSSE ? "text/event-stream" : "application/x-ndjson",
                            "Transfer-Encoding": "chunked",
                        ])))
            // Split at odd places so that lines and events cross chunk boundaries.
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: 7) {
                try await outbound.write(
                    .body(.byteBuffer(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + 7)]))))
            }
            if query["hold"] == "1" { return .stall }
            try await outbound.write(.end(nil))
        case "retry-after":
            // The first request answers 503 with Retry-After: 1, the next ones 200.
            let key = "retry:" + path
            state.add(key, 1)
            if state.value(key) == 1 {
                try await send(503, [("Retry-After", "1"), ("Content-Type", "text/plain")], Array("busy".utf8))
            } else {
                try await sendText(200, "ok after \(state.value(key)) attempts")
            }
        case "flaky":
            // Always 503: counts attempts.
            try await sendText(503, "still busy")
        case "oauth":
            let (status, json) = oauth2Answer(
                path: segments.dropFirst().joined(separator: "/"), query: query, form: Self.form(body),
                baseURL: "http://\(head.headers.first(name: "host") ?? "")", state: state)
            if status == 302 {
                try await send(302, [("Location", json)], [])
            } else {
                try await send(status, [("Content-Type", "application/json")], Array(json.utf8))
            }
        case "token":
            state.add("tokens", 1)
            try await sendText(200, "token-\(state.value("tokens"))")
        case "protected":
            let authorization = head.headers.first(name: "authorization") ?? ""
            let current = "Bearer token-\(state.value("tokens"))"
            if state.value("tokens") > 0, authorization == current {
                try await sendText(200, "secret data")
            } else {
                try await send(
                    401, [("WWW-Authenticate", "Bearer"), ("Content-Type", "text/plain")], Array("expired".utf8))
            }
        case "cookies":
            // /cookies/set?name=value…: one Set-Cookie per item (default path /cookies);
            // /cookies/show: the Cookie header received.
            // /cookies/redirect/<status>?to=URL&name=value…: that redirect, setting one cookie
            // (Path=/) per other item.
            if segments.count > 2, segments[1] == "redirect" {
                let items = components?.queryItems ?? []
                let cookies = items.filter { $0.name != "to" }.map {
                    ("Set-Cookie", "\($0.name)=\($0.value ?? ""); Path=/")
                }
                try await send(Int(segments[2]) ?? 302, cookies + [("Location", query["to"] ?? "/cookies/show")], [])
            } else if segments.count > 1, segments[1] == "set" {
                try await send(
                    200,
                    (components?.queryItems ?? []).map { ("Set-Cookie", "\($0.name)=\($0.value ?? "")") } + [
                        ("Content-Type", "text/plain")
                    ], Array("set".utf8))
            } else {
                try await sendText(200, head.headers.first(name: "cookie") ?? "")
            }
        case "digest":
            // /digest/<algorithms, comma-separated, offered in this order>[/stale]: HTTP Digest
            // (RFC 7616, qop=auth) for "Mufasa" / "Circle of Life", checked here with the
            // server's own hashing; the answer names the algorithm and nonce count it accepted.
            let offered =
                segments.count > 1
                ? (segments[1].removingPercentEncoding ?? segments[1]).split(separator: ",").map(String.init) : ["MD5"]
            var bodyCopy = body
            let sent =
                head.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                + (bodyCopy.readString(length: bodyCopy.readableBytes) ?? "")
            if sent.contains(DigestServer.password) { state.add("digest:password-in-clear", 1) }
            // With /stale, the first challenge's nonce has aged by the time it is answered.
            let firstNonce = segments.count > 2 && segments[2] == "stale" ? "old-nonce" : DigestServer.nonce
            let challenges = offered.map {
                (
                    "WWW-Authenticate",
                    "Digest realm=\"\(DigestServer.realm)\", qop=\"auth\", algorithm=\($0), nonce=\"\(firstNonce)\", opaque=\"\(DigestServer.opaque)\""
                )
            }
            guard let authorization = head.headers.first(name: "authorization") else {
                state.add("digest:without-credentials", 1)
                try await send(401, challenges + [("Content-Type", "text/plain")], Array("credentials needed".utf8))
                return .keepOpen
            }
            state.add("digest:answered", 1)
            switch DigestServer.check(
                authorization, method: head.method.rawValue, uri: head.uri, offered: offered, nonce: DigestServer.nonce)
            {
            case .success(let accepted):
                try await sendText(200, accepted)
            case .failure(let reason):
                let stale =
                    reason.stale
                    ? [
                        (
                            "WWW-Authenticate",
                            "Digest realm=\"\(DigestServer.realm)\", qop=\"auth\", algorithm=\(offered[0]), nonce=\"\(DigestServer.nonce)\", opaque=\"\(DigestServer.opaque)\", stale=true"
                        )
                    ] : challenges
                try await send(401, stale + [("Content-Type", "text/plain")], Array(reason.message.utf8))
            }
        default:
            try await sendText(404, "no route for \(path)")
        }
        return .keepOpen
    }
}

/// An event stream with what the WHATWG parser must handle: comments, multi-line data, ids,
/// event names, `retry`, CRLF line ends, an id-only field, and an unterminated last event.
let sseStream =
    ": a comment the parser skips\n\nretry: 2500\ndata: first\n\nevent: update\nid: 7\ndata: {\"a\": 1,\ndata:  \"b\": [2, 3]}\n\nid: 8\r\ndata:no space\r\n\r\ndata: last\nid: 9\n\ndata: cut before its blank line"

/// 32 MiB of zeros gzipped, made once.
private let gzipBombBytes = Result { () throws -> ByteBuffer in
    var zeros = ByteBuffer(repeating: 0, count: 32 << 20)
    return try zeros.compress(with: .gzip())
}

func gzipBomb() throws -> ByteBuffer { try gzipBombBytes.get() }

/// The digest route's side: its credentials and its own check of an `Authorization` value.
enum DigestServer {
    static let username = "Mufasa"
    static let password = "Circle of Life"
    static let realm = "http-auth@example.org"
    static let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    static let opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"

    struct Refusal: Error {
        var message: String
        var stale = false
    }

    /// The parameters of `Digest a="b", c=d`, read with a regular expression (not the
    /// library's parser, which is what is under test).
    static func parameters(_ value: String) -> [String: String] {
        guard value.hasPrefix("Digest ") else { return [:] }
        let regex = try! NSRegularExpression(pattern: #"([a-z]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))"#)
        let text = String(value.dropFirst(7))
        var out: [String: String] = [:]
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let quoted = Range(match.range(at: 2), in: text).map {
                String(text[$0]).replacingOccurrences(of: "\\", with: "")
            }
            let plain = Range(match.range(at: 3), in: text).map { String(text[$0]) }
            out[name] = quoted ?? plain ?? ""
        }
        return out
    }

    static func hash(_ text: String, _ algorithm: String) -> String {
        let data = Data(text.utf8)
        let bytes: [UInt8] =
            algorithm.uppercased().hasPrefix("SHA-256")
            ? Array(SHA256.hash(data: data)) : Array(Insecure.MD5.hash(data: data))
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Checks an answer: user, realm, uri, nonce, opaque, qop, and the response hash.
    static func check(_ authorization: String, method: String, uri: String, offered: [String], nonce: String) -> Result<
        String, Refusal
    > {
        let p = parameters(authorization)
        guard let algorithm = p["algorithm"], offered.contains(algorithm) else {
            return .failure(Refusal(message: "algorithm not offered"))
        }
        guard p["username"] == username, p["realm"] == realm, p["uri"] == uri, p["opaque"] == opaque,
            p["qop"] == "auth",
            let nc = p["nc"], nc.count == 8, let cnonce = p["cnonce"], !cnonce.isEmpty, let response = p["response"]
        else { return .failure(Refusal(message: "malformed answer: \(p)")) }
        guard p["nonce"] == nonce else { return .failure(Refusal(message: "stale nonce", stale: true)) }
        var ha1 = hash("\(username):\(realm):\(password)", algorithm)
        if algorithm.hasSuffix("-sess") { ha1 = hash("\(ha1):\(nonce):\(cnonce)", algorithm) }
        let ha2 = hash("\(method):\(uri)", algorithm)
        guard response == hash("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)", algorithm) else {
            return .failure(Refusal(message: "wrong response hash"))
        }
        return .success("welcome \(username), \(algorithm), nc=\(nc)")
    }
}

/// Named counters shared by a server's connections.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Int] = [:]

    func add(_ name: String, _ delta: Int) {
        lock.lock()
        values[name, default: 0] += delta
        lock.unlock()
    }

    func value(_ name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return values[name, default: 0]
    }
}
