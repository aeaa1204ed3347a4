import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Workspace

/// The `graphql:` key of an endpoint: read, written back, resolved into GraphQL over HTTP
/// (a JSON body for POST, query parameters for GET), with errors at file:line:column.
@Suite struct GraphQLCollectionTests {
    static func collection(_ endpoints: String, file: String = "api.yaml") throws -> APICollection {
        try CollectionLoader.parse(text(endpoints), file: file)
    }

    /// A collection's YAML with these endpoints.
    static func text(_ endpoints: String) -> String {
        """
        name: G
        environments:
          - name: local
            base_url: http://127.0.0.1:9/v1
            variables: { user_id: "7" }
        endpoints:
        \(endpoints)
        """
    }

    /// An endpoint whose block query has a syntax error: `!` on line 12 of the file, column 30.
    static let brokenBlockQuery = """
          - name: Broken
            path: /graphql
            graphql:
              query: |
                query {
                  user(id: 1) { name ! }
                }
        """

    @Test func readsQueryVariablesAndOperation() throws {
        let collection = try Self.collection(
            """
              - name: User
                method: POST
                path: /graphql
                graphql:
                  query: |
                    query User($id: ID!) { user(id: $id) { name } }
                  variables: { id: "{{user_id}}", first: 3 }
                  operation: User
            """)
        let endpoint = try collection.endpoint(named: "User")
        let graphql = try #require(endpoint.graphql)
        #expect(graphql.document == .inline("query User($id: ID!) { user(id: $id) { name } }\n"))
        #expect(graphql.variables == .object([("id", .string("{{user_id}}")), ("first", .number("3"))]))
        #expect(graphql.operationName == "User")
    }

