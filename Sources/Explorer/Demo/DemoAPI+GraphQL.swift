import Foundation
import GraphQL
import HTTPTypes
import Hummingbird

extension DemoAPI {
    /// `/graphql`: GraphQL over HTTP. POST takes a JSON body (`query`, `variables`,
    /// `operationName`); GET takes them as query parameters (`variables` as JSON text) and
    /// runs queries only. The answer is `200` with `data` and `errors` (a failing field's error
    /// comes with the rest of the data); a request without a query is a `400`.
    func graphQL(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let graphQLRequest: GraphQLRequest
        if request.method == .get || request.method == .head {
            let parameters = request.uri.queryParameters
            guard let query = parameters.get("query"), !query.isEmpty else {
                return graphQLFailure("a GET to /graphql needs a query parameter", status: .badRequest)
            }
            var variables: [String: Map] = [:]
            if let text = parameters.get("variables"), !text.isEmpty {
                guard let decoded = try? JSONDecoder().decode([String: Map].self, from: Data(text.utf8)) else {
                    return graphQLFailure("the variables parameter is not a JSON object", status: .badRequest)
                }
                variables = decoded
            }
            graphQLRequest = GraphQLRequest(
                query: query, operationName: parameters.get("operationName"), variables: variables)
            if (try? GraphQL.parse(source: Source(body: query)))?.definitions.contains(where: {
                ($0 as? OperationDefinition)?.operation == .mutation
            }) ?? false {
                var headers = HTTPFields()
                headers[DemoReply.header("Allow")] = "POST"
                return graphQLFailure(
                    "a mutation cannot be sent with GET; use POST", status: .methodNotAllowed, headers: headers)
            }
        } else {
            var request = request
            let buffer = try await request.collectBody(upTo: Self.maxBodySize)
            guard let decoded = try? JSONDecoder().decode(GraphQLRequest.self, from: Data(buffer.readableBytesView))
            else {
                return graphQLFailure(
                    "the body must be a JSON object with a query (and variables, operationName)", status: .badRequest)
            }
            graphQLRequest = decoded
        }
        let result: GraphQLResult
        do {
            result = try await GraphQL.graphql(
                schema: DemoGraphQLSchema.schema, request: graphQLRequest.query, context: store,
                variableValues: graphQLRequest.variables, operationName: graphQLRequest.operationName)
        } catch let error as GraphQLError {
            // A syntax error: the document never ran.
            result = GraphQLResult(errors: [error])
        }
        let encoder = GraphQLJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(result)) ?? Data("{}".utf8)
        return DemoReply.bytes(data, contentType: "application/json; charset=utf-8")
    }

    private func graphQLFailure(_ message: String, status: HTTPResponse.Status, headers: HTTPFields = [:])
        -> Hummingbird.Response
    {
        DemoReply.jsonObject(["errors": [["message": message]]], status: status, headers: headers)
    }
}
