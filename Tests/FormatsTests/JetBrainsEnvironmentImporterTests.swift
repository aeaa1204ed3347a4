import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// `import http` with the IntelliJ HTTP client's `http-client.env.json` and
/// `http-client.private.env.json` beside the `.http` file.
@Suite struct JetBrainsEnvironmentImporterTests {
    static let folder = Fixtures.url("jetbrains/hmcts-hmpp")
    static let httpFile = folder.appendingPathComponent("HearingResultsDocumentSubscription.http")

    static func json(_ name: String) throws -> [String: [String: String]] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: String]])
    }

    @Test func theEnvironmentFilesBecomeEnvironmentsWithThePrivateValuesAsSecrets() throws {
        let imported = try HTTPFileImporter().importFile(at: Self.httpFile)
        let collection = try writtenAndReadBack(imported.collection)
        let shared = try Self.json("http-client.env.json")
        let secret = try Self.json("http-client.private.env.json")
        #expect(collection.environments.map(\.name) == ["dev", "sit", "preprod", "prod"])
        for environment in collection.environments {
            let expected = (shared[environment.name] ?? [:]).merging(secret[environment.name] ?? [:]) { $1 }
            #expect(Dictionary(environment.variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }) == expected)
            #expect(Set(environment.secrets) == Set((secret[environment.name] ?? [:]).keys))
            #expect(environment.baseURLTemplate == "{{waf_base_url}}")
        }
        // What the files define is no longer reported as undefined; what a script sets still is.
        #expect(!imported.warnings.contains { $0.hasPrefix("{{waf_base_url}} is not defined") })
        #expect(!imported.warnings.contains { $0.hasPrefix("{{subscription_key}} is not defined") })
        #expect(imported.warnings.contains { $0.hasPrefix("{{access_token}} is not defined") })
    }

    /// Every request of the file, sent in `dev` with its base URLs pointed at the echo, carries
    /// the environment files' values where the `.http` file names them.
    @Test func eachRequestSendsTheValuesOfTheEnvironmentFiles() async throws {
        let imported = try HTTPFileImporter().importFile(at: Self.httpFile)
        let collection = try writtenAndReadBack(imported.collection)
        let environment = try #require(collection.environments.first { $0.name == "dev" })
        let dev = try Self.json("http-client.env.json")["dev"] ?? [:]
        let devSecrets = try Self.json("http-client.private.env.json")["dev"] ?? [:]
        let echo = try await ImportEcho.start()
        let overrides = [
            "waf_base_url": echo.base, "apim_base_url": echo.base, "access_token": "t", "document_id": "d1",
        ]
        let values = dev.merging(devSecrets) { $1 }.merging(overrides) { $1 }
        let sources = try Self.requests(in: String(contentsOf: Self.httpFile, encoding: .utf8))
        #expect(sources.count == collection.endpoints.count)
        var compared = 0
        do {
            for (source, endpoint) in zip(sources, collection.endpoints) {
                let arrived = try await echo.send(
                    endpoint, in: collection, environment: environment, overrides: overrides)
                let url = try #require(URLComponents(string: Self.expanded(source.url, values)))
                #expect(arrived.method == source.method)
                #expect(arrived.path == url.path)
                for (name, value) in source.headers {
                    #expect(arrived.headers[name.lowercased()] == Self.expanded(value, values), "\(source.url) \(name)")
                }
                #expect(arrived.headers["ocp-apim-subscription-key"] == "<dev-subscription-key>")
                if source.body.isEmpty {
                    #expect(arrived.body.isEmpty)
                } else {
                    let sent = try JSONSerialization.jsonObject(with: Data(arrived.body.utf8)) as? NSDictionary
                    let written = try JSONSerialization.jsonObject(with: Data(source.body.utf8)) as? NSDictionary
                    #expect(sent == written)
                }
                compared += 1
            }
        } catch {
            Issue.record(error)
        }
        try await echo.stop()
        #expect(compared == 14)
    }

    /// The file's requests as written: method, URL, headers, body (read here, not by the importer).
    static func requests(in text: String) throws -> [(
        method: String, url: String, headers: [(String, String)], body: String
    )] {
        var out: [(method: String, url: String, headers: [(String, String)], body: String)] = []
        for block in text.components(separatedBy: "\n###") {
            let lines = block.components(separatedBy: "\n").filter { !$0.hasPrefix("###") && !$0.hasPrefix("#") }
            guard
                let start = lines.firstIndex(where: {
                    $0.range(of: #"^[A-Z]+ \S+"#, options: .regularExpression) != nil
                })
            else { continue }
            let parts = lines[start].split(separator: " ")
            var headers: [(String, String)] = []
            var index = start + 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                let line = lines[index]
                let colon = try #require(line.firstIndex(of: ":"))
                headers.append(
                    (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                index += 1
            }
            let body = lines[min(index, lines.count)...].prefix { !$0.hasPrefix("> {%") }.joined(separator: "\n")
            out.append(
                (String(parts[0]), String(parts[1]), headers, body.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return out
    }

    static func expanded(_ text: String, _ values: [String: String]) -> String {
        var out = text
        for (name, value) in values { out = out.replacingOccurrences(of: "{{\(name)}}", with: value) }
        return out
    }

    /// `$shared` values reach every environment unless it sets its own; `SSLConfiguration`
    /// becomes `tls:`; a value that is an object is reported; numbers and booleans are text.
    @Test func sharedValuesAndTLSSettings() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let http = try folder.write("api.http", "GET {{host}}/items?limit={{limit}}\nX-Debug: {{debug}}\n")
        try folder.write(
            "http-client.env.json",
            #"""
            {"$shared": {"limit": 10, "debug": false},
             "local": {"host": "http://localhost:8080", "limit": 5, "Security": {"Auth": {}}},
             "staging": {"host": "https://staging.example.com",
                         "SSLConfiguration": {"clientCertificate": "cert.pem", "clientCertificateKey": "key.pem",
                                              "verifyHostCertificate": false}}}
            """#)
        try folder.write(
            "http-client.private.env.json", #"{"$shared": {"debug": true}, "staging": {"token": "s3cret"}}"#)
        let imported = try HTTPFileImporter().importFile(at: http)
        let collection = try writtenAndReadBack(imported.collection)
        #expect(collection.environments.map(\.name) == ["local", "staging"])
        let local = collection.environments[0]
        #expect(
            local.variables == [
                KeyValue("host", "http://localhost:8080"), KeyValue("limit", "5"), KeyValue("debug", "true"),
            ])
        #expect(local.secrets == ["debug"])
        let staging = collection.environments[1]
        #expect(
            staging.variables == [
                KeyValue("host", "https://staging.example.com"), KeyValue("token", "s3cret"), KeyValue("limit", "10"),
                KeyValue("debug", "true"),
            ])
        #expect(staging.secrets == ["token", "debug"])
        #expect(staging.tls == TLSSettings(clientCertificateFile: "cert.pem", clientKeyFile: "key.pem", insecure: true))
        #expect(imported.warnings.contains { $0.contains("\"local\" has Security, which is not imported") })
        #expect(!imported.warnings.contains { $0.contains("is not defined in the file") })
    }

    @Test func anEnvironmentFileThatIsNotJSONIsRefusedWithItsLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let http = try folder.write("api.http", "GET http://localhost/\n")
        try folder.write("http-client.env.json", "{\n  \"dev\": {\n    \"host\": \n  }\n}\n")
        do {
            _ = try HTTPFileImporter().importFile(at: http)
            Issue.record("a broken environment file imported")
        } catch {
            #expect(
                "\(error)".contains(
                    "http-client.env.json: it cannot be imported as a JetBrains HTTP Client environment file: "
                        + "it is not valid JSON: line 4"))
        }
        try folder.write("http-client.env.json", "[1, 2]")
        #expect(throws: ImportError.self) { try HTTPFileImporter().importFile(at: http) }
        // Without either file, the import is as before: one default environment.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("http-client.env.json"))
        #expect(try HTTPFileImporter().importFile(at: http).collection.environments.map(\.name) == ["default"])
    }
}