    @Test func aPostSendsOneJSONObjectWithVariablesExpanded() throws {
        let collection = try Self.collection(
            """
              - name: User
                method: POST
                path: /graphql
                graphql:
                  query: "query User($id: ID!) { user(id: $id) { name } }"
                  variables: { id: "{{user_id}}" }
                  operation: User
            """)
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: "User"), in: collection)
        let body = try #require(resolved.request.httpBody)
        let sent = try JSONValue(parsing: body)
        #expect(sent["query"]?.stringValue == "query User($id: ID!) { user(id: $id) { name } }")
        #expect(sent["operationName"]?.stringValue == "User")
        #expect(sent["variables"]?["id"]?.stringValue == "7")
        #expect(resolved.request.headers["Content-Type"] == "application/json")
        #expect(resolved.request.headers["Accept"] == "application/graphql-response+json, application/json")
    }

    @Test func aGetSendsQueryParametersAndNoBody() throws {
        let collection = try Self.collection(
            """
              - name: User
                method: GET
                path: /graphql
                graphql:
                  query: "{ user(id: 1) { name } }"
                  variables: { id: "{{user_id}}" }
            """)
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: "User"), in: collection)
        #expect(resolved.request.httpBody == nil)
        let items = try #require(URLComponents(string: resolved.url)?.queryItems)
        #expect(items.first { $0.name == "query" }?.value == "{ user(id: 1) { name } }")
        #expect(items.first { $0.name == "variables" }?.value == #"{"id":"7"}"#)
    }

    @Test func aMutationWithGetIsRefusedBeforeSending() throws {
        let collection = try Self.collection(
            """
              - name: Create
                method: GET
                path: /graphql
                graphql:
                  query: "mutation { createPost(userId: 1, title: \\"x\\") { id } }"
            """)
        #expect {
            try RequestResolver().resolve(try collection.endpoint(named: "Create"), in: collection)
        } throws: { error in
            "\(error)".contains("a mutation cannot be sent with GET") && "\(error)".hasPrefix("api.yaml:8:")
        }
    }

    @Test func aSyntaxErrorInABlockQueryPointsAtItsLineAndColumnInTheFile() throws {
        #expect {
            try Self.collection(Self.brokenBlockQuery)
        } throws: { error in
            // `!` is on line 12 of the file, column 30: the block is indented 8 columns and
            // `!` is column 22 of the query's second line.
            "\(error)".hasPrefix("api.yaml:12:30: in the graphql of endpoint \"Broken\", the query has a syntax error:")
        }
    }

    @Test func aSyntaxErrorInABlockQueryOfAFileWithCRLFLineEndsPointsAtTheSameColumn() throws {
        #expect {
            try CollectionLoader.parse(
                Self.text(Self.brokenBlockQuery).replacingOccurrences(of: "\n", with: "\r\n"), file: "api.yaml")
        } throws: { error in
            "\(error)".hasPrefix("api.yaml:12:30: in the graphql of endpoint \"Broken\", the query has a syntax error:")
        }
    }

    @Test func unknownKeysGetADidYouMean() throws {
        let collection = try Self.collection(
            """
              - name: User
                path: /graphql
                graphql:
                  query: "{ users { id } }"
                  varibles: { id: "1" }
            """)
        #expect(
            collection.warnings.map(\.description).contains {
                $0.contains("unknown key \"varibles\"") && $0.contains("did you mean \"variables\"?")
            })
    }

    @Test func graphqlAndAnotherBodyConflict() throws {
        #expect {
            try Self.collection(
                """
                  - name: Both
                    method: POST
                    path: /graphql
                    json: { a: 1 }
                    graphql: { query: "{ users { id } }" }
                """)
        } throws: { error in "\(error)".contains("more than one of json, body, form, multipart and graphql") }
    }

    @Test func anOperationTheDocumentLacksIsAnErrorWithADidYouMean() throws {
        let collection = try Self.collection(
            """
              - name: Two
                method: POST
                path: /graphql
                graphql:
                  query: "query Users { users { id } } query Posts { posts { id } }"
                  operation: User
            """)
        #expect {
            try RequestResolver().resolve(try collection.endpoint(named: "Two"), in: collection)
        } throws: { error in
            "\(error)".contains("operation \"User\" is not in the document")
                && "\(error)".contains("did you mean \"Users\"?")
        }
    }

    @Test func aQueryFileIsReadAtSendTimeAndItsSyntaxErrorsNameTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("api.yaml")
        try """
        name: G
        environments: [{ name: local, base_url: "http://127.0.0.1:9" }]
        endpoints:
          - name: From file
            method: POST
            path: /graphql
            graphql: { query: "@queries/user.graphql" }
        """.write(to: yaml, atomically: true, encoding: .utf8)
        let query = folder.appendingPathComponent("queries/user.graphql")
        try FileManager.default.createDirectory(
            at: query.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "query {\n  users { id }\n}\n".write(to: query, atomically: true, encoding: .utf8)
        let collection = try CollectionLoader.load(from: yaml)
        let endpoint = try collection.endpoint(named: "From file")
        #expect(endpoint.graphql?.document == .file("queries/user.graphql"))
        let resolved = try RequestResolver().resolve(endpoint, in: collection)
        #expect(
            try JSONValue(parsing: try #require(resolved.request.httpBody))["query"]?.stringValue
                == "query {\n  users { id }\n}\n")

        try "query {\n  users { id ]\n}\n".write(to: query, atomically: true, encoding: .utf8)
        #expect {
            try RequestResolver().resolve(endpoint, in: collection)
        } throws: { error in
            "\(error)".hasPrefix(
                "\(query.path):2:14: The GraphQL query of endpoint \"From file\" is not valid: syntax error:")
        }
    }

    @Test func theWriterWritesItBackAsItReads() throws {
        let collection = try Self.collection(
            """
              - name: User
                method: POST
                path: /graphql
                graphql:
                  query: |
                    query User($id: ID!) {
                      user(id: $id) { name }
                    }
                  variables: { id: "{{user_id}}", first: 3 }
                  operation: User
              - name: File
                method: POST
                path: /graphql
                graphql: { query: "@q.graphql" }
            """)
        let text = try CollectionWriter.yaml(for: collection)
        let again = try CollectionLoader.parse(text)
        #expect(try again.endpoint(named: "User").graphql == collection.endpoint(named: "User").graphql)
        #expect(try again.endpoint(named: "File").graphql == collection.endpoint(named: "File").graphql)
        #expect(text.contains("query: |"))
    }

    @Test func aGraphQLErrorsArrayIsAnErrorSummaryWhateverTheStatus() {
        let body =
            #"{"data":{"user":{"name":"Ada","secretNote":null}},"errors":[{"message":"secretNote is private","locations":[{"line":2,"column":17}],"path":["user","secretNote"]}]}"#
        let summary = ResponseSnapshot.errorSummary(
            status: 200, document: BodyDocument.make(Data(body.utf8), contentType: "application/json"))
        #expect(summary == ["GraphQL: 1 error", "• user.secretNote (2:17): secretNote is private"])
        // A REST body with its own `errors` is not read as GraphQL.
        let rest = #"{"status":"failed","errors":[{"message":"x"}]}"#
        #expect(
            ResponseSnapshot.errorSummary(
                status: 200, document: BodyDocument.make(Data(rest.utf8), contentType: "application/json")
            ).isEmpty)
    }
}
