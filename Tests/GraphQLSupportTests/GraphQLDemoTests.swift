import Foundation
import NetworkingCore
import Testing

@testable import Demo
@testable import GraphQLSupport
@testable import Workspace

/// The demo collection's GraphQL endpoints against the demo's GraphQL server (GraphQLSwift) on
/// 127.0.0.1: queries with variables, the GET form, a mutation, a failing field answered
/// `200` with `errors`.
@Suite(.serialized) struct GraphQLDemoTests {
    struct Fixture {
        let server: DemoServer
        let folder: URL
        let collection: APICollection
        let transport = AsyncHTTPClientTransport()

        static func start() async throws -> Fixture {
            let server = try await DemoServer.start(port: 0)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graphql-\(UUID().uuidString)")
            let url = try DemoCollection.write(for: server.environments, to: folder.appendingPathComponent("demo.yaml"))
            return Fixture(server: server, folder: folder, collection: try CollectionLoader.load(from: url))
        }

        func send(_ name: String, overrides: [String: String] = [:]) async throws -> (ResolvedRequest, Response<Data?>)
        {
            let resolved = try RequestResolver().resolve(
                try collection.endpoint(named: name), in: collection, overrides: overrides)
            let response = try await NetworkDispatcher(serverProvider: resolved.environment, transport: transport)
                .future(from: resolved.request).value
            return (resolved, response)
        }

        func stop() async {
            try? await transport.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func aQueryWithVariablesAnswersItsData() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (resolved, response) = try await fixture.send("GraphQL/Users and posts")
        #expect(resolved.request.method == .post)
        #expect(response.statusCode.code == 200)
        let body = try JSONValue(parsing: try #require(response.body))
        #expect(body["data"]?["posts"]?.arrayValue?.count == 3, "variables: { first: 3 }")
        #expect(body["data"]?["posts"]?[0]?["author"]?["name"]?.stringValue == "Ada Lovelace")
        #expect(body["data"]?["users"]?.arrayValue?.isEmpty == false)
        #expect(body["errors"] == nil)
        #expect(GraphQLResponseError.errors(in: try #require(response.body)).isEmpty)
    }

    @Test func theGetFormSendsTheQueryAsParameters() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (resolved, response) = try await fixture.send("GraphQL/User by id (GET)", overrides: ["user_id": "2"])
        #expect(resolved.request.method == .get)
        #expect(resolved.request.httpBody == nil)
        #expect(resolved.url.contains("variables="))
        let body = try JSONValue(parsing: try #require(response.body))
        #expect(body["data"]?["user"]?["name"]?.stringValue == "Linus Torvalds")
    }

    @Test func aMutationAddsAPostThatAQueryThenFinds() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (_, created) = try await fixture.send("GraphQL/Create post")
        let post = try JSONValue(parsing: try #require(created.body))["data"]?["createPost"]
        #expect(post?["title"]?.stringValue == "Hello from GraphQL")
        #expect(post?["author"]?["name"]?.stringValue == "Ada Lovelace")
        let id = try #require(post?["id"]?.stringValue)
        let rest = try await NetworkDispatcher(
            serverProvider: try #require(fixture.collection.environment(named: "local")), transport: fixture.transport
        )
        .future(from: BasicRequest(method: .get, path: "/posts/\(id)")).value
        #expect(rest.statusCode.code == 200, "the GraphQL mutation and the REST routes share one store")
    }

    @Test func aFailingFieldAnswers200WithDataAndErrorsWithPathAndLocation() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (_, response) = try await fixture.send("GraphQL/Failing field (200 with errors)")
        #expect(response.statusCode.code == 200)
        let body = try #require(response.body)
        #expect(try JSONValue(parsing: body)["data"]?["user"]?["name"]?.stringValue == "Ada Lovelace")
        let errors = GraphQLResponseError.errors(in: body)
        #expect(
            errors == [
                GraphQLResponseError(
                    message: DemoGraphQLSchema.secretNoteFailure, path: ["user", "secretNote"], locations: ["2:22"])
            ])
        #expect(errors.first?.line == "user.secretNote (2:22): \(DemoGraphQLSchema.secretNoteFailure)")
    }

    @Test func aRequestWithoutAQueryIsA400AndAnInvalidOneAnswersItsValidationErrors() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let environment = try #require(fixture.collection.environment(named: "local"))
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: fixture.transport)
        let missing = try await dispatcher.future(from: BasicRequest(method: .get, path: "/graphql")).value
        #expect(missing.statusCode.code == 400)
        var invalid = BasicRequest(method: .post, path: "/graphql")
        invalid.setJSONBody(string: #"{"query":"{ user(id: 1) { nickname } }"}"#)
        let answer = try await dispatcher.future(from: invalid).value
        let errors = GraphQLResponseError.errors(in: try #require(answer.body))
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("nickname") == true)
        #expect(errors.first?.locations == ["1:17"])
    }
}
