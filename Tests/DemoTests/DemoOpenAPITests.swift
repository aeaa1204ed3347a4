import Contract
import Foundation
import NetworkingCore
import Testing

@testable import Demo

/// The demo's own OpenAPI document (`/openapi.json`) against the demo as it really answers:
/// requests to the real server on 127.0.0.1, sent by the project's transport, and each
/// response checked with `OpenAPIContract` (status declared, content type, body schema).
@Suite struct DemoOpenAPITests {
    /// One request and the operation and status it should meet.
    struct Call: CustomStringConvertible {
        var method: String
        var path: String
        var headers: HTTPHeaders = [:]
        var body: String?
        var operation: String
        var status: Int

        var description: String { "\(method) \(path)" }
    }

    static let calls: [Call] = [
        Call(method: "GET", path: "/v1/", operation: "index", status: 200),
        Call(method: "GET", path: "/v1/openapi.json", operation: "openapi", status: 200),
        Call(method: "GET", path: "/v1/users?page=1&per_page=2", operation: "listUsers", status: 200),
        Call(method: "GET", path: "/v1/users?role=admin", operation: "listUsers", status: 200),
        Call(
            method: "POST", path: "/v1/users", headers: ["Content-Type": "application/json"],
            body: #"{"name": "Grace Hopper", "email": "grace@example.com", "role": "editor"}"#, operation: "createUser",
            status: 201),
        Call(
            method: "POST", path: "/v1/users", headers: ["Content-Type": "application/json"],
            body: #"{"name": "", "email": "nope"}"#, operation: "createUser", status: 422),
        Call(
            method: "POST", path: "/v1/users", headers: ["Content-Type": "application/json"], body: "not json",
            operation: "createUser", status: 400),
        Call(method: "GET", path: "/v1/users/1", operation: "getUser", status: 200),
        Call(method: "GET", path: "/v1/users/999", operation: "getUser", status: 404),
        Call(
            method: "PUT", path: "/v1/users/2", headers: ["Content-Type": "application/json"],
            body: #"{"name": "Alan", "email": "alan@example.com"}"#, operation: "replaceUser", status: 200),
        Call(
            method: "PATCH", path: "/v1/users/2", headers: ["Content-Type": "application/json"],
            body: #"{"role": "boss"}"#, operation: "updateUser", status: 422),
        Call(
            method: "PATCH", path: "/v1/users/2", headers: ["Content-Type": "application/json"],
            body: #"{"role": "member"}"#, operation: "updateUser", status: 200),
        Call(method: "DELETE", path: "/v1/users/3", operation: "deleteUser", status: 204),
        Call(method: "DELETE", path: "/v1/users/3", operation: "deleteUser", status: 404),
        Call(method: "GET", path: "/v1/posts?userId=1", operation: "listPosts", status: 200),
        Call(
            method: "POST", path: "/v1/posts", headers: ["Content-Type": "application/json"],
            body: #"{"userId": 1, "title": "Hello", "tags": ["a"]}"#, operation: "createPost", status: 201),
        Call(
            method: "POST", path: "/v1/posts", headers: ["Content-Type": "application/json"],
            body: #"{"userId": 999, "title": "Hello"}"#, operation: "createPost", status: 422),
        Call(method: "GET", path: "/v1/posts/1", operation: "getPost", status: 200),
        Call(method: "GET", path: "/v1/posts/abc", operation: "getPost", status: 404),
        Call(
            method: "PUT", path: "/v1/posts/1", headers: ["Content-Type": "application/json"],
            body: #"{"userId": 1, "title": "Again"}"#, operation: "replacePost", status: 200),
        Call(
            method: "PATCH", path: "/v1/posts/1", headers: ["Content-Type": "application/json"],
            body: #"{"published": true}"#, operation: "updatePost", status: 200),
        Call(method: "DELETE", path: "/v1/posts/2", operation: "deletePost", status: 204),
        Call(
            method: "POST", path: "/v1/login", headers: ["Content-Type": "application/json"],
            body: #"{"user": "ada", "password": "lovelace"}"#, operation: "login", status: 200),
        Call(
            method: "POST", path: "/v1/login", headers: ["Content-Type": "application/json"],
            body: #"{"user": "ada", "password": "wrong"}"#, operation: "login", status: 401),
        Call(
            method: "GET", path: "/v1/me", headers: ["Authorization": "Bearer demo-token"], operation: "me", status: 200
        ),
        Call(method: "GET", path: "/v1/me", operation: "me", status: 401),
        Call(
            method: "POST", path: "/v1/session/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "user=ada&password=lovelace", operation: "sessionLogin", status: 303),
        Call(
            method: "POST", path: "/v1/session/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "user=ada&password=no", operation: "sessionLogin", status: 401),
        // A pair that is only "=" (schemathesis found it crashed the demo's form reader).
        Call(
            method: "POST", path: "/v1/session/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "=&user=", operation: "sessionLogin", status: 401),
        Call(method: "GET", path: "/v1/session/home", operation: "sessionHome", status: 401),
        Call(method: "GET", path: "/v1/digest/MD5", operation: "digest", status: 401),
        Call(method: "GET", path: "/v1/digest/SHA-1", operation: "digest", status: 404),
        Call(
            method: "GET", path: "/v1/cookies", headers: ["Cookie": "theme=dark; lang=en"], operation: "cookies",
            status: 200),
        Call(method: "GET", path: "/v1/cookies/set?theme=dark", operation: "setCookies", status: 200),
        Call(method: "GET", path: "/v1/echo?a=1&a=2&b=x", operation: "echo", status: 200),
        Call(
            method: "POST", path: "/v1/echo", headers: ["Content-Type": "application/json"], body: #"{"x": 1}"#,
            operation: "echoPost", status: 200),
        Call(method: "GET", path: "/v1/slow?ms=5", operation: "slow", status: 200),
        Call(method: "GET", path: "/v1/large?items=3", operation: "large", status: 200),
        Call(method: "GET", path: "/v1/error", operation: "error", status: 500),
        Call(method: "GET", path: "/v1/rate-limited", operation: "rateLimited", status: 429),
        Call(method: "GET", path: "/v1/redirect?n=2", operation: "redirect", status: 302),
        Call(method: "GET", path: "/v1/redirect?n=0", operation: "redirect", status: 200),
        Call(method: "GET", path: "/v1/gzip", operation: "gzip", status: 200),
        Call(method: "GET", path: "/v1/image.png", operation: "image", status: 200),
        Call(method: "GET", path: "/v1/latin1", operation: "latin1", status: 200),
        Call(method: "GET", path: "/v1/unicode", operation: "unicode", status: 200),
        Call(method: "GET", path: "/v1/xml", operation: "xml", status: 200),
        Call(method: "GET", path: "/v1/escape", operation: "escape", status: 200),
        Call(method: "GET", path: "/v1/status/418", operation: "status", status: 418),
        Call(method: "GET", path: "/v1/status/204", operation: "status", status: 204),
        Call(method: "GET", path: "/v1/status/503", operation: "status", status: 503),
        Call(
            method: "POST", path: "/v1/graphql", headers: ["Content-Type": "application/json"],
            body: #"{"query": "{ users { id name } }"}"#, operation: "graphql", status: 200),
        Call(
            method: "POST", path: "/v1/graphql", headers: ["Content-Type": "application/json"], body: "[]",
            operation: "graphql", status: 400),
    ]

    private static func contract() throws -> OpenAPIContract {
        try OpenAPIContract(document: JSONValue(parsing: DemoOpenAPI.json))
    }

    private static func send(_ call: Call, base: String, headers extra: HTTPHeaders = [:]) async throws
        -> TransportResponse
    {
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        var headers = call.headers
        for field in extra { headers.add(name: field.name, value: field.value) }
        let request = PreparedRequest(
            method: HTTPMethod(rawValue: call.method), url: URL(string: base + call.path)!,
            headers: headers, body: call.body.map { Data($0.utf8) })
        do {
            let response = try await transport.send(
                request, options: TransferOptions(timeout: .seconds(10), followsRedirects: false)
            ) { _ in }
            try? await transport.shutdown()
            return response
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// The report of one response, with the operation its method and path find.
    private static func check(_ response: TransportResponse, _ call: Call, _ contract: OpenAPIContract) throws
        -> ContractReport
    {
        let operation = try #require(
            contract.operation(method: call.method, requestPath: call.path), "no operation for \(call)")
        #expect(operation.operationID == call.operation, "\(call) found \(operation.name)")
        return contract.check(
            operation, status: response.status.code, contentType: response.headers["Content-Type"],
            body: response.body ?? Data(), assertsFormats: true)
    }

    @Test func everyAnswerConformsToTheDocument() async throws {
        let contract = try Self.contract()
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        for environment in server.environments {
            let base = "http://127.0.0.1:\(environment.port)"
            for call in Self.calls {
                let response = try await Self.send(call, base: base)
                #expect(response.status.code == call.status, "\(environment.name) \(call): \(response.status.code)")
                let report = try Self.check(response, call, contract)
                #expect(report.violations.isEmpty, "\(environment.name) \(call): \(report.violations)")
                #expect(report.warnings.isEmpty, "\(environment.name) \(call): \(report.warnings)")
            }
        }
    }

    /// A signed-in session: the cookie of `POST /session/login` opens `/session/home`.
    @Test func theSessionCookieOpensTheHomePage() async throws {
        let contract = try Self.contract()
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = "http://127.0.0.1:\(server.environments[0].port)"
        let login = try await Self.send(Self.calls.first { $0.operation == "sessionLogin" }!, base: base)
        let cookie = try #require(login.headers["Set-Cookie"]?.split(separator: ";").first)
        let home = Call(method: "GET", path: "/v1/session/home", operation: "sessionHome", status: 200)
        let response = try await Self.send(home, base: base, headers: ["Cookie": String(cookie)])
        #expect(response.status.code == 200)
        #expect(try Self.check(response, home, contract).violations.isEmpty)
    }

    /// Every operation of the document is exercised above, and the document is what the server serves.
    @Test func everyOperationIsExercisedAndServed() async throws {
        let contract = try Self.contract()
        let exercised = Set(Self.calls.map(\.operation)).union(["sessionHome"])
        let missing = contract.operations.compactMap(\.operationID).filter { !exercised.contains($0) }
        #expect(missing.isEmpty, "operations no call exercises: \(missing)")
        #expect(contract.operations.allSatisfy { $0.operationID != nil })
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let served = try await Self.send(Self.calls[1], base: "http://127.0.0.1:\(server.environments[2].port)")
        #expect(try JSONValue(parsing: served.body ?? Data()) == JSONValue(parsing: DemoOpenAPI.json))
    }

    /// The check is not vacuous: a user's page is not a user, and a 404 where none is declared is caught.
    @Test func answersThatDoNotConformAreCaught() async throws {
        let contract = try Self.contract()
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = "http://127.0.0.1:\(server.environments[0].port)"
        let list = try await Self.send(
            Call(method: "GET", path: "/v1/users", operation: "listUsers", status: 200), base: base)
        let getUser = try #require(contract.operation(id: "getUser"))
        let asUser = contract.check(
            getUser, status: 200, contentType: list.headers["Content-Type"], body: list.body ?? Data())
        #expect(asUser.violations.contains { $0.kind == .body && $0.message.contains("required") })
        let missing = try await Self.send(
            Call(method: "GET", path: "/v1/users/999", operation: "getUser", status: 404), base: base)
        let listUsers = try #require(contract.operation(id: "listUsers"))
        let undeclared = contract.check(
            listUsers, status: missing.status.code, contentType: missing.headers["Content-Type"],
            body: missing.body ?? Data())
        #expect(undeclared.violations.map(\.kind) == [.status])
    }
}
