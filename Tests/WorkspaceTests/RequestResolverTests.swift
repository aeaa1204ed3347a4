import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Terminal
@testable import Workspace

@Suite struct RequestResolverTests {
    let fixedDate = Date(timeIntervalSince1970: 1_700_000_000)

    func resolver(_ environment: [String: String] = ["DEMO_TOKEN": "s3cret-token"]) -> RequestResolver {
        RequestResolver(processEnvironment: environment, now: fixedDate, uuid: "00000000-0000-4000-8000-000000000000")
    }

    @Test func buildsTheRequestWithBaseURLQueryAndEnvironmentHeaders() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let resolved = try resolver().resolve(try collection.endpoint(named: "List posts"), in: collection)
        #expect(resolved.url == "http://127.0.0.1:8080/v1/posts?page=1&per_page=20")
        #expect(resolved.request.method == .get)
        #expect(resolved.request.path == "/posts")
        #expect(
            resolved.request.queryItems == [
                URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "per_page", value: "20"),
            ])
        #expect(resolved.request.headers["Authorization"] == "Bearer s3cret-token")
        let span = try #require(resolved.urlVariableSpans.first)
        #expect(span.name == "per_page")
        #expect(Array(resolved.url)[span.range].map(String.init).joined() == "20")
    }

    @Test func precedenceIsCommandLineThenEnvironmentThenCollection() throws {
        let yaml = """
            name: x
            variables: { a: collection, b: collection, c: collection }
            environments:
              - name: e
                base_url: http://127.0.0.1:1
                variables: { a: environment, b: environment }
            endpoints:
              - name: p
                path: /{{a}}/{{b}}/{{c}}
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try resolver().resolve(
            try collection.endpoint(named: "p"), in: collection, overrides: ["a": "cli"])
        #expect(resolved.request.path == "/cli/environment/collection")
        #expect(resolved.urlVariableSpans.map(\.name) == ["a", "b", "c"])
        for span in resolved.urlVariableSpans {
            let text = String(Array(resolved.url)[span.range])
            #expect(["cli", "environment", "collection"].contains(text))
        }
    }

    @Test func anUndefinedVariableNamesTheVariableAndTheEndpoint() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let endpoint = try collection.endpoint(named: "Get user")
        let production = try collection.requireEnvironment(named: "production")
        let location = try #require(endpoint.locations["path"])
        #expect(
            throws: ResolveError.undefinedVariable(
                name: "user_id", context: "the path of endpoint \"Users/Get user\"", at: location)
        ) {
            try resolver().resolve(endpoint, in: collection, environment: production)
        }
        let error = ResolveError.undefinedVariable(
            name: "user_id", context: "the path of endpoint \"Users/Get user\"", at: location)
        #expect(error.description.contains("{{user_id}}") && error.description.contains("Users/Get user"))
    }

    @Test func everyResolutionErrorNamesTheFileLineAndColumnToFix() throws {
        let yaml = """
            name: x
            environments:
              - name: e
                base_url: "http://{{host}}"
              - name: bad
                base_url: "{{scheme}}://h"
                variables: { scheme: ftp }
            endpoints:
              - name: p
                path: /p
                headers:
                  - X-A: one
                  - X-A: "{{missing}}"
                query: { q: "{{also_missing}}" }
            """
        let collection = try CollectionLoader.parse(yaml, file: "c.yaml")
        let endpoint = try collection.endpoint(named: "p")
        func message(_ environment: String, _ overrides: [String: String] = [:]) -> String {
            do {
                _ = try resolver().resolve(
                    endpoint, in: collection, environment: try collection.requireEnvironment(named: environment),
                    overrides: overrides)
                return "resolved"
            } catch {
                return "\(error)"
            }
        }
        #expect(message("e").hasPrefix("c.yaml:4:15: The variable {{host}} used in the base_url of environment \"e\""))
        #expect(message("bad").hasPrefix("c.yaml:6:15: The base_url of environment \"bad\" is \"ftp://h\""))
        #expect(message("e", ["host": "h"]).hasPrefix("c.yaml:14:17: The variable {{also_missing}} used in the query"))
        #expect(
            message("e", ["host": "h", "also_missing": "m"]).hasPrefix(
                "c.yaml:13:14: The variable {{missing}} used in the header X-A"))
    }

    @Test func repeatedHeadersAndQueryKeysAreAllSent() throws {
        let yaml = """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:1", headers: { X-A: env, X-B: env } }]
            endpoints:
              - name: p
                path: /p
                query:
                  - key: one
                  - key: two
                headers:
                  - X-A: one
                  - x-a: two
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try resolver().resolve(try collection.endpoint(named: "p"), in: collection)
        #expect(resolved.url == "http://127.0.0.1:1/p?key=one&key=two")
        #expect(resolved.request.headers.values(for: "X-A") == ["one", "two"])
        #expect(resolved.request.headers["X-B"] == "env")
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("- key: one\n") && written.contains("- x-a: two\n"))
        #expect(try CollectionLoader.parse(written) == collection)
    }

    @Test func rowsSwitchedOffAreKeptInTheFileAndNeverSent() throws {
        let yaml = """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: p
                method: POST
                path: /p
                query: { page: "1" }
                headers: { Accept: application/json }
                multipart: { note: hi }
                disabled:
                  query: { debug: "1" }
                  headers:
                    - X-Trace: a
                    - x-trace: b
                  multipart:
                    report: { file: q3.csv, filename: report.csv, type: text/csv }
                  formm: { a: b }
            """
        let collection = try CollectionLoader.parse(yaml, file: "c.yaml")
        #expect(
            collection.warnings.map(\.description) == [
                "c.yaml:17:7: warning: unknown key \"formm\" in disabled of endpoint \"p\" is ignored; did you mean \"form\"?"
            ])
        let endpoint = try collection.endpoint(named: "p")
        #expect(endpoint.disabled.query == [KeyValue("debug", "1")])
        #expect(endpoint.disabled.headers == [KeyValue("X-Trace", "a"), KeyValue("x-trace", "b")])
        #expect(
            endpoint.disabled.multipart == [
                MultipartField(
                    name: "report", value: "q3.csv", isFile: true, filename: "report.csv", contentType: "text/csv")
            ])
        let resolved = try resolver().resolve(endpoint, in: collection)
        #expect(resolved.url == "http://127.0.0.1:1/p?page=1")
        #expect(resolved.request.headers["X-Trace"] == nil)
        #expect(String(decoding: resolved.request.httpBody ?? Data(), as: UTF8.self).contains("report") == false)
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("disabled:"))
        #expect(try CollectionLoader.parse(written) == collection, "written and read back alike")
        #expect(throws: CollectionError.self) {
            try CollectionLoader.parse(
                "name: x\nenvironments: [{ name: e, base_url: \"http://h\" }]\nendpoints:\n  - { name: p, path: /p, disabled: [a] }\n"
            )
        }
    }

    @Test func aRawBodyFromAFileIsSentAsItIs() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        try Data([0, 1, 2, 255]).write(to: directory.url.appendingPathComponent("blob.bin"))
        let file = try directory.write(
            "c.yaml",
            """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: p
                method: PUT
                path: /p
                body: { file: blob.bin }
              - name: q
                path: /q
                body:
                  file: nope.bin
            """)
        let collection = try CollectionLoader.load(from: file)
        #expect(
            try resolver().resolve(try collection.endpoint(named: "p"), in: collection).request.httpBody
                == Data([0, 1, 2, 255]))
        #expect(throws: ResolveError.self) {
            try resolver().resolve(try collection.endpoint(named: "q"), in: collection)
        }
        #expect(try CollectionLoader.parse(try CollectionWriter.yaml(for: collection)) == collection)
    }

    @Test func multipartPartsCarryTheirFileNameAndType() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        try directory.write("q3-report.csv", "a,b\n1,2\n")
        let file = try directory.write(
            "c.yaml",
            """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: p
                path: /p
                multipart:
                  document: { file: q3-report.csv, filename: report.csv, type: text/csv }
                  input: { value: '{"a": 1}', type: application/json }
                  plain: text
            """)
        let collection = try CollectionLoader.load(from: file)
        let body = String(
            decoding: try #require(
                try resolver().resolve(try collection.endpoint(named: "p"), in: collection).request.httpBody),
            as: UTF8.self)
        #expect(
            body.contains("name=\"document\"; filename=\"report.csv\"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n"))
        #expect(body.contains("name=\"input\"\r\nContent-Type: application/json\r\n\r\n{\"a\": 1}\r\n"))
        #expect(body.contains("name=\"plain\"\r\n\r\ntext\r\n"))
        #expect(try CollectionLoader.parse(try CollectionWriter.yaml(for: collection)) == collection)
    }

    @Test func builtInsAndProcessEnvironment() throws {
        let yaml = """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: p
                method: POST
                path: /p
                headers: { X-Id: "{{uuid}}", X-Time: "{{timestamp}}", X-Now: "{{now}}", X-Home: "{{env.HOME_DIR}}" }
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try resolver(["HOME_DIR": "/home/ada"]).resolve(
            try collection.endpoint(named: "p"), in: collection)
        #expect(resolved.request.headers["X-Id"] == "00000000-0000-4000-8000-000000000000")
        #expect(resolved.request.headers["X-Time"] == "1700000000")
        #expect(resolved.request.headers["X-Now"] == "2023-11-14T22:13:20Z")
        #expect(resolved.request.headers["X-Home"] == "/home/ada")
    }

    @Test func processEnvironmentWinsOverDotEnv() throws {
        let scope = VariableScope(processEnvironment: ["A": "process"], dotEnv: ["A": "dotenv", "B": "dotenv"])
        #expect(try scope.value(of: "env.A") == "process")
        #expect(try scope.value(of: "env.B") == "dotenv")
        #expect(throws: VariableScope.Failure.undefined("env.C")) { try scope.value(of: "env.C") }
    }

    @Test func builtInAndProcessValuesAreNotExpandedAgain() throws {
        let scope = VariableScope(processEnvironment: ["T": "{{x}}"], uuid: "{{uuid}}")
        #expect(try scope.expand("{{uuid}} {{env.T}}").text == "{{uuid}} {{x}}")
    }

    @Test func aVariableCycleIsAnErrorNotAHang() throws {
        let scope = VariableScope(collectionVariables: [KeyValue("a", "{{b}}"), KeyValue("b", "{{a}}")])
        #expect(throws: VariableScope.Failure.cycle(["a", "b", "a"])) { try scope.value(of: "a") }
    }

    @Test func jsonBodyIsTemplatedAndGetsItsContentType() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let resolved = try resolver().resolve(try collection.endpoint(named: "Create user"), in: collection)
        #expect(
            resolved.request.httpBody.map { String(decoding: $0, as: UTF8.self) }
                == #"{"name":"Ada","email":"ada@example.com"}"#)
        #expect(resolved.request.headers["Content-Type"] == "application/json")
        #expect(resolved.request.headers["X-Request-Id"] == "00000000-0000-4000-8000-000000000000")
    }

    @Test func formAndRawBodies() throws {
        let yaml = """
            name: x
            variables: { who: "Ada Lovelace" }
            environments: [{ name: e, base_url: "http://127.0.0.1:1/api/" }]
            endpoints:
              - name: form
                method: POST
                path: login
                form: { user: "{{who}}", note: "a&b=c" }
              - name: raw
                method: PUT
                path: /raw
                headers: { Content-Type: text/plain }
                body: "hello {{who}}"
            """
        let collection = try CollectionLoader.parse(yaml)
        let form = try resolver().resolve(try collection.endpoint(named: "form"), in: collection)
        #expect(form.url == "http://127.0.0.1:1/api/login")
        #expect(form.request.httpBody == Data("user=Ada+Lovelace&note=a%26b%3Dc".utf8))
        #expect(form.request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let raw = try resolver().resolve(try collection.endpoint(named: "raw"), in: collection)
        #expect(raw.request.httpBody == Data("hello Ada Lovelace".utf8))
        #expect(raw.request.headers.values(for: "content-type") == ["text/plain"])
    }

    @Test func secretsAreMaskedInTheDisplayCopy() throws {
        let yaml = """
            name: x
            environments:
              - name: prod
                base_url: https://api.example.com/v1
                protected: true
                secrets: [token]
                variables: { token: "tok-123456" }
            endpoints:
              - name: p
                path: /p
                query: { key: "{{token}}" }
                headers: { X-Api-Key: abc, X-Trace: "t {{token}}", Authorization: "Bearer {{token}}" }
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try resolver().resolve(try collection.endpoint(named: "p"), in: collection)
        #expect(resolved.isProtected)
        #expect(resolved.url == "https://api.example.com/v1/p?key=tok-123456")
        #expect(resolved.maskedURL == "https://api.example.com/v1/p?key=••••••")
        #expect(resolved.masked.headers["X-Api-Key"] == "••••••")
        #expect(resolved.masked.headers["X-Trace"] == "t ••••••")
        #expect(resolved.masked.headers["Authorization"] == "Bearer ••••••")
        #expect(resolved.masked.queryItems.first?.value == "••••••")
        #expect(resolved.request.headers["Authorization"] == "Bearer tok-123456")
    }

    @Test func environmentIsAServerProviderThatAnswersAtSendTime() throws {
        let yaml = """
            name: x
            variables: { port: "8080" }
            environments: [{ name: e, base_url: "http://127.0.0.1:{{port}}/v1" }]
            """
        let collection = try CollectionLoader.parse(yaml)
        let environment = collection.environments[0]
        let provider: any ServerProvider = environment
        #expect(provider.baseURL?.absoluteString == "http://127.0.0.1:8080/v1")
        environment.setOverrides(["port": "9090"])
        #expect(provider.baseURL?.absoluteString == "http://127.0.0.1:9090/v1")
        environment.setOverrides(["port": "not a port/ x"])
        #expect(provider.baseURL == nil)
    }

    @Test func anInvalidURLAfterTemplatingIsAnError() throws {
        let yaml = """
            name: x
            variables: { host: "" }
            environments: [{ name: e, base_url: "http://{{host}}" }]
            endpoints: [{ name: p, path: /p }]
            """
        let collection = try CollectionLoader.parse(yaml)
        #expect(
            throws: ResolveError.invalidBaseURL(
                environment: "e", url: "http://", at: collection.environments.first?.baseURLLocation)
        ) {
            try resolver().resolve(try collection.endpoint(named: "p"), in: collection)
        }
    }

    @Test func aCollectionWithoutEnvironmentsCannotSend() throws {
        let collection = try CollectionLoader.parse("name: x\nendpoints: [{ name: p, path: /p }]\n")
        #expect(throws: ResolveError.noEnvironment(endpoint: "p")) {
            try resolver().resolve(try collection.endpoint(named: "p"), in: collection)
        }
    }
}

