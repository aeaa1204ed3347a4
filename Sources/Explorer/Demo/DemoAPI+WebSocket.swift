import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The demo's WebSocket endpoints, upgraded from HTTP/1.1 on the same port as the API:
///
/// - `/ws/echo` greets with the `X-` headers of the upgrade request, then answers each message
///   with the same message (text or binary). Two texts are commands: `close CODE [REASON]`
///   closes with that code, `drop` ends the connection without a close frame.
/// - `/ws/ticks` pushes `{"tick": n, "time": "…"}` every second (`interval_ms`, 20–60000) and
///   closes with 1000 after `count` ticks when given.
/// - `/ws/secure` is the echo behind `Authorization: Bearer demo-token` (or a login token); the
///   upgrade is refused with 401 otherwise.
///
/// Each also answers under `/v1`. A plain HTTP request to them gets 426 Upgrade Required.
extension DemoAPI {
    /// The WebSocket paths, relative to a base path.
    static let webSocketPaths = ["/ws/echo", "/ws/ticks", "/ws/secure"]

    /// Decides whether an upgrade request is taken, and by which handler.
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) async -> ShouldUpgradeResult<
        WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
    > {
        let target = request.path ?? "/"
        let components = URLComponents(string: target)
        var path = components?.path ?? target
        if path.hasPrefix("/v1/") { path.removeFirst(3) }
        let query = Dictionary(
            (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        var greeting: [String: Any] = ["hello": "explorer demo", "environment": environment, "path": path]
        var echoed: [String: String] = [:]
        for field in request.headerFields where field.name.canonicalName.hasPrefix("x-") {
            echoed[field.name.canonicalName] = field.value
        }
        greeting["headers"] = echoed
        if let cookie = request.headerFields[.cookie] { greeting["cookie"] = cookie }
        var hello: String { Self.json(greeting) }
        accessLog?("WS \(target) 101 \(environment)")
        switch path {
        case "/ws/echo":
            let text = hello
            return .upgrade([:]) { inbound, outbound, _ in
                try await Self.echo(inbound, outbound, greeting: text, channel: channel)
            }
        case "/ws/secure":
            let authorization = request.headerFields[.authorization]
            let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
            var valid = token == Self.bearerToken
            if !valid { valid = await store.tokens.state(of: token) == .valid }
            guard valid else { return .dontUpgrade }
            greeting["user"] = "ada"
            let text = hello
            return .upgrade([:]) { inbound, outbound, _ in
                try await Self.echo(inbound, outbound, greeting: text, channel: channel)
            }
        case "/ws/ticks":
            let interval = min(max(Int(query["interval_ms"] ?? "") ?? 1000, 20), 60_000)
            let count = Int(query["count"] ?? "").map { max($0, 0) }
            return .upgrade([:]) { inbound, outbound, _ in
                try await Self.ticks(inbound, outbound, interval: interval, count: count)
            }
        default:
            return .dontUpgrade
        }
    }

    /// The HTTP answer of a WebSocket path to a request that is not an upgrade (or whose
    /// upgrade was refused): 401 for `/ws/secure` without a valid token, 426 otherwise.
    func webSocketOnly(_ request: Hummingbird.Request) -> Hummingbird.Response {
        var path = request.uri.path
        if path.hasPrefix("/v1/") { path.removeFirst(3) }
        if path == "/ws/secure", request.headers[.upgrade] != nil {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer realm=\"explorer-demo\""
            return DemoReply.problem(
                .unauthorized, type: "unauthorized", title: "Unauthorized",
                detail: "This WebSocket needs 'Authorization: Bearer \(Self.bearerToken)' on the upgrade request.",
                instance: request.uri.path, headers: headers)
        }
        guard Self.webSocketPaths.contains(path) else { return notFound(request.uri.path, what: "WebSocket \(path)") }
        var headers = HTTPFields()
        headers[.upgrade] = "websocket"
        return DemoReply.problem(
            .init(code: 426, reasonPhrase: "Upgrade Required"), type: "upgrade-required", title: "Upgrade Required",
            detail:
                "\(path) is a WebSocket: "
                + "connect with ws:// (explorer send opens it when the endpoint has websocket: true).",
            instance: request.uri.path, headers: headers)
    }

    private static func echo(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, greeting: String, channel: any Channel
    ) async throws {
        try await outbound.write(.text(greeting))
        for try await message in inbound.messages(maxSize: DemoAPI.maxBodySize) {
            switch message {
            case .binary(let buffer):
                try await outbound.write(.binary(buffer))
            case .text(let text):
                let words = text.split(separator: " ", maxSplits: 2).map(String.init)
                if words.first == "close", words.count >= 2, let code = UInt16(words[1]) {
                    try await outbound.close(.init(codeNumber: Int(code)), reason: words.count > 2 ? words[2] : nil)
                    return
                }
                if text == "drop" {
                    try await channel.close()
                    return
                }
                try await outbound.write(.text(text))
            }
        }
    }

    private static func ticks(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, interval: Int, count: Int?
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                var tick = 0
                while count.map({ tick < $0 }) ?? true {
                    try await Task.sleep(for: .milliseconds(interval))
                    tick += 1
                    try await outbound.write(
                        .text(DemoAPI.json(["tick": tick, "time": formatter.string(from: Date())])))
                }
                try await outbound.close(.normalClosure, reason: "\(tick) ticks sent")
            }
            // Reading until the client's close (its own, or its answer to ours) keeps the close
            // handshake whole: the connection is not dropped while the client answers.
            for try await _ in inbound {}
            group.cancelAll()
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
