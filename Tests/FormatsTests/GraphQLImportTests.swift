import Foundation
import NetworkingCore
import Testing

@testable import Demo
@testable import Formats
@testable import GraphQLSupport
@testable import Workspace

/// `explorer import graphql`: a schema file (SDL) and a live server's introspection answer,
/// one endpoint per root query and mutation field.
@Suite(.serialized) struct GraphQLImportTests {
    static let sdl = """
        "The shop."
        type Query {
          "One product."
          product(id: ID!): Product
          products(first: Int = 10, category: Category): [Product!]!
          version: String!
        }
        type Mutation {
          addToCart(productId: ID!, quantity: Int!): Cart!
        }
        enum Category { BOOKS TOYS }
        type Product {
          id: ID!
          name: String!
          category: Category!
          price(currency: String!): Float!
          oldName: String @deprecated(reason: "Use name.")
          reviews: [Review!]!
        }
        type Review { stars: Int! }
        type Cart { items: [Product!]! }
        """

    @Test func aSchemaFileGivesOneEndpointPerRootFieldWithItsScalarSelection() throws {
        let result = try GraphQLImporter().importSchema(
            Self.sdl, source: "shop.graphql", endpointURL: URL(string: "http://127.0.0.1:4000/api/graphql")!)
        let collection = result.collection
        #expect(collection.environments.first?.baseURLTemplate == "http://127.0.0.1:4000")
        let product = try collection.endpoint(named: "Query/product")
        #expect(product.method == .post)
        #expect(product.path == "/api/graphql")
        #expect(product.description == "One product.")
        let graphql = try #require(product.graphql)
        // Scalars and enums without a required argument; no deprecated field, no object.
        #expect(
            graphql.document
                == .inline("query Product($id: ID!) {\n  product(id: $id) {\n    id\n    name\n    category\n  }\n}\n"))
        #expect(graphql.variables == .object([("id", .string(""))]))
        #expect(graphql.operationName == "Product")

        let products = try #require(collection.endpoint(named: "Query/products").graphql)
        #expect(products.variables == .object([("first", .null), ("category", .null)]))
        #expect(
            try collection.endpoint(named: "Query/version").graphql?.document
                == .inline("query Version {\n  version\n}\n"))
        let cart = try #require(collection.endpoint(named: "Mutation/addToCart").graphql)
        #expect(
            cart.document
                == .inline(
                    "mutation AddToCart($productId: ID!, $quantity: Int!) {\n  addToCart(productId: $productId, quantity: $quantity) {\n    __typename\n  }\n}\n"
                ))
        #expect(cart.variables == .object([("productId", .string("")), ("quantity", .number("0"))]))

        // What it writes reads back as a collection, queries checked for syntax.
        let again = try writtenAndReadBack(collection)
        #expect(try again.endpoint(named: "Mutation/addToCart").graphql == cart)
    }

    @Test func aSchemaErrorNamesTheFileLineAndColumn() {
        #expect {
            try GraphQLImporter().importSchema(
                "type Query {\n  a: String\n  b: \n}\n", source: "bad.graphql",
                endpointURL: URL(string: "http://h/graphql")!)
        } throws: { error in "\(error)".hasPrefix("bad.graphql: it cannot be imported as a GraphQL schema: 4:1:") }
    }

    @Test func aServersIntrospectionAnswerIsImportedAndItsEndpointsAnswer() async throws {
        let server = try await DemoServer.start(port: 0)
        let transport = AsyncHTTPClientTransport()
        defer {
            Task {
                try? await transport.shutdown()
                await server.stop()
            }
        }
        let base = try #require(server.environments.first { $0.name == "local" }?.baseURL)
        let url = base.appendingPathComponent("graphql")
        let sdl = try await GraphQLIntrospection.fetchSDL(from: url, transport: transport)
        #expect(sdl.contains("login: String @deprecated(reason: \"Use username.\")"))
        #expect(sdl.contains("\"A person who writes posts.\"\ntype User {"))

        let collection = try GraphQLImporter().importSchema(sdl, source: url.absoluteString, endpointURL: url)
            .collection
        #expect(collection.items.count == 2)
        let posts = try collection.endpoint(named: "Query/posts")
        #expect(posts.path == "/v1/graphql")
        #expect(
            try collection.endpoint(named: "Mutation/createPost").graphql?.variables
                == .object([("userId", .string("")), ("title", .string("")), ("body", .null)]))

        let resolved = try RequestResolver().resolve(posts, in: collection)
        let response = try await NetworkDispatcher(serverProvider: resolved.environment, transport: transport).future(
            from: resolved.request
        ).value
        let body = try #require(response.body)
        #expect(GraphQLResponseError.errors(in: body).isEmpty, "\(String(decoding: body, as: UTF8.self))")
        let first = try JSONValue(parsing: body)["data"]?["posts"]?[0]
        #expect(first?["title"]?.stringValue == "Notes on the Analytical Engine")
        #expect(first?["published"] != nil)
    }
}
