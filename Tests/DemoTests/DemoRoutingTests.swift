import Foundation
import Testing

@testable import Demo
@testable import Workspace

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo API's routing, against the real server on 127.0.0.1: path parameters, the `/v1`
/// base path, methods a route does not take, and paths no route takes.
@Suite struct DemoRoutingTests {
    /// What came back: the status, the headers (looked up without regard to case) and the body.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// Serves the demo on free ports for the duration of `body`.
    private func withDemo(_ body: (DemoServer) async throws -> Void) async throws {
        let server = try await DemoServer.start(port: 0)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Sends one request to the `local` environment (or `environment`), at `path` from the host's root.
    private func send(
        _ method: String, _ path: String, on server: DemoServer, environment: String = "local",
        headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Answer {
        let port = try #require(server.environments.first { $0.name == environment }).port
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }

    // MARK: - Path parameters

    @Test func pathParametersSelectTheResource() async throws {
        try await withDemo { server in
            let user = try await send("GET", "/v1/users/2", on: server)
            #expect(user.status == 200)
            #expect(user.json["id"] as? Int == 2)
            let post = try await send("GET", "/posts/3", on: server)
            #expect(post.json["id"] as? Int == 3)
            let teapot = try await send("GET", "/v1/status/418", on: server)
            #expect(teapot.status == 418)
            #expect(teapot.json["status"] as? Int == 418)
            #expect(teapot.json["reason"] as? String == "I'm a teapot", "the reason phrase, not an empty string")
        }
    }

    @Test func aParameterThatNamesNothingIsAProblem404NamingIt() async throws {
        try await withDemo { server in
            let word = try await send("GET", "/v1/users/abc", on: server)
            #expect(word.status == 404)
            #expect(word.header("Content-Type") == "application/problem+json")
            #expect(word.json["detail"] as? String == "There is no user abc in the local environment.")
            #expect(word.json["instance"] as? String == "/v1/users/abc")
            let missing = try await send("DELETE", "/posts/9999", on: server)
            #expect(missing.json["detail"] as? String == "There is no post 9999 in the local environment.")
            let status = try await send("GET", "/status/600", on: server)
            #expect(status.status == 404)
            #expect(status.json["detail"] as? String == "There is no status 600 in the local environment.")
        }
    }

    // MARK: - The /v1 base path

    @Test func everyRouteAnswersTheSameAtTheRootAndUnderV1() async throws {
        try await withDemo { server in
            for path in [
                "/", "/users/1", "/posts?userId=1", "/me", "/status/201", "/xml", "/unicode", "/escape", "/latin1",
            ] {
                let token = ["Authorization": "Bearer \(DemoAPI.bearerToken)"]
                let root = try await send("GET", path, on: server, headers: token)
                let v1 = try await send("GET", "/v1" + (path == "/" ? "" : path), on: server, headers: token)
                #expect(root.status == v1.status, "\(path)")
                #expect(root.header("Content-Type") == v1.header("Content-Type"), "\(path)")
                if !path.hasPrefix("/posts") {  // a list's Link header and nothing else name the path
                    #expect(root.body == v1.body, "\(path)")
                }
            }
        }
    }

    @Test func trailingAndDoubledSlashesReachTheSameRoute() async throws {
        try await withDemo { server in
            let trailing = try await send("GET", "/v1/users/1/", on: server)
            #expect(trailing.json["id"] as? Int == 1)
            let index = try await send("GET", "/v1/", on: server)
            #expect(index.json["name"] as? String == "explorer demo API")
            let doubled = try await send("GET", "/users//1", on: server)
            #expect(doubled.json["id"] as? Int == 1)
        }
    }

    // MARK: - Methods

    @Test func aMethodTheRouteDoesNotTakeIs405WithTheAllowedOnes() async throws {
        try await withDemo { server in
            let cases: [(method: String, path: String, allow: String)] = [
                ("DELETE", "/v1/users", "GET, HEAD, POST"),
                ("POST", "/users/1", "GET, HEAD, PUT, PATCH, DELETE"),
                ("PUT", "/v1/posts", "GET, HEAD, POST"),
                ("PROPFIND", "/v1/me", "GET, HEAD"),
                ("POST", "/v1", "GET, HEAD"),
                ("OPTIONS", "/large", "GET, HEAD"),
            ]
            for (method, path, allow) in cases {
                let answer = try await send(method, path, on: server)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.header("Allow") == allow, "\(method) \(path)")
                #expect(answer.header("Content-Type") == "application/problem+json")
                #expect(answer.json["detail"] as? String == "\(method) is not allowed on \(path); use \(allow).")
            }
        }
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await withDemo { server in
            let get = try await send("GET", "/v1/users", on: server)
            let head = try await send("HEAD", "/v1/users", on: server)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("X-Total-Count") == get.header("X-Total-Count"))
            #expect(head.header("Link") == get.header("Link"))
        }
    }

    @Test func echoTakesAnyMethodAtAnyDepth() async throws {
        try await withDemo { server in
            for method in ["GET", "PROPFIND", "QUERY", "PURGE", "OPTIONS"] {
                let answer = try await send(method, "/v1/echo/a/b/c?x=1", on: server)
                #expect(answer.status == 200, "\(method)")
                #expect(answer.json["method"] as? String == method)
                #expect(answer.json["path"] as? String == "/v1/echo/a/b/c")
            }
            let delete = try await send("DELETE", "/echo", on: server)
            #expect(delete.json["path"] as? String == "/echo")
        }
    }

    // MARK: - Unknown paths

    @Test func aPathNoRouteTakesIsAProblem404WhateverTheMethod() async throws {
        try await withDemo { server in
            for (method, path) in [
                ("GET", "/nope"), ("POST", "/v1/nope"), ("GET", "/v2/users"), ("GET", "/users/1/extra"),
                ("GET", "/echoes"), ("GET", "/v1/v1/users"), ("PROPFIND", "/status"),
            ] {
                let answer = try await send(method, path, on: server)
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.header("Content-Type") == "application/problem+json")
                #expect(answer.header("X-Demo-Environment") == "local")
                #expect(answer.json["detail"] as? String == "There is no route \(path) in the local environment.")
                #expect(answer.json["instance"] as? String == path)
                #expect(answer.json["type"] as? String == "https://demo.explorer.example/problems/not-found")
            }
        }
    }

    // MARK: - What every answer carries

    @Test func everyAnswerNamesItsEnvironmentAndARequestID() async throws {
        try await withDemo { server in
            for environment in ["local", "staging", "production"] {
                let answer = try await send("GET", "/v1/users/1", on: server, environment: environment)
                #expect(answer.header("X-Demo-Environment") == environment)
                #expect(answer.header("X-Request-Id")?.count == 36)
            }
            #expect(server.environments.filter(\.isProtected).map(\.name) == ["production"])
        }
    }

    @Test func aBodyThatIsNotJSONIsAProblem400() async throws {
        try await withDemo { server in
            let answer = try await send(
                "POST", "/v1/users", on: server, headers: ["Content-Type": "application/json"],
                body: Data("not json".utf8))
            #expect(answer.status == 400)
            #expect(answer.json["detail"] as? String == "The body is not valid JSON.")
            #expect(answer.header("X-Demo-Environment") == "local")
        }
    }
}
