import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// The demo API's `/echo` for import tests: an imported endpoint is sent there and what
/// arrived (method, path, query, headers, body) is read back, to compare with the source file.
struct ImportEcho {
    let server: DemoServer
    let transport = AsyncHTTPClientTransport()
    /// `http://127.0.0.1:PORT/v1/echo`: a source's origin is replaced with it.
    let base: String

    static func start() async throws -> ImportEcho {
        let server = try await DemoServer.start(port: 0)
        let port = try #require(server.environments.first).port
        return ImportEcho(server: server, base: "http://127.0.0.1:\(port)/v1/echo")
    }

    func stop() async throws {
        try await transport.shutdown()
        await server.stop()
    }

    /// What one request sent to `/echo` arrived as.
    struct Arrived {
        var method: String
        /// The path, percent-decoded.
        var path: String
        /// The query's pairs, decoded, in order.
        var query: [KeyValue]
        /// Header names lower-cased; repeated ones joined with ", ".
        var headers: [String: String]
        var body: String
    }

    /// Sends an endpoint of a collection (its variables resolved in `environment` with
    /// `overrides`) and reads back what arrived.
    func send(
        _ endpoint: Endpoint, in collection: APICollection, environment: Environment,
        overrides: [String: String] = [:]
    ) async throws -> Arrived {
        environment.setOverrides(overrides)
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            endpoint, in: collection, environment: environment, overrides: overrides)
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: transport)
        let response = try await dispatcher.future(from: resolved.request).value
        let body = try #require(response.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let url = object["url"] as? String ?? ""
        let query = url.firstIndex(of: "?").map { DemoEcho.formPairs(String(url[url.index(after: $0)...])) } ?? []
        var headers: [String: String] = [:]
        for (name, value) in object["headers"] as? [String: String] ?? [:] { headers[name.lowercased()] = value }
        let path = object["path"] as? String ?? ""
        return Arrived(
            method: object["method"] as? String ?? "", path: path.removingPercentEncoding ?? path,
            query: query.map { KeyValue($0.0, $0.1) }, headers: headers, body: object["body"] as? String ?? "")
    }

    /// A copy of a fixture folder in a temporary folder, each of `origins` in its files'
    /// text replaced with the echo's base (the files are otherwise as written).
    func copy(_ fixture: URL, replacing origins: [String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let walker = FileManager.default.enumerator(at: fixture, includingPropertiesForKeys: nil)
        while let file = walker?.nextObject() as? URL {
            let relative = String(file.standardizedFileURL.path.dropFirst(fixture.standardizedFileURL.path.count + 1))
            let target = folder.url.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                continue
            }
            var text = try String(contentsOf: file, encoding: .utf8)
            for origin in origins { text = text.replacingOccurrences(of: origin, with: base) }
            try Data(text.utf8).write(to: target)
        }
        return folder
    }
}
