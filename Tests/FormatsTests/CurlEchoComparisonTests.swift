import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// The parts of an `/echo` answer that say what request arrived, with curl's own defaults
/// (Host, User-Agent curl/x, Accept */*, Content-Length, Accept-Encoding) left out.
struct EchoedRequest: Equatable, CustomStringConvertible {
    var method: String
    var path: String
    var args: String
    /// The query as it arrived, escapes in upper case and non-ASCII bytes decoded (curl sends
    /// them raw, explorer escaped: a server reads both the same).
    var query: String
    var headers: [String: String]
    var body: String
    var form: String

    init(_ data: Data) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        method = object["method"] as? String ?? ""
        path = object["path"] as? String ?? ""
        args = EchoedRequest.canonical(object["args"])
        let url = object["url"] as? String ?? ""
        query =
            url.firstIndex(of: "?").map { EchoedRequest.normalizedQuery(String(url[url.index(after: $0)...])) } ?? ""
        // The connection's own headers (curl's --http2 on http:// asks to upgrade with two).
        let ignored: Set<String> = [
            "host", "user-agent", "accept", "content-length", "accept-encoding", "connection", "upgrade",
            "http2-settings",
        ]
        var headers: [String: String] = [:]
        for (name, value) in object["headers"] as? [String: String] ?? [:] where !ignored.contains(name.lowercased()) {
            // A multipart boundary is random on both sides.
            headers[name.lowercased()] =
                value.lowercased().hasPrefix("multipart/form-data") ? "multipart/form-data" : value
        }
        let sentHeaders = object["headers"] as? [String: String] ?? [:]
        for name in ["User-Agent", "Accept"] {
            if let value = sentHeaders.first(where: { $0.key.lowercased() == name.lowercased() })?.value,
                !value.hasPrefix("curl/"), value != "*/*"
            {
                headers[name.lowercased()] = value
            }
        }
        self.headers = headers
        let isMultipart = (headers["content-type"] ?? "").hasPrefix("multipart/form-data")
        body = isMultipart ? "" : (object["body"] as? String ?? "")
        form = isMultipart ? EchoedRequest.canonical(object["form"]) + EchoedRequest.canonical(object["files"]) : ""
    }

    static func normalizedQuery(_ query: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(query.utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                let byte = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                if byte >= 0x80 { bytes.append(byte) } else { bytes += Array(String(format: "%%%02X", byte).utf8) }
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func canonical(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    var description: String {
        "\(method) \(path) query=\(query) args=\(args) headers=\(headers) body=\(body.debugDescription) form=\(form)"
    }
}

@Suite struct CurlEchoComparisonTests {
    /// Each fixture curl command, imported into a collection and sent through Networking to the
    /// demo API's `/echo`, arrives as the same request as running that curl command itself.
    @Test func importedCurlCommandsEchoTheSameRequestAsCurlItself() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("/usr/bin/curl is needed for this comparison")
            return
        }
        let server = try await DemoServer.start(port: 0)
        let port = try #require(server.environments.first).port
        let transport = AsyncHTTPClientTransport()
        let directory = Fixtures.url("curl")
        var compared = 0
        do {
            for expected in try ExpectedCurl.all() where expected.method != "HEAD" {
                // Every path goes to /v1/echo/<path>; the rest of the command is untouched.
                let command = expected.curl
                    .replacingOccurrences(of: "http://127.0.0.1:PORT/", with: "http://127.0.0.1:\(port)/v1/echo/")
                    .replacingOccurrences(of: "PORT", with: "\(port)")
                let byCurl = try EchoedRequest(try await runWithBash(command + " -s", in: directory))
                // The echo is not vacuous: curl's own request is the one the fixture expects.
                #expect(byCurl.method == expected.method)
                if let body = expected.body {
                    #expect(byCurl.body == body.replacingOccurrences(of: "PORT", with: "\(port)"))
                }

                let imported = try CurlImporter(baseDirectory: directory).importCommand(command)
                let collection = try writtenAndReadBack(imported.collection)
                let environment = try #require(collection.environments.first)
                let resolved = try RequestResolver(processEnvironment: [:]).resolve(
                    try #require(collection.endpoints.first), in: collection, environment: environment)
                let dispatcher = NetworkDispatcher(serverProvider: environment, transport: transport)
                let response = try await dispatcher.future(from: resolved.request).value
                let byExplorer = try EchoedRequest(try #require(response.body))

                #expect(byExplorer == byCurl, "\(expected.curl)\n explorer: \(byExplorer)\n curl:     \(byCurl)")
                compared += 1
            }
        } catch {
            Issue.record(error)
        }
        #expect(compared == 14)
        try await transport.shutdown()
        await server.stop()
    }

    /// curlconverter's corpus of command lines from its users' reports: every request real
    /// curl manages to send through a script is, after `explorer import curl`, sent the same
    /// by explorer (method, path, raw query, headers, body or multipart parts).
    @Test func curlconvertersCorpusSendsTheSameRequestsAsCurl() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("/usr/bin/curl is needed for this comparison")
            return
        }
        let server = try await DemoServer.start(port: 0)
        let port = try #require(server.environments.first).port
        let transport = AsyncHTTPClientTransport()
        let directory = try TemporaryFolder()
        let variables = ["DO_API_TOKEN": "dop_v1_token", "MYVARIABLE": "{\"from\": \"a variable\"}"]
        // A few scripts name hosts on the internet (httpbin.org): curl sends those to a proxy
        // that is not there, so they fail at once without a DNS lookup and nothing leaves this
        // machine (a script whose runs fail is not compared).
        var bashEnvironment = [
            "PATH": "/usr/bin:/bin", "HOME": directory.url.path,
            "all_proxy": "http://127.0.0.1:9", "no_proxy": "127.0.0.1",
        ]
        bashEnvironment.merge(variables) { $1 }
        // Each curl run ends with a marker and its exit status; each transfer with its status.
        let wrapper =
            #"curl() { command curl -s --max-time 30 -w '\n@@TRANSFER %{http_code}@@\n' "$@"; echo "@@EXIT $?@@"; }"#
            + "\n"
        let corpus = Fixtures.url("curl/curlconverter")
        var compared = 0
        var sendable: [String] = []
        var mismatches: [String] = []
        var refused: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        where file.hasSuffix(".sh") {
            let script = try String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)
                .replacingOccurrences(of: "localhost:28139", with: "127.0.0.1:\(port)/v1/echo")
            // curl's output goes into the next command of a pipe there: it cannot be observed.
            if file == "pipelines.sh" { continue }
            let output = String(
                decoding: try await runWithBash(wrapper + script, in: directory.url, environment: bashEnvironment),
                as: UTF8.self)
            let runs = output.components(separatedBy: "@@EXIT ")
            // Only scripts whose every curl run and transfer reached the server are compared.
            let exits = runs.dropFirst().map { $0.prefix { $0.isNumber } }
            guard !exits.isEmpty, exits.allSatisfy({ $0 == "0" }) else { continue }
            var transfers: [EchoedRequest] = []
            for run in runs.dropLast() {
                for chunk in run.components(separatedBy: "@@TRANSFER ").dropLast() {
                    let body = chunk.drop { $0 != "{" }
                    if let echoed = try? EchoedRequest(Data(body.utf8)) {
                        transfers.append(echoed)
                    } else {
                        transfers.append(EchoedRequest.none)
                    }
                }
            }
            let imported: ImportResult
            do {
                imported = try CurlImporter(baseDirectory: directory.url).importCommand(script)
            } catch {
                mismatches.append("\(file): curl sends it, explorer does not import it: \(error)")
                continue
            }
            let collection = try writtenAndReadBack(imported.collection)
            let endpoints = collection.endpoints
            guard endpoints.count == transfers.count else {
                mismatches.append(
                    "\(file): curl sent \(transfers.count) request(s), explorer imported \(endpoints.count)")
                continue
            }
            sendable.append(file)
            let environment = try #require(collection.environments.first)
            let dispatcher = NetworkDispatcher(serverProvider: environment, transport: transport)
            for (endpoint, byCurl) in zip(endpoints, transfers)
            where endpoint.method != .head && byCurl != EchoedRequest.none {
                let resolved: ResolvedRequest
                do {
                    resolved = try RequestResolver(processEnvironment: variables).resolve(
                        endpoint, in: collection, environment: environment)
                } catch let error as ResolveError {
                    // curl sends an empty body for a file it cannot read; explorer refuses to send.
                    if case .unreadableFile = error {
                        refused.append(file)
                    } else {
                        mismatches.append("\(file): \(error)")
                    }
                    continue
                }
                let response = try await dispatcher.future(from: resolved.request).value
                let byExplorer = try EchoedRequest(try #require(response.body))
                if byExplorer != byCurl {
                    mismatches.append("\(file):\n explorer: \(byExplorer)\n curl:     \(byCurl)")
                }
                compared += 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(refused.isEmpty, "\(refused)")
        // The number of requests compared, so a silently skipped script shows. (The three
        // scripts that name a proxy reach the echo directly: no_proxy covers 127.0.0.1.)
        #expect(compared == 91, "compared \(compared) requests from \(sendable.count) scripts: \(sendable)")
        directory.cleanUp()
        try await transport.shutdown()
        await server.stop()
    }
}

extension EchoedRequest {
    /// A transfer whose answer is not an echo (a HEAD, a refused request).
    static let none = EchoedRequest(method: "", path: "", query: "", args: "", headers: [:], body: "", form: "")

    init(
        method: String, path: String, query: String, args: String, headers: [String: String], body: String, form: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.args = args
        self.headers = headers
        self.body = body
        self.form = form
    }
}