/// Credentials stay with their origin: an endpoint whose path is a whole URL on another
/// server does not get the `auth:` it would inherit (importers make such endpoints).
@Suite struct CrossOriginAuthTests {
    private let yaml = """
        name: Origins
        auth: { type: bearer, token: c0llection-t0ken }
        environments:
          - name: local
            base_url: http://127.0.0.1:8080/v1
            auth: { type: api_key, name: X-Api-Key, value: env-k3y }
        endpoints:
          - name: Own
            path: /me
          - name: Same origin written out
            path: http://127.0.0.1:8080/v2/me
          - name: Elsewhere
            path: https://cdn.example.com/asset
          - name: Elsewhere with its own auth
            path: https://cdn.example.com/private
            auth: { type: bearer, token: its-0wn }
        """

    @Test func anInheritedAuthIsSentOnlyToTheEnvironmentsOrigin() throws {
        let collection = try CollectionLoader.parse(yaml)
        func headers(_ name: String) throws -> HTTPHeaders {
            try RequestResolver().resolve(try collection.endpoint(named: name), in: collection).request.headers
        }
        #expect(try headers("Own")["X-Api-Key"] == "env-k3y")
        #expect(try headers("Same origin written out")["X-Api-Key"] == "env-k3y")
        #expect(try headers("Elsewhere")["X-Api-Key"] == nil)
        #expect(try headers("Elsewhere")["Authorization"] == nil)
        #expect(try headers("Elsewhere with its own auth")["Authorization"] == "Bearer its-0wn")
    }

    /// The server an endpoint names by whole URL (trust holds for where a collection sends).
    @Test(
        arguments: [
            ("https://api.example.com/v1/users?page=2", "https://api.example.com"),
            ("HTTP://Example.com", "HTTP://Example.com"),
            ("grpc://127.0.0.1:50051/notes.v1.Notes/Get", "grpc://127.0.0.1:50051"),
            ("wss://h.example#frag", "wss://h.example"),
            ("/users/{{id}}", nil),
            ("/redirect?next=https://elsewhere.example/", nil),
            ("ftp://files.example/a", nil),
            ("a:b://c", nil),
            ("https:/one-slash", nil),
            ("{{base}}/x", nil),
            ("", nil),
        ] as [(String, String?)])
    func theServerOfAWholeURL(path: String, server: String?) {
        #expect(RequestResolver.server(ofAbsolute: path) == server)
    }
}
