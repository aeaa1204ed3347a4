import Foundation
import NetworkingCore
import TestSupport
import Testing
import Yams

@testable import Formats
@testable import Workspace

@Suite struct PostingImporterTests {
    static let samples = Fixtures.url("posting/sample-collections")
    static let origins = [
        "https://postman-echo.com", "https://jsonplaceholder.typicode.com", "https://api.randomuser.me",
    ]

    /// Posting's own sample collection, its hosts pointed at the echo: every request whose
    /// variables `sample_base.env` defines arrives as its file says (method, path, query,
    /// headers, body), read from the file here with a YAML parser of its own.
    @Test func postingsSampleCollectionSendsWhatEachFileSays() async throws {
        let echo = try await ImportEcho.start()
        let folder = try echo.copy(Self.samples, replacing: Self.origins)
        defer { folder.cleanUp() }
        let imported = try PostingImporter().importFolder(at: folder.url)
        let collection = try writtenAndReadBack(imported.collection)
        let environment = try #require(collection.environments.first { $0.name == "sample_base" })
        let variables = Dictionary(environment.variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        var compared = 0
        var unresolved: [String] = []
        do {
            for file in try PostingImporter.requestFiles(in: folder.url) {
                let source = try #require(
                    try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
                let folders = Array(
                    file.pathComponents.dropFirst(folder.url.standardizedFileURL.pathComponents.count).dropLast())
                let name = try #require(source["name"] as? String)
                let endpoint = try #require(collection.endpoints.first { $0.name == name && $0.folderPath == folders })
                // What the file says, its $variables filled in from the environment file.
                guard let url = Self.expanded(source["url"] as? String ?? "", variables) else {
                    unresolved.append(name)
                    continue
                }
                let headers = (source["headers"] as? [[String: Any]] ?? []).filter { $0["enabled"] as? Bool ?? true }
                guard
                    let expandedHeaders = try? headers.map({ header -> (String, String) in
                        guard let value = Self.expanded("\(header["value"] ?? "")", variables) else {
                            throw CancellationError()
                        }
                        return ("\(header["name"] ?? "")", value)
                    })
                else {
                    unresolved.append(name)
                    continue
                }
                let arrived = try await echo.send(endpoint, in: collection, environment: environment)
                let pathParameters = (source["path_params"] as? [[String: Any]] ?? []).map {
                    ("\($0["name"] ?? "")", "\($0["value"] ?? "")")
                }
                var expectedURL = try #require(URLComponents(string: url))
                for (parameter, value) in pathParameters {
                    expectedURL.path = expectedURL.path.replacingOccurrences(of: ":\(parameter)", with: value)
                }
                #expect(arrived.method == (source["method"] as? String ?? "GET"), "\(name)")
                #expect(arrived.path == expectedURL.path, "\(name)")
                let params = (source["params"] as? [[String: Any]] ?? []).filter { $0["enabled"] as? Bool ?? true }
                let expectedQuery =
                    (expectedURL.queryItems ?? []).map { KeyValue($0.name, $0.value ?? "") }
                    + params.map { KeyValue("\($0["name"] ?? "")", "\($0["value"] ?? "")") }
                #expect(arrived.query == expectedQuery, "\(name)")
                for (header, value) in expandedHeaders {
                    #expect(arrived.headers[header.lowercased()] == value, "\(name): \(header)")
                }
                let body = source["body"] as? [String: Any]
                if let content = body?["content"] as? String {
                    #expect(arrived.body == content, "\(name)")
                } else if let form = body?["form_data"] as? [[String: Any]] {
                    let pairs = DemoEchoPairs.decode(arrived.body)
                    #expect(pairs == form.map { KeyValue("\($0["name"] ?? "")", "\($0["value"] ?? "")") }, "\(name)")
                } else {
                    #expect(arrived.body.isEmpty, "\(name)")
                }
                if let auth = source["auth"] as? [String: Any], auth["type"] as? String == "basic" {
                    let basic = auth["basic"] as? [String: Any] ?? [:]
                    let credentials = "\(basic["username"] ?? ""):\(basic["password"] ?? "")"
                    #expect(arrived.headers["authorization"] == "Basic " + Data(credentials.utf8).base64EncodedString())
                }
                compared += 1
            }
        } catch {
            Issue.record(error)
        }
        try await echo.stop()
        // 17 files; "get a user" uses two variables no environment file defines, "echo" one a script sets.
        #expect(compared == 15)
        #expect(Set(unresolved) == ["get a user", "echo"])
    }

    /// `$NAME` and `${NAME}` as Python's string.Template reads them, else nil when one is undefined.
    static func expanded(_ text: String, _ variables: [String: String]) -> String? {
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            var after = rest[rest.index(after: dollar)...]
            let braced = after.first == "{"
            if braced { after = after.dropFirst() }
            let name = after.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard !name.isEmpty, let value = variables[String(name)] else { return nil }
            out += value
            rest = after.dropFirst(name.count + (braced ? 1 : 0))
        }
        return out + rest
    }

