import Foundation
import Testing

@testable import App
@testable import Demo
@testable import GraphQLSupport
@testable import Terminal
@testable import Workspace

/// The GraphQL schema browser (`Q`): the types of the schema of a GraphQL endpoint, a type's
/// fields with their arguments, types, descriptions and deprecations, and `/` to search.
@Suite struct SchemaPanelTests {
    static let yaml = """
        name: G
        environments:
          - name: local
            base_url: http://127.0.0.1:9
        endpoints:
          - name: Health
            path: /health
          - folder: GraphQL
            endpoints:
              - name: Users
                method: POST
                path: /graphql
                graphql:
                  query: "{ users { id } }"
        """

    static let loaded = SchemaOutlineLoad(
        url: "http://127.0.0.1:9/graphql", fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), fromCache: true,
        outline: GraphQLSchemaOutline(schema: DemoGraphQLSchema.schema))

    private func openBrowser() throws -> AppState {
        let collection = try CollectionLoader.parse(Self.yaml, file: "g.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/g.yaml", environment: nil)
        state.size = Size(width: 100, height: 30)
        state.timeZone = TimeZone(identifier: "UTC")!
        tuiReduce(&state, .input(.tick, at: tuiNow))
        let effects = tuiPress(&state, .char("Q"))
        let asked = effects.compactMap { effect -> (String, Bool)? in
            if case .loadSchema(let plan, let refresh) = effect { return (plan.endpoint.id, refresh) }
            return nil
        }
        #expect(asked.count == 1)
        #expect(
            asked.first?.0 == "GraphQL/Users",
            "the selected endpoint is not a GraphQL one: the collection's first is browsed")
        #expect(asked.first?.1 == false)
        #expect(screenText(state).contains("Reading the schema of GraphQL/Users"))
        tuiReduce(&state, .schemaLoaded(endpointID: "GraphQL/Users", environment: "local", Self.loaded))
        return state
    }

    @Test func theTypesAreListedRootsFirstWithTheirDescriptionsAndWhenTheSchemaWasFetched() throws {
        let screen = screenText(try openBrowser())
        #expect(screen.contains("GraphQL schema · local"))
        #expect(screen.contains("cached 2027-01-15 08:00"))
        #expect(screen.contains("types of http://127.0.0.1:9/graphql"))
        #expect(screen.contains("type Query"))
        #expect(screen.contains("query root"))
        #expect(screen.contains("type User  A person who writes posts."))
        let lines = screen.components(separatedBy: "\n")
        let query = try #require(lines.firstIndex { $0.contains("type Query") })
        let user = try #require(lines.firstIndex { $0.contains("type User") })
        #expect(query < user)
    }

    @Test func aSearchFindsTypesByTheirFieldsAndEnterShowsFieldsWithDeprecations() throws {
        var state = try openBrowser()
        tuiPress(&state, .char("/"))
        tuiType(&state, "handle")
        var screen = screenText(state)
        #expect(screen.contains("/ handle"))
        #expect(screen.contains("type User"))
        #expect(!screen.contains("type Query"), "only User has a field described as a handle")
        tuiPress(&state, KeyPress(.enter), KeyPress(.enter))
        screen = screenText(state)
        #expect(screen.contains("username: String!"))
        #expect(screen.contains("posts: [Post!]!"))
        // id, name, username, login: the fourth field.
        tuiPress(&state, .char("j"), .char("j"), .char("j"))
        screen = screenText(state)
        #expect(screen.contains("login: String"))
        #expect(screen.contains("deprecated"))
        #expect(screen.contains("Deprecated: Use username."))
        #expect(screen.contains("The handle, as it was called before."))
    }

    @Test func argumentsShowWithTheirTypesDefaultsAndDescriptions() throws {
        var state = try openBrowser()
        tuiPress(&state, .char("/"))
        tuiType(&state, "adds a post")
        tuiPress(&state, KeyPress(.enter), KeyPress(.enter))
        let screen = screenText(state)
        #expect(screen.contains("type Mutation"))
        #expect(screen.contains("createPost(userId: ID!, title: String!, body: String): Post!"))
        #expect(screen.contains(#"createPost(userId: ID!, title: String!, body: String = ""): Post!"#), "the details")
        #expect(screen.contains("Adds a post (kept until the demo stops)."))
        #expect(screen.contains("  title: String!"))
    }

    @Test func enterFollowsAFieldToItsTypeAndEscGoesBackThenCloses() throws {
        var state = try openBrowser()
        tuiPress(&state, KeyPress(.enter))  // Query
        tuiPress(&state, .char("/"))
        tuiType(&state, "posts(")
        tuiPress(&state, KeyPress(.enter), KeyPress(.enter))
        var screen = screenText(state)
        #expect(screen.contains("type Post  A post by a user."))
        #expect(screen.contains("author: User"))
        tuiPress(&state, KeyPress(.escape))
        screen = screenText(state)
        #expect(screen.contains("type Query"))
        #expect(screen.contains("type User"))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    @Test func rFetchesTheSchemaAgainAndAProblemIsShownWithWhatToDo() throws {
        var state = try openBrowser()
        let effects = tuiPress(&state, .char("r"))
        #expect(effects.contains { if case .loadSchema(_, true) = $0 { true } else { false } })
        #expect(screenText(state).contains("Reading the schema"))
        let failed = SchemaOutlineLoad(
            url: "http://127.0.0.1:9/graphql",
            problem:
                "The schema of http://127.0.0.1:9/graphql (environment local) cannot be had by introspection: connection refused"
        )
        tuiReduce(&state, .schemaLoaded(endpointID: "GraphQL/Users", environment: "local", failed))
        let screen = screenText(state)
        #expect(screen.contains("cannot be had by introspection"))
        #expect(screen.contains("r tries again"))
    }

    @Test func theHelpListsTheKey() throws {
        var state = try tuiState(width: 140, height: 80)
        tuiPress(&state, .char("?"))
        #expect(screenText(state).contains("GraphQL schema of the endpoint"))
    }
}
