import Foundation
import Networking
import Testing
@testable import Demo
@testable import Workspace

/// Runs a command line with bash in a directory and returns its standard output.
func runWithBash(_ commandLine: String, in directory: URL) async throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")  // $'…' quoting needs bash
    process.arguments = ["-c", commandLine]
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait on a thread of its own: blocking one of the few cooperative threads while curl
    // talks to an in-process server that needs them deadlocks the test run.
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let data = try output.fileHandleForReading.readToEnd() ?? Data()
                process.waitUntilExit()
                continuation.resume(returning: data)
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

/// The parts of an `/echo` answer that say what request arrived, with curl's own defaults
/// (Host, User-Agent curl/x, Accept */*, Content-Length, Accept-Encoding) left out.
struct EchoedRequest: Equatable, CustomStringConvertible {
    var method: String
    var path: String
    var args: String
    var headers: [String: String]
    var body: String
    var form: String

    init(_ data: Data) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        method = object["method"] as? String ?? ""
        path = object["path"] as? String ?? ""
        args = EchoedRequest.canonical(object["args"])
        let ignored: Set<String> = ["host", "user-agent", "accept", "content-length", "accept-encoding", "connection"]
        var headers: [String: String] = [:]
        for (name, value) in object["headers"] as? [String: String] ?? [:] where !ignored.contains(name.lowercased()) {
            // A multipart boundary is random on both sides.
            headers[name.lowercased()] = value.lowercased().hasPrefix("multipart/form-data") ? "multipart/form-data" : value
        }
        let sentHeaders = object["headers"] as? [String: String] ?? [:]
        for name in ["User-Agent", "Accept"] {
            if let value = sentHeaders.first(where: { $0.key.lowercased() == name.lowercased() })?.value,
               !value.hasPrefix("curl/"), value != "*/*" {
                headers[name.lowercased()] = value
            }
        }
        self.headers = headers
        let isMultipart = (headers["content-type"] ?? "").hasPrefix("multipart/form-data")
        body = isMultipart ? "" : (object["body"] as? String ?? "")
        form = isMultipart ? EchoedRequest.canonical(object["form"]) + EchoedRequest.canonical(object["files"]) : ""
    }

    static func canonical(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject(value),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    var description: String { "\(method) \(path) args=\(args) headers=\(headers) body=\(body.debugDescription) form=\(form)" }
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
                if let body = expected.body { #expect(byCurl.body == body.replacingOccurrences(of: "PORT", with: "\(port)")) }

                let imported = try CurlImporter(baseDirectory: directory).importCommand(command)
                let collection = try CollectionLoader.parse(try CollectionWriter.yaml(for: imported.collection))
                let environment = try #require(collection.environments.first)
                let resolved = try RequestResolver(processEnvironment: [:]).resolve(try #require(collection.endpoints.first), in: collection, environment: environment)
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
}