    /// The imported sample collection's shape: folders as the subfolders, environments as the
    /// .env files, descriptions, follow_redirects, and one warning each for scripts and timeouts.
    @Test func sampleCollectionsFoldersEnvironmentsAndNotes() throws {
        let imported = try PostingImporter().importFolder(at: Self.samples)
        let collection = try writtenAndReadBack(imported.collection)
        #expect(collection.environments.map(\.name) == ["sample_base", "sample_extra"])
        #expect(
            collection.environments[1].variables == [
                KeyValue("FILE", "extra"), KeyValue("POST_ID", "2"), KeyValue("ONLY_EXTRA", "true"),
            ])
        #expect(collection.environments[0].baseURLTemplate == "https://jsonplaceholder.typicode.com")
        #expect(collection.endpoints.count == 17)
        let comments = try #require(collection.endpoints.first { $0.name == "get comments" })
        #expect(comments.folderPath == ["jsonplaceholder", "posts", "comments"])
        #expect(comments.path == "/posts/3/comments")
        let todo = try #require(collection.endpoints.first { $0.id == "jsonplaceholder/todos/get one" })
        #expect(todo.path == "/todos/{{TODO_ID}}")
        #expect(todo.followRedirects == false)
        #expect(todo.description == "Retrieve one todo")
        // Posting's order: GET, POST, PUT, PATCH, DELETE, then by name.
        let posts = collection.endpoints.filter { $0.folderPath == ["jsonplaceholder", "posts"] }.map(\.name)
        #expect(posts == ["get all", "get one", "create", "delete a post"])
        #expect(imported.warnings.contains { $0.contains("\"echo\", \"create a user\" have scripts") })
        #expect(imported.warnings.contains { $0.contains("\"echo post\" 0.2 s, \"create\" 0.2 s") })
        #expect(imported.warnings.contains { $0.contains("{{USER_ID_UNRESOLVED}}") })
    }

    @Test func templatesAreConvertedAsPythonsStringTemplateReadsThem() {
        #expect(PostingImporter.converted("$host/a/${id}x/$$5/$1/$") == "{{host}}/a/{{id}}x/$5/$1/$")
        #expect(PostingImporter.converted("no dollars") == "no dollars")
        #expect(PostingImporter.converted("${not closed") == "${not closed")
        #expect(
            PostingImporter.substitutingPathParameters(
                in: "http://h:8080/users/:id/time::stamp?x=:id", [("id", "7")])
                == "http://h:8080/users/7/time:stamp?x=:id")
    }

    @Test func disabledRowsAuthKindsAndOptionsAreKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write(
            "one.posting.yaml",
            """
            name: one
            method: patch
            url: api.example.com/items/$ITEM
            params:
            - name: on
              value: '1'
            - name: off
              value: '2'
              enabled: false
            headers:
            - name: X-Off
              value: x
              enabled: false
            body:
              form_data:
              - name: a
                value: b
              - name: c
                value: d
                enabled: false
            auth:
              type: digest
              digest:
                username: u
                password: $PASSWORD
            options:
              verify_ssl: false
              proxy_url: http://proxy:3128
              attach_cookies: false
            """)
        try folder.write(
            "two.posting.yaml",
            """
            url: https://api.example.com/token
            body:
              content: '{"a": 1}'
              content_type: application/json
            auth:
              type: bearer_token
              bearer_token:
                token: ${TOKEN}
            """)
        try folder.write(".env", "ITEM=42\nexport PASSWORD=\"p\\\"w\"\nTOKEN='t' \nnot a pair\n")
        let imported = try PostingImporter().importFolder(at: folder.url)
        let collection = try writtenAndReadBack(imported.collection)
        let one = try #require(collection.endpoints.first { $0.name == "one" })
        #expect(one.method == HTTPMethod(exactly: "PATCH"))
        // Two origins, one request each: the first in Posting's order (GET before PATCH) is the base URL.
        #expect(one.path == "http://api.example.com/items/{{ITEM}}")
        #expect(one.query == [KeyValue("on", "1")])
        #expect(one.disabled.query == [KeyValue("off", "2")])
        #expect(one.disabled.headers == [KeyValue("X-Off", "x")])
        #expect(one.body == .form([KeyValue("a", "b")]))
        #expect(one.disabled.form == [KeyValue("c", "d")])
        #expect(one.auth == Authentication(.digest(username: "u", password: "{{PASSWORD}}")))
        let two = try #require(collection.endpoints.first { $0.name == "two" })
        #expect(two.headers == [KeyValue("Content-Type", "application/json")])
        #expect(two.body == .raw(#"{"a": 1}"#))
        #expect(two.auth == Authentication(.bearer(token: "{{TOKEN}}")))
        #expect(collection.environments.map(\.name) == ["default"])
        #expect(
            collection.environments[0].variables == [
                KeyValue("ITEM", "42"), KeyValue("PASSWORD", "p\"w"), KeyValue("TOKEN", "t"),
            ])
        #expect(imported.warnings.contains { $0.contains("\"one\" turns off TLS verification") })
        #expect(imported.warnings.contains { $0.contains("\"one\" uses its own proxy_url") })
        #expect(imported.warnings.contains { $0.contains("\"one\" sends no cookies") })
        #expect(imported.warnings.contains { $0.contains("/.env:4: the line is not KEY=value") })
    }

    /// A file that is not a request is skipped and named with its line; the others import.
    @Test func aBadRequestFileIsSkippedAndNamedWithItsLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("good.posting.yaml", "name: good\nurl: http://localhost:1/a\n")
        try folder.write("bad.posting.yaml", "name: bad\nurl: [unclosed\n")
        try folder.write("nourl.posting.yaml", "name: no url\nmethod: GET\n")
        try folder.write("auth.posting.yaml", "name: odd auth\nurl: http://x/\nauth:\n  type: ntlm\n")
        let imported = try PostingImporter().importFolder(at: folder.url)
        #expect(imported.collection.endpoints.map(\.name) == ["good"])
        let summary = try #require(imported.warnings.first { $0.contains("files were skipped") })
        #expect(summary.contains("3 files were skipped"))
        #expect(
            summary.contains(
                "bad.posting.yaml: it cannot be imported as a Posting request: it is not valid YAML: line 3"))
        #expect(
            summary.contains(
                "nourl.posting.yaml: it cannot be imported as a Posting request: line 1: the request has no url."))
        #expect(
            summary.contains(
                "auth.posting.yaml: it cannot be imported as a Posting request: line 3: the auth type \"ntlm\""))
    }

    @Test func aFolderWhereNothingReadsIsRefusedWithTheFirstFilesLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("bad.posting.yaml", "name: bad\nheaders: {a: b}\nurl: http://x/\n")
        #expect(throws: ImportError.self) { try PostingImporter().importFolder(at: folder.url) }
        do {
            _ = try PostingImporter().importFolder(at: folder.url)
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    "bad.posting.yaml: it cannot be imported as a Posting request: line 2: headers is not a list of name and value."
                ))
        }
        // One request file named alone is a collection of that request; a broken one is refused at its line.
        let one = try PostingImporter().importFolder(
            at: Self.samples.appendingPathComponent("echo-post-01.posting.yaml"))
        #expect(one.collection.endpoints.map(\.name) == ["echo post"])
        #expect(one.collection.environments.first?.baseURLTemplate == "https://postman-echo.com")
        #expect(throws: ImportError.self) {
            try PostingImporter().importFolder(at: folder.url.appendingPathComponent("bad.posting.yaml"))
        }
        let file = try folder.write("x.txt", "")
        #expect(throws: ImportError.self) { try PostingImporter().importFolder(at: file) }
        let empty = try TemporaryFolder()
        defer { empty.cleanUp() }
        #expect(throws: ImportError.self) { try PostingImporter().importFolder(at: empty.url) }
    }
}

/// A urlencoded body's pairs, decoded.
enum DemoEchoPairs {
    static func decode(_ body: String) -> [KeyValue] {
        body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return KeyValue(decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }
}
