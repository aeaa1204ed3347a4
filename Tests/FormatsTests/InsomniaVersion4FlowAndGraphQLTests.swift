import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Insomnia 4 exports as `inso` writes them in YAML (flow style: the file starts with `{`
/// and is no JSON), and GraphQL requests whose query explorer cannot read as GraphQL.
@Suite struct InsomniaVersion4FlowAndGraphQLTests {
    @Test func anExportInFlowStyleYAMLIsReadAsYAML() throws {
        let result = try InsomniaImporter().importFile(at: Fixtures.url("insomnia/inso-v4-flow-cut.yaml"))
        let collection = try writtenAndReadBack(result.collection, file: "inso.yaml")
        #expect(collection.name == "Swagger Petstore 1.0.0")
        #expect(
            collection.endpoints.map(\.name).sorted() == ["Add a new pet to the store", "Example 1", "Example 2"])
        let add = try collection.endpoint(named: "Add a new pet to the store")
        #expect(add.method == .post)
        // The text Insomnia sends, its escapes read as YAML reads them.
        #expect(
            add.body
                == .raw(
                    "{\n  \"id\": 0,\n  \"category\": {\n    \"id\": 0,\n    \"name\": \"string\"\n  },\n  \"name\": \"doggie\",\n  \"photoUrls\": [\n    \"string\"\n  ],\n  \"tags\": [\n    {\n      \"id\": 0,\n      \"name\": \"string\"\n    }\n  ],\n  \"status\": \"string\"\n}"
                ))
        #expect(add.headers == [KeyValue("Content-Type", "application/json")])
        #expect(collection.variables[named: "base_url"] != nil)
    }

    @Test func textThatStartsWithABraceAndIsNeitherJSONNorYAMLIsRefusedAsJSON() {
        let error = #expect(throws: ImportError.self) {
            try InsomniaImporter().importData(Data(#"{"_type": "export", "#.utf8), path: "broken.json")
        }
        #expect(error?.description.contains("broken.json") == true)
        #expect(error?.description.contains("not valid JSON") == true, "\(String(describing: error))")
    }

    /// A format 4 export with GraphQL requests as Insomnia keeps them (the body is the JSON it
    /// sends): one with a query that parses, one new and empty, one unfinished, one whose
    /// variables are text.
    static let graphQLExport = #"""
        {"_type": "export", "__export_format": 4, "__export_source": "insomnia.desktop.app:v2022.7.0",
         "resources": [
          {"_id": "wrk_1", "_type": "workspace", "parentId": null, "name": "Spacelift"},
          {"_id": "req_1", "_type": "request", "parentId": "wrk_1", "name": "Authentication - Get JWT",
           "method": "POST", "url": "{{ _.BASE_URL }}/graphql", "metaSortKey": 1,
           "body": {"mimeType": "application/graphql",
                    "text": "{\"query\":\"mutation GetSpaceliftToken($keyId: ID!, $keySecret: String!) {\\n  apiKeyUser(id: $keyId, secret: $keySecret) {\\n    id\\n\\t\\tjwt\\n  }\\n}\",\"variables\":{\"keyId\":\"{{ _.API_KEY_ID }}\",\"keySecret\":\"{{ _.API_KEY_SECRET }}\"},\"operationName\":\"GetSpaceliftToken\"}"},
           "headers": [{"name": "Content-Type", "value": "application/json"}]},
          {"_id": "req_2", "_type": "request", "parentId": "wrk_1", "name": "New query", "method": "POST",
           "url": "{{ _.BASE_URL }}/graphql", "metaSortKey": 2,
           "body": {"mimeType": "application/graphql", "text": "{\"query\":\"\"}"}},
          {"_id": "req_3", "_type": "request", "parentId": "wrk_1", "name": "Unfinished", "method": "POST",
           "url": "{{ _.BASE_URL }}/graphql", "metaSortKey": 3,
           "body": {"mimeType": "application/graphql", "text": "{\"query\":\"query { stacks { id \"}"}},
          {"_id": "req_4", "_type": "request", "parentId": "wrk_1", "name": "Variables as text", "method": "POST",
           "url": "{{ _.BASE_URL }}/graphql", "metaSortKey": 4,
           "body": {"mimeType": "application/graphql",
                    "text": "{\"query\":\"query Stack($id: ID!) { stack(id: $id) { name } }\",\"variables\":\"{\\\"id\\\": \\\"my-stack\\\"}\"}"}},
          {"_id": "env_1", "_type": "environment", "parentId": "wrk_1", "name": "Base Environment",
           "data": {"BASE_URL": "https://example.app.spacelift.io"}}
         ]}
        """#

    @Test func aGraphQLExportMakesACollectionThatLoads() throws {
        let result = try InsomniaImporter().importData(Data(Self.graphQLExport.utf8), path: "spacelift.json")
        // What the loader refused before: an empty query, one that does not parse.
        let collection = try writtenAndReadBack(result.collection, file: "spacelift.yaml")
        let token = try collection.endpoint(named: "Authentication - Get JWT")
        #expect(token.graphql?.operationName == "GetSpaceliftToken")
        #expect(token.graphql?.variables?["keyId"] == .string("{{API_KEY_ID}}"))
        let text = try collection.endpoint(named: "Variables as text")
        #expect(text.graphql?.variables?["id"] == .string("my-stack"))
        for name in ["New query", "Unfinished"] {
            let endpoint = try collection.endpoint(named: name)
            #expect(endpoint.graphql == nil)
            #expect(endpoint.headers.contains(KeyValue("Content-Type", "application/json")))
            guard case .raw(let body)? = endpoint.body else {
                Issue.record("\(name): \(String(describing: endpoint.body))")
                continue
            }
            #expect(body.hasPrefix(#"{"query":"#))
        }
        #expect(
            result.warnings.contains { $0.hasPrefix(#""New query": its GraphQL query is empty or does not parse"#) })
    }
}
