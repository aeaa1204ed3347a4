import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// GraphQL over HTTP's default: an endpoint with `graphql:` and no `method:` is a POST with a
/// JSON body; the query goes in the URL only with `method: GET`.
@Suite struct GraphQLMethodTests {
    let yaml = """
        name: g
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
        endpoints:
          - name: Users
            path: /graphql
            graphql:
              query: "query Users($first: Int) { users(first: $first) { id } }"
              variables: { first: 2 }
              operation: Users
          - name: Users by GET
            method: GET
            path: /graphql
            graphql: { query: "{ users { id } }" }
          - name: Plain
            path: /users
        """

    @Test func anOperationWithoutAMethodIsPostedAsJSON() throws {
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: "Users"), in: collection)

        #expect(resolved.request.method == .post)
        #expect(resolved.request.queryItems.isEmpty)
        #expect(resolved.request.headers["Content-Type"] == "application/json")
        let body = try JSONSerialization.jsonObject(with: try #require(resolved.request.httpBody)) as? [String: Any]
        #expect(body?["query"] as? String == "query Users($first: Int) { users(first: $first) { id } }")
        #expect(body?["operationName"] as? String == "Users")
        #expect((body?["variables"] as? [String: Any])?["first"] as? Int == 2)
    }

    @Test func getPutsTheQueryInTheURLOnlyWhenWritten() throws {
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: "Users by GET"), in: collection)

        #expect(resolved.request.method == .get)
        #expect(resolved.request.httpBody == nil)
        #expect(resolved.request.queryItems == [URLQueryItem(name: "query", value: "{ users { id } }")])
        #expect(try collection.endpoint(named: "Plain").method == .get)
    }

    @Test func writingBackKeepsTheDefaultUnwrittenAndAGetWritten() throws {
        let collection = try CollectionLoader.parse(yaml)
        let written = try CollectionWriter.yaml(for: collection)

        #expect(!written.contains("method: POST"))
        #expect(written.components(separatedBy: "method: GET").count == 2)
        let reread = try CollectionLoader.parse(written)
        #expect(reread == collection)
        #expect(try reread.endpoint(named: "Users").method == .post)
        #expect(try reread.endpoint(named: "Users by GET").method == .get)
    }
}
