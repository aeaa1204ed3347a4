import Contract
import Demo
import Foundation
import History
import Mock
import NetworkingCore
import Testing
import Workspace

/// `explorer mock`'s server, for real on 127.0.0.1, driven by the project's transport: it serves
/// the demo API's own OpenAPI document (`DemoOpenAPI`), and collections with a real SQLite history.
@Suite struct MockServerTests {
    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        var json: JSONValue? { try? JSONValue(parsing: body) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func demoContract() throws -> OpenAPIContract {
        try OpenAPIContract(document: JSONValue(parsing: DemoOpenAPI.json))
    }

    /// Serves `plan` on a free port for the duration of `body`.
    static func withMock(
        _ plan: MockPlan, chaos: MockChaos = MockChaos(), log: LogLines? = nil,
        _ body: (MockServer) async throws -> Void
    ) async throws {
        var accessLog: (@Sendable (String) -> Void)?
        if let log { accessLog = { @Sendable line in log.append(line) } }
        let server = try await MockServer.start(plan: plan, port: 0, chaos: chaos, accessLog: accessLog)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func send(
        _ method: String, _ path: String, to server: MockServer, headers: HTTPHeaders = [:], body: Data? = nil
    ) async throws -> Answer {
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { Task { try? await transport.shutdown() } }
        let request = PreparedRequest(
            method: HTTPMethod(rawValue: method), url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!,
            headers: headers, body: body)
        let response = try await transport.send(
            request, options: TransferOptions(timeout: .seconds(10), followsRedirects: false)
        ) { _ in }
        return Answer(status: response.status.code, headers: response.headers, body: response.body ?? Data())
    }

    // MARK: - Routing

    @Test func templatesAreMatchedWithAndWithoutTheBasePath() async throws {
        let plan = MockPlan(endpoints: [], contract: try Self.demoContract())
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let list = try await Self.send("GET", "/v1/users", to: server)
            #expect(list.status == 200)
            #expect(list.headers["Content-Type"] == "application/json")
            // The first named example of the document.
            #expect(list.json?["items"]?[0]?["username"]?.stringValue == "ada")
            #expect(list.json?["total"]?.intValue == 1)
            let user = try await Self.send("GET", "/users/42", to: server)
            #expect(user.status == 200)
            #expect(user.json?["email"]?.stringValue == "ada@example.com")
            // The document requires a body (MockRequestValidationTests: without one, a 400).
            let created = try await Self.send(
                "POST", "/v1/users", to: server, headers: ["Content-Type": "application/json"],
                body: Data(#"{"name": "Grace Hopper", "email": "grace@example.com"}"#.utf8))
            #expect(created.status == 201)
            #expect(created.json?["username"]?.stringValue == "grace")
            let deleted = try await Self.send("DELETE", "/v1/users/3", to: server)
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            let head = try await Self.send("HEAD", "/v1/users/1", to: server)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    /// A collection endpoint is joined to its operation by `operation:`, or by its path: a literal
    /// `/users/1` or `/users/{{user_id}}` is `/users/{id}`.
    @Test func endpointsAreJoinedToTheirOperations() throws {
        let contract = try Self.demoContract()
        var named = Endpoint(name: "Me", method: .get, path: "/whoami")
        named.operation = "me"
        let endpoints = [
            Endpoint(name: "One user", method: .get, path: "/users/1"),
            Endpoint(name: "Templated", method: .delete, path: "/users/{{user_id}}"),
            named,
            Endpoint(name: "Health", method: .get, path: "/health"),
        ]
        let plan = MockPlan(endpoints: endpoints, contract: contract)
        #expect(plan.routes.count == contract.operations.count + 1)
        #expect(plan.routes.first { $0.endpointID == "One user" }?.operation?.operationID == "getUser")
        #expect(plan.routes.first { $0.endpointID == "Templated" }?.operation?.operationID == "deleteUser")
        #expect(plan.routes.first { $0.endpointID == "Me" }?.operation?.operationID == "me")
        let health = try #require(plan.routes.first { $0.endpointID == "Health" })
        #expect(health.operation == nil && health.template == "/health")
        #expect(MockPlan.template(of: "{{base}}/users/:id/posts/{{post_id}}?x=1") == "/users/{id}/posts/{post_id}")
    }

    @Test func unknownRoutesAndMethodsAreProblems() async throws {
        let plan = MockPlan(endpoints: [], contract: try Self.demoContract())
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let unknown = try await Self.send("GET", "/v1/usres", to: server)
            #expect(unknown.status == 404)
            #expect(unknown.headers["Content-Type"] == "application/problem+json")
            let near = unknown.json?["near"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(near.contains("GET|POST /users"), "\(near)")
            #expect(unknown.json?["detail"]?.stringValue?.contains("GET|POST /users") == true)
            let wrongMethod = try await Self.send("DELETE", "/v1/openapi.json", to: server)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
            #expect(wrongMethod.json?["status"]?.intValue == 405)
        }
    }

    // MARK: - Prefer

    @Test func preferChoosesTheStatusTheExampleOrAGeneratedBody() async throws {
        let contract = try Self.demoContract()
        let plan = MockPlan(endpoints: [], contract: contract)
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let missing = try await Self.send("GET", "/v1/users/1", to: server, headers: ["Prefer": "code=404"])
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Type"] == "application/problem+json")
            #expect(missing.json?["detail"]?.stringValue == "There is no user 99 in the local environment.")
            let empty = try await Self.send("GET", "/v1/users", to: server, headers: ["Prefer": "example=empty"])
            #expect(empty.json?["total"]?.intValue == 0)
            let unknownExample = try await Self.send(
                "GET", "/v1/users", to: server, headers: ["Prefer": "example=nope"])
            #expect(unknownExample.status == 404)
            #expect(unknownExample.json?["detail"]?.stringValue?.contains("firstPage, empty") == true)
            let undeclared = try await Self.send("GET", "/v1/users", to: server, headers: ["Prefer": "code=418"])
            #expect(undeclared.status == 404)
            #expect(undeclared.json?["detail"]?.stringValue?.contains("declared: 200") == true)
            let dynamic = try await Self.send("GET", "/v1/users", to: server, headers: ["Prefer": "dynamic=true"])
            #expect(dynamic.status == 200)
            #expect(dynamic.json?["items"]?[0]?["createdAt"]?.stringValue == "2024-01-01T00:00:00Z")
            let listUsers = try #require(contract.operation(id: "listUsers"))
            #expect(
                contract.check(listUsers, status: 200, contentType: dynamic.headers["Content-Type"], body: dynamic.body)
                    .violations.isEmpty)
        }
    }

    /// Every declared response of every operation, generated (`Prefer: code=N, dynamic=true`)
    /// and as the document's example, passes the document's own check.
    @Test func everyAnswerConformsToTheDocument() async throws {
        let contract = try Self.demoContract()
        let plan = MockPlan(endpoints: [], contract: contract)
        try await Self.withMock(plan) { (server: MockServer) async throws in
            var checked = 0
            for operation in contract.operations {
                let responses =
                    JSONPointer.resolve(operation.pointer + "/responses", in: contract.document)?.members ?? []
                let path = operation.path.replacingOccurrences(of: "{id}", with: "7")
                    .replacingOccurrences(of: "{algorithm}", with: "MD5").replacingOccurrences(
                        of: "{code}", with: "418")
                for response in responses {
                    let code = response.key == "default" ? "418" : response.key
                    for prefer in ["code=\(code)", "code=\(code), dynamic=true"] {
                        let answer = try await Self.send(
                            operation.method, "/v1" + path, to: server,
                            headers: ["Prefer": prefer, "Authorization": "Bearer any"])
                        #expect(answer.status == Int(code), "\(operation.name) \(prefer)")
                        let report = contract.check(
                            operation, status: answer.status, contentType: answer.headers["Content-Type"],
                            body: answer.body, assertsFormats: true)
                        #expect(report.violations.isEmpty, "\(operation.name) \(prefer): \(report.violations)")
                        checked += 1
                    }
                }
            }
            #expect(checked > 60)
        }
    }

    @Test func generatedExamplesPassTheirSchemas() throws {
        let document = try JSONValue(parsing: DemoOpenAPI.json)
        for schema in document["components"]?["schemas"]?.members ?? [] {
            let value = MockExample.generated(from: schema.value, document: document)
            let set = SchemaSet(
                document: document, pointers: ["/components/schemas/" + schema.key], dialect: .draft2020_12,
                assertsFormats: true, identifierRoots: ["/components/schemas"])
            let compiled = try #require(set.schemas["/components/schemas/" + schema.key])
            #expect(compiled.validate(value).isEmpty, "\(schema.key): \(value)")
        }
        // Ranges, lengths, allOf and formats of a schema of its own.
        let schema = try JSONValue(
            parsing: #"""
                {"type": "object", "required": ["n", "s", "list"], "properties": {
                  "n": {"type": "integer", "minimum": 5, "exclusiveMaximum": 9, "multipleOf": 3},
                  "s": {"type": "string", "minLength": 12, "maxLength": 14},
                  "when": {"type": "string", "format": "date-time"}, "id": {"type": "string", "format": "uuid"},
                  "list": {"type": "array", "minItems": 2, "items": {"allOf": [{"type": "object", "required": ["a"], "properties": {"a": {"const": 1}}},
                                                                               {"type": "object", "properties": {"b": {"type": ["null", "boolean"]}}}]}}}}
                """#)
        let value = MockExample.generated(from: schema, document: schema)
        #expect(JSONSchema(schema, assertsFormats: true).validate(value).isEmpty, "\(value)")
        #expect(value["n"]?.intValue == 6)
        #expect(MockExample.generated(from: schema, document: schema) == value)
    }

    /// A response documented under a media range (xkcd's comics are `*/*` objects): JSON when
    /// the example is JSON, so a client reads it (and the state keeps it); octet-stream for a
    /// text, and for any other range.
    @Test func aWildcardMediaRangeIsAnsweredAsJSONWhenTheValueIsJSON() async throws {
        let document = try JSONValue(
            parsing: #"""
                {"openapi": "3.0.0", "info": {"title": "Comics", "version": "1"}, "paths": {
                  "/info.0.json": {"get": {"responses": {"200": {"description": "OK", "content": {"*/*": {
                    "schema": {"type": "object", "properties": {"num": {"type": "number"},
                      "title": {"type": "string"}}}}}}}}},
                  "/note": {"get": {"responses": {"200": {"description": "OK", "content": {"*/*": {
                    "example": "a note"}}}}}},
                  "/strip.png": {"get": {"responses": {"200": {"description": "OK", "content": {"image/*": {
                    "schema": {"type": "string", "format": "binary"}}}}}}}}}
                """#)
        let contract = try OpenAPIContract(document: document)
        let plan = MockPlan(endpoints: [], contract: contract)
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let comic = try await Self.send("GET", "/info.0.json", to: server, headers: ["Accept": "application/json"])
            #expect(comic.status == 200)
            #expect(comic.headers["Content-Type"] == "application/json")
            #expect(comic.json?["title"]?.stringValue != nil)
            let operation = try #require(contract.operations.first { $0.path == "/info.0.json" })
            let report = contract.check(
                operation, status: comic.status, contentType: comic.headers["Content-Type"], body: comic.body,
                assertsFormats: true)
            #expect(report.violations.isEmpty, "\(report.violations)")
            let note = try await Self.send("GET", "/note", to: server)
            #expect(note.headers["Content-Type"] == "application/octet-stream")
            #expect(note.text == "a note")
            let strip = try await Self.send("GET", "/strip.png", to: server)
            #expect(strip.headers["Content-Type"] == "application/octet-stream")
        }
    }

    /// Bounds no value of Int's range meets, and a length no memory holds: generated without a
    /// crash, the string at most 65,536 characters.
    @Test func generationStaysWithinIntAndMemoryWhateverTheBounds() throws {
        let schema = try JSONValue(
            parsing: #"""
                {"type": "object", "required": ["big", "small", "long"], "properties": {
                  "big": {"type": "integer", "minimum": 1e30},
                  "small": {"type": "integer", "maximum": -1e30},
                  "long": {"type": "string", "minLength": 4000000000}}}
                """#)
        let value = MockExample.generated(from: schema, document: schema)
        #expect(value["big"]?.numberValue == 1e30)
        #expect(value["small"]?.numberValue == -1e30)
        #expect(value["long"]?.stringValue?.count == 65_536)
        let ordinary = try JSONValue(parsing: #"{"type": "integer", "minimum": 7}"#)
        #expect(MockExample.generated(from: ordinary, document: ordinary) == .number("7"))
    }

    /// An operation that requires credentials answers its 401 without them (as Prism does).
    @Test func credentialsAreLookedFor() async throws {
        let plan = MockPlan(endpoints: [], contract: try Self.demoContract())
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let without = try await Self.send("GET", "/v1/me", to: server)
            #expect(without.status == 401)
            #expect(without.headers["Content-Type"] == "application/problem+json")
            #expect(without.headers["WWW-Authenticate"] != nil)
            let with = try await Self.send("GET", "/v1/me", to: server, headers: ["Authorization": "Bearer anything"])
            #expect(with.status == 200)
            #expect(with.json?["username"]?.stringValue == "ada")
            // No security declared: no credentials needed.
            #expect(try await Self.send("GET", "/v1/users/1", to: server).status == 200)
        }
    }

    /// Without credentials: the documented 401, else the documented 403, else a 401 problem
    /// that says the document declares neither.
    @Test func missingCredentialsGetTheDocumentedAnswer() async throws {
        let document = try JSONValue(
            parsing: #"""
                {"openapi": "3.1.0", "info": {"title": "Keys", "version": "1"},
                 "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
                 "security": [{"key": []}], "paths": {
                  "/forbidden": {"get": {"responses": {"200": {"description": "ok"},
                    "403": {"description": "No key", "content": {"application/json": {"example": {"error": "key"}}}}}}},
                  "/bare": {"get": {"responses": {"200": {"description": "ok"}}}}}}
                """#)
        let plan = MockPlan(endpoints: [], contract: try OpenAPIContract(document: document))
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let forbidden = try await Self.send("GET", "/forbidden", to: server)
            #expect(forbidden.status == 403)
            #expect(forbidden.json?["error"]?.stringValue == "key")
            #expect(forbidden.headers["WWW-Authenticate"] == nil)
            let bare = try await Self.send("GET", "/bare", to: server)
            #expect(bare.status == 401)
            #expect(bare.json?["detail"]?.stringValue?.contains("declares no 401 or 403 response") == true)
            #expect(try await Self.send("GET", "/bare", to: server, headers: ["X-Key": "k"]).status == 200)
        }
    }

    // MARK: - History

    @Test func theHistoryAnswersAsItWasRecorded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore(fileURL: folder.appendingPathComponent("history.sqlite"))
        let endpoints = [
            Endpoint(name: "Get user", folderPath: ["Users"], method: .get, path: "/users/{{user_id}}"),
            Endpoint(name: "Health", method: .get, path: "/health"),
        ]
        let older = HistoryEntry(
            startedAt: Date(timeIntervalSinceNow: -60), environment: "local", endpoint: "Users/Get user", method: "GET",
            url: "http://127.0.0.1:1/v1/users/1", status: 200, responseHeaders: ["Content-Type": "application/json"],
            responseBody: Data(#"{"id": 1, "name": "old"}"#.utf8))
        let newer = HistoryEntry(
            environment: "local", endpoint: "Users/Get user", method: "GET", url: "http://127.0.0.1:1/v1/users/1",
            status: 200,
            responseHeaders: ["Content-Type": "application/json", "X-Served-By": "staging-7", "Content-Length": "24"],
            responseBody: Data(#"{"id": 1, "name": "Ada"}"#.utf8))
        let otherEnvironment = HistoryEntry(
            environment: "production", endpoint: "Users/Get user", method: "GET", url: "http://x/users/1",
            status: 500, responseBody: Data("down".utf8))
        _ = try store.record(contentsOf: [older, newer, otherEnvironment])
        let recorded = try MockPlan.recordedResponses(
            of: endpoints, environment: "local", collectionPath: nil, in: store)
        #expect(recorded.keys.sorted() == ["Users/Get user"])

        let plan = MockPlan(endpoints: endpoints, contract: nil, recorded: recorded, source: .history, basePath: "/v1")
        try await Self.withMock(plan) { (server: MockServer) async throws in
            let user = try await Self.send("GET", "/v1/users/5", to: server)
            #expect(user.status == 200)
            #expect(user.text == #"{"id": 1, "name": "Ada"}"#)
            #expect(user.headers["X-Served-By"] == "staging-7")
            let never = try await Self.send("GET", "/v1/health", to: server)
            #expect(never.status == 501)
            #expect(never.json?["detail"]?.stringValue?.contains("send it once") == true)
        }
        // Both: the history first, the document's example for what was never sent.
        let both = MockPlan(
            endpoints: [Endpoint(name: "Get user", folderPath: ["Users"], method: .get, path: "/users/{{user_id}}")],
            contract: try Self.demoContract(), recorded: recorded, source: .both)
        try await Self.withMock(both) { (server: MockServer) async throws in
            #expect(try await Self.send("GET", "/v1/users/5", to: server).json?["name"]?.stringValue == "Ada")
            #expect(
                try await Self.send("GET", "/v1/posts/5", to: server).json?["title"]?.stringValue
                    == "Notes on the Analytical Engine")
            // Prefer asks the document.
            #expect(
                try await Self.send("GET", "/v1/users/5", to: server, headers: ["Prefer": "code=404"]).status == 404)
        }
    }

    // MARK: - Latency and failures

    @Test func failuresFollowTheSeed() async throws {
        let plan = MockPlan(endpoints: [], contract: try Self.demoContract())
        func pattern(seed: UInt64) async throws -> [Int] {
            var statuses: [Int] = []
            try await Self.withMock(plan, chaos: MockChaos(failRate: 0.3, seed: seed)) {
                (server: MockServer) async throws in
                for _ in 0..<30 { statuses.append(try await Self.send("GET", "/v1/users/1", to: server).status) }
            }
            return statuses
        }
        let first = try await pattern(seed: 7)
        #expect(try await pattern(seed: 7) == first)
        #expect(try await pattern(seed: 8) != first)
        let failures = first.filter { $0 == 500 }.count
        #expect(failures > 0 && failures < 30)
        #expect(Set(first) == [200, 500])
    }

    @Test func latencyDelaysEveryAnswerAndEachIsLogged() async throws {
        let log = LogLines()
        let plan = MockPlan(endpoints: [], contract: try Self.demoContract())
        try await Self.withMock(plan, chaos: MockChaos(latency: .milliseconds(150), failRate: 1, seed: 1), log: log) {
            (server: MockServer) async throws in
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await Self.send("GET", "/v1/users", to: server)
            #expect(clock.now - start >= .milliseconds(150))
            #expect(answer.status == 500)
            #expect(answer.headers["Content-Type"] == "application/problem+json")
            #expect(answer.json?["detail"]?.stringValue?.contains("--fail-rate 1.0") == true)
        }
        #expect(log.lines == ["mock       GET /v1/users → 500 (failed on purpose)"])
    }
}

/// Lines collected from the server's tasks.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
