import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Demo
@testable import GraphQLSupport
@testable import Workspace

/// The schema a GraphQL request is validated against, with the demo's GraphQL server on
/// 127.0.0.1: fetched by introspection on first need, kept in the state folder (0600) per
/// collection, environment and URL, reused after, fetched again on refresh; a query that does
/// not validate names the line and column of the collection (or `@file`) to fix.
@Suite(.serialized) struct GraphQLSchemaTests {
    struct Fixture {
        let server: DemoServer
        let folder: URL
        let baseURL: String
        let transport = AsyncHTTPClientTransport()

        static func start() async throws -> Fixture {
            let server = try await DemoServer.start(port: 0)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "graphql-schema-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let base = try #require(server.environments.first { $0.name == "local" }).baseURL.absoluteString
            return Fixture(server: server, folder: folder, baseURL: base)
        }

        /// The cache file, in a state folder of the fixture's own.
        var cache: GraphQLSchemaCache {
            GraphQLSchemaCache(fileURL: folder.appendingPathComponent("state/explorer/graphql-schemas.json"))
        }

        /// A new source, as a new process would make: nothing remembered but the cache file.
        func source() -> GraphQLSchemaSource {
            GraphQLSchemaSource(cache: cache, transport: transport)
        }

        /// A collection file in the fixture's folder with one environment on the demo.
        func collection(_ endpoints: String) throws -> APICollection {
            let url = folder.appendingPathComponent("api.yaml")
            try Data(
                """
                name: G
                environments:
                  - name: local
                    base_url: \(baseURL)
                endpoints:
                \(endpoints)
                """.utf8
            ).write(to: url)
            return try CollectionLoader.load(from: url)
        }

        func resolve(_ name: String, in collection: APICollection) throws -> ResolvedRequest {
            try RequestResolver().resolve(try collection.endpoint(named: name), in: collection)
        }

        func stop() async {
            try? await transport.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static let validEndpoint = """
          - name: Users
            method: POST
            path: /graphql
            graphql:
              query: |
                query { users { id name } }
        """

    @Test func theSchemaIsFetchedOnFirstNeedKeptPrivateAndReusedWithoutTheServer() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let collection = try fixture.collection(Self.validEndpoint)
        let resolved = try fixture.resolve("Users", in: collection)
        let key = try #require(resolved.graphQLSchemaKey)
        #expect(key.url == fixture.baseURL + "/graphql")
        #expect(key.environment == "local")

        guard case .valid(let first) = await fixture.source().validate(resolved) else {
            Issue.record("the query should validate against the demo's schema")
            return
        }
        #expect(!first.fromCache)
        #expect(first.sdl.contains("type Query"))
        let file = fixture.cache.fileURL
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let kept = try #require(try fixture.cache.schema(for: key))
        #expect(kept.sdl == first.sdl)

        // A later process reads it from the state folder: the server is not asked again.
        await fixture.server.stop()
        guard case .valid(let second) = await fixture.source().validate(resolved) else {
            Issue.record("the cached schema should be used without the server")
            return
        }
        #expect(second.fromCache)
        #expect(second.fetchedAt == kept.fetchedAt)
    }

    @Test func refreshFetchesTheSchemaAgainAndReplacesTheCachedOne() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let resolved = try fixture.resolve("Users", in: try fixture.collection(Self.validEndpoint))
        let key = try #require(resolved.graphQLSchemaKey)
        try fixture.cache.store("type Query { stale: String }", for: key, fetchedAt: Date(timeIntervalSince1970: 1_000))
        let source = fixture.source()
        let cached = try await source.schema(for: key)
        #expect(cached.fromCache)
        #expect(cached.sdl == "type Query { stale: String }")

        let fresh = try await source.schema(for: key, headers: resolved.introspectionHeaders, refresh: true)
        #expect(!fresh.fromCache)
        #expect(fresh.sdl.contains("createPost"))
        let kept = try #require(try fixture.cache.schema(for: key))
        #expect(kept.sdl == fresh.sdl)
        #expect(kept.fetchedAt > Date(timeIntervalSince1970: 1_000))
    }

