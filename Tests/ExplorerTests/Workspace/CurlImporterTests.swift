import Foundation
import Networking
import Testing
@testable import Demo
@testable import Workspace

/// One entry of `Tests/Fixtures/curl/expected.json`.
struct ExpectedCurl: Decodable, Sendable {
    struct Part: Decodable, Sendable, Equatable {
        var name: String
        var value: String
    }
    var curl: String
    var method: String
    var url: String
    var headers: [String: String]
    var body: String?
    var form: [Part]?

    static func all() throws -> [ExpectedCurl] {
        try JSONDecoder().decode([ExpectedCurl].self, from: Data(contentsOf: Fixtures.url("curl/expected.json")))
    }
}

/// The decoded `name=value` pairs of a query, `+` read as a space.
func decodedCurlQuery(_ query: String?) -> [String] {
    guard let query, !query.isEmpty else { return [] }
    return query.split(separator: "&").map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
}

@Suite struct CurlImporterTests {
    let importer = CurlImporter(baseDirectory: Fixtures.url("curl"))

    @Test func everyFixtureCommandParsesToItsExpectedRequest() throws {
        let expectations = try ExpectedCurl.all()
        #expect(expectations.count == 15)
        for expected in expectations {
            let command = try importer.parse(expected.curl)
            #expect(command.method.rawValue == expected.method, "\(expected.curl)")
            #expect(command.url == expected.url, "\(expected.curl)")
            var headers: [String: String] = [:]
            for header in command.headers { headers[header.name] = header.value }
            #expect(headers == expected.headers, "\(expected.curl)")
            #expect(command.body == expected.body, "\(expected.curl)")
            #expect(command.form.map { ExpectedCurl.Part(name: $0.name, value: $0.value) } == (expected.form ?? []), "\(expected.curl)")
            #expect(command.warnings.isEmpty, "\(expected.curl): \(command.warnings)")
        }
    }

    @Test func everyFixtureCommandImportsAndResolvesToTheSameRequest() throws {
        for expected in try ExpectedCurl.all() {
            let result = try importer.importCommand(expected.curl.replacingOccurrences(of: "PORT", with: "9"))
            // Through YAML and back, as a user's collection file would go.
            let yaml = try CollectionWriter.yaml(for: result.collection)
            let collection = try CollectionLoader.parse(yaml)
            let endpoint = try #require(collection.endpoints.first)
            let resolved = try RequestResolver(processEnvironment: [:]).resolve(endpoint, in: collection)
            let sent = try #require(URLComponents(string: resolved.url))
            let wanted = try #require(URLComponents(string: expected.url.replacingOccurrences(of: "PORT", with: "9")))
            #expect(resolved.request.method.rawValue == expected.method)
            #expect(sent.path == wanted.path, "\(expected.curl)")
            #expect(decodedCurlQuery(sent.percentEncodedQuery) == decodedCurlQuery(wanted.percentEncodedQuery), "\(expected.curl)")
            for (name, value) in expected.headers where name.lowercased() != "content-type" || expected.form == nil {
                #expect(resolved.request.headers[name] == value.replacingOccurrences(of: "PORT", with: "9"), "\(name) of \(expected.curl)")
            }
            if let body = expected.body {
                #expect(resolved.request.httpBody == Data(body.utf8), "\(expected.curl)")
            } else if let form = expected.form {
                let text = String(decoding: try #require(resolved.request.httpBody), as: UTF8.self)
                for part in form { #expect(text.contains("name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n")) }
                #expect(resolved.request.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
            } else {
                #expect(resolved.request.httpBody == nil, "\(expected.curl)")
            }
        }
    }

    @Test func quotingStylesAndContinuations() throws {
        #expect(try ShellWords.split("curl -H 'A: b c' \"x\\\"y\" $'a\\nb\\'c' d\\ e \\\n  f") == ["curl", "-H", "A: b c", "x\"y", "a\nb'c", "d e", "f"])
        #expect(throws: ShellWords.Failure.unterminatedQuote("'")) { try ShellWords.split("curl 'abc") }
    }

    @Test func unknownFlagsAreReportedNotDropped() throws {
        let command = try importer.parse("curl --frobnicate -Q x http://127.0.0.1:1/a")
        #expect(command.warnings.contains { $0.contains("--frobnicate") })
        let result = try importer.importCommand("curl -k https://example.com/a")
        #expect(result.warnings.contains { $0.contains("-k") })
    }

    @Test func methodRulesFollowCurl() throws {
        #expect(try importer.parse("curl http://h/a").method == .get)
        #expect(try importer.parse("curl -d x http://h/a").method == .post)
        #expect(try importer.parse("curl -F a=b http://h/a").method == .post)
        #expect(try importer.parse("curl -I http://h/a").method == .head)
        #expect(try importer.parse("curl -G -d a=b http://h/a").url == "http://h/a?a=b")
        #expect(try importer.parse("curl -XPUT -d x http://h/a").method == .put)
        #expect(try importer.parse("curl --url http://h/a -u user:pw").headers == [KeyValue("Authorization", "Basic dXNlcjpwdw==")])
    }

    @Test func missingURLOrValueIsAClearError() {
        #expect(throws: ImportError.invalidCurl("it has no URL.")) { try importer.parse("curl -s") }
        #expect(throws: ImportError.invalidCurl("the option -H needs a value.")) { try importer.parse("curl http://h/ -H") }
        #expect(throws: ImportError.unreadableFile(Fixtures.url("curl/nope.txt").path)) { try importer.parse("curl -d @nope.txt http://h/") }
    }

    @Test func theImportedEndpointIsNamedByMethodAndPath() throws {
        let result = try importer.importCommand("curl -X DELETE 'http://127.0.0.1:1/api/items/9?force=true'")
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.name == "DELETE /api/items/9")
        #expect(endpoint.query == [KeyValue("force", "true")])
        #expect(result.collection.environments.first?.baseURLTemplate == "http://127.0.0.1:1")
    }
}