    @Test func aQueryThatDoesNotValidatePointsAtTheLineAndColumnOfTheCollection() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let collection = try fixture.collection(
            """
              - name: Bad
                method: POST
                path: /graphql
                graphql:
                  query: |
                    query {
                      user(id: 1) {
                        nickname
                      }
                    }
            """)
        let resolved = try fixture.resolve("Bad", in: collection)
        guard case .invalid(let problems, _) = await fixture.source().validate(resolved) else {
            Issue.record("nickname is not a field of User")
            return
        }
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.message.contains("nickname"))
        // Line 13 of api.yaml is `            nickname` (12 spaces): the document's 3:5.
        let file = fixture.folder.appendingPathComponent("api.yaml").path
        #expect(problem.description.hasPrefix("\(file):13:13: "), "\(problem)")
    }

    @Test func aQueryInAFileIsPointedAtInThatFile() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let queryFile = fixture.folder.appendingPathComponent("posts.graphql")
        try Data("{\n  posts(first: 2) {\n    title\n    nope\n  }\n}\n".utf8).write(to: queryFile)
        let collection = try fixture.collection(
            """
              - name: Posts
                method: POST
                path: /graphql
                graphql:
                  query: "@posts.graphql"
            """)
        let resolved = try fixture.resolve("Posts", in: collection)
        guard case .invalid(let problems, _) = await fixture.source().validate(resolved) else {
            Issue.record("nope is not a field of Post")
            return
        }
        #expect(problems.map(\.location) == [FileLocation(file: queryFile.path, line: 4, column: 5)])
    }

    @Test func withoutASchemaTheRequestIsUncheckedWithASentence() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let resolved = try fixture.resolve("Users", in: try fixture.collection(Self.validEndpoint))
        await fixture.server.stop()
        guard case .unchecked(let sentence) = await fixture.source().validate(resolved) else {
            Issue.record("no server and no cache: nothing to validate against")
            return
        }
        #expect(sentence.contains(fixture.baseURL + "/graphql"))
        #expect(sentence.contains("introspection"))
        #expect(try fixture.cache.schema(for: try #require(resolved.graphQLSchemaKey)) == nil)
    }

    @Test func anIntrospectionAnswerOverTheLimitIsNotKept() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let resolved = try fixture.resolve("Users", in: try fixture.collection(Self.validEndpoint))
        let source = GraphQLSchemaSource(
            cache: fixture.cache, transport: fixture.transport,
            options: TransferOptions(timeout: .seconds(5), maximumBodySize: 512))
        guard case .unchecked(let sentence) = await source.validate(resolved) else {
            Issue.record("the demo's schema is more than 512 bytes")
            return
        }
        #expect(sentence.contains("cannot be had by introspection"), "\(sentence)")
        #expect(try fixture.cache.schema(for: try #require(resolved.graphQLSchemaKey)) == nil)
        #expect(GraphQLIntrospection.limits.maximumBodySize == 16 << 20)
        #expect(GraphQLIntrospection.limits.timeout == .seconds(20))
    }

    @Test func aRequestThatIsNotGraphQLIsNotChecked() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let collection = try fixture.collection(
            """
              - name: Posts
                path: /posts
            """)
        let resolved = try fixture.resolve("Posts", in: collection)
        guard case .notGraphQL = await fixture.source().validate(resolved) else {
            Issue.record("a REST request has no schema")
            return
        }
        #expect(resolved.graphQLSchemaKey == nil)
    }

    @Test func aSecretInTheURLIsMaskedWhereTheKeyIsShown() throws {
        let collection = try CollectionLoader.parse(
            """
            name: S
            environments:
              - name: local
                base_url: http://127.0.0.1:9
                variables: { token: s3cret-path-token }
                secrets: [token]
            endpoints:
              - name: Q
                method: POST
                path: /graphql/{{token}}
                graphql: { query: "{ users { id } }" }
            """, file: "s.yaml")
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: "Q"), in: collection)
        let key = try #require(resolved.graphQLSchemaKey)
        #expect(key.url == "http://127.0.0.1:9/graphql/s3cret-path-token", "the cache tells URLs apart by what is sent")
        #expect(!key.shownURL.contains("s3cret"))
        #expect(!key.description.contains("s3cret"))
    }

    @Test func aSequenceStepThatFailsItsCheckIsNotSent() async throws {
        let collection = try CollectionLoader.parse(
            """
            name: S
            environments: [{ name: local, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: One
                path: /one
            """, file: "s.yaml")
        let runner = SequenceRunner<Int>(
            collection: collection, environment: try #require(collection.environments.first), store: nil,
            check: { _ in "api.yaml:3:5: not valid\nNot sent." }
        ) { _ in
            Issue.record("a request that fails its check must not be sent")
            return SentExchange(response: nil, failure: "sent", record: 0)
        }
        let steps = await runner.run(try collection.endpoint(named: "One"))
        #expect(steps.last?.outcome == .notSent)
        let step = try #require(steps.last)
        #expect(step.resolveError == "api.yaml:3:5: not valid\nNot sent.")
        #expect(step.attempts == 0)
        let result = RunResult(step: step, iteration: 1, status: nil, milliseconds: 0)
        #expect(result.problems == ["api.yaml:3:5: not valid", "Not sent."], "one line each in explorer run's table")
    }

    @Test func theCacheKeepsAtMostItsLimitDroppingTheOldest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graphql-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = GraphQLSchemaCache(fileURL: folder.appendingPathComponent("graphql-schemas.json"))
        let limit = GraphQLSchemaCache.maximumEntries
        for index in 0...limit {
            let key = GraphQLSchemaKey(collection: "c", environment: "e\(index)", url: "http://h/graphql")
            try cache.store(
                "type Query { a: Int }", for: key, fetchedAt: Date(timeIntervalSince1970: Double(1_000 + index)))
        }
        #expect(
            try cache.schema(for: GraphQLSchemaKey(collection: "c", environment: "e0", url: "http://h/graphql")) == nil)
        #expect(
            try cache.schema(for: GraphQLSchemaKey(collection: "c", environment: "e\(limit)", url: "http://h/graphql"))
                != nil)
        let tooLarge = String(repeating: "#", count: GraphQLSchemaCache.maximumSDLBytes + 1)
        #expect(throws: GraphQLSchemaCache.Failure.self) {
            try cache.store(
                tooLarge, for: GraphQLSchemaKey(collection: "c", environment: "big", url: "http://h/graphql"))
        }
    }

    @Test func theOutlineListsRootTypesFirstWithFieldsArgumentsAndDeprecations() throws {
        let outline = GraphQLSchemaOutline(schema: DemoGraphQLSchema.schema)
        #expect(outline.types.prefix(2).map(\.name) == ["Query", "Mutation"])
        #expect(outline.types.first?.root == "query")
        let user = try #require(outline.type(named: "User"))
        #expect(user.kind == .object)
        #expect(user.description == "A person who writes posts.")
        let login = try #require(user.members.first { $0.name == "login" })
        #expect(login.deprecation == "Use username.")
        #expect(login.signature == "login: String")
        let posts = try #require(outline.type(named: "Query")?.members.first { $0.name == "posts" })
        #expect(posts.signature == "posts(first: Int): [Post!]!")
        #expect(posts.arguments.first?.description == "At most this many.")
        let create = try #require(outline.type(named: "Mutation")?.members.first { $0.name == "createPost" })
        #expect(create.signature == #"createPost(userId: ID!, title: String!, body: String = ""): Post!"#)
        #expect(outline.types(matching: "username").map(\.name) == ["User"])
        #expect(
            outline.types(matching: "HANDLE unique").map(\.name) == ["User"], "descriptions are searched, ignoring case"
        )
    }
}
