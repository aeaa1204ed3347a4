import Foundation
import NetworkingCore

extension RequestResolver {
    /// The GraphQL document of an operation: its inline text, or its `@file` read now (relative
    /// to the collection's folder) and checked for syntax, an error at the file's line and column.
    ///
    /// - Throws: `ResolveError.unreadableFile` or `.invalidGraphQL`.
    func graphQLSource(of operation: GraphQLOperation, endpoint: Endpoint, directory: URL, collectionFile: URL? = nil)
        throws -> GraphQLSourceText
    {
        switch operation.document {
        case .inline(let text):
            return GraphQLSourceText(text: text, origin: endpoint.locations["graphql.query"])
        case .file(let path):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            try checkReadable(
                url, collectionFile: collectionFile, for: endpoint,
                at: endpoint.locations["graphql.query"] ?? endpoint.location)
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                throw ResolveError.unreadableFile(
                    endpoint: endpoint.id, path: url.path, at: endpoint.locations["graphql.query"] ?? endpoint.location)
            }
            let source = GraphQLSourceText(text: text, origin: FileLocation(file: url.path, line: 1, column: 1))
            if let problem = GraphQLDocumentCheck.syntaxProblem(in: source) {
                throw ResolveError.invalidGraphQL(endpoint: endpoint.id, problems: [problem])
            }
            return source
        }
    }

    /// What GraphQL over HTTP sends: `query`, `operationName` and `variables`, as a JSON
    /// object for a POST body and as query parameters (variables as JSON text) for a GET.
    ///
    /// - Throws: `ResolveError.invalidGraphQL` for a mutation sent with GET (which GraphQL
    ///   over HTTP forbids: a GET must be safe) or an `operation` the document does not have.
    static func graphQLParameters(
        _ source: GraphQLSourceText, variables: JSONValue?, operation: GraphQLOperation, endpoint: Endpoint
    ) throws -> (body: Data, queryItems: [URLQueryItem]) {
        let place = endpoint.locations["graphql"] ?? endpoint.location
        if let name = operation.operationName {
            let names = GraphQLDocumentCheck.operationNames(in: source.text)
            if !names.isEmpty, !names.contains(name) {
                let hint =
                    Suggestions.closest(to: name, in: names, limit: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
                throw ResolveError.invalidGraphQL(
                    endpoint: endpoint.id,
                    problems: [
                        GraphQLProblem(
                            message:
                                "operation \"\(name)\" is not in the document, "
                                + "which has \(names.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)",
                            location: place)
                    ])
            }
        }
        if endpoint.method == .get,
            let kind = GraphQLDocumentCheck.operationKind(in: source.text, named: operation.operationName),
            kind != "query"
        {
            throw ResolveError.invalidGraphQL(
                endpoint: endpoint.id,
                problems: [
                    GraphQLProblem(
                        message:
                            "a \(kind) cannot be sent with GET (GraphQL over HTTP allows only queries there); "
                            + "use method: POST",
                        location: endpoint.locations["method"] ?? place)
                ])
        }
        var members: [(key: String, value: JSONValue)] = [("query", .string(source.text))]
        if let name = operation.operationName { members.append(("operationName", .string(name))) }
        if let variables { members.append(("variables", variables)) }
        var items = [URLQueryItem(name: "query", value: source.text)]
        if let name = operation.operationName { items.append(URLQueryItem(name: "operationName", value: name)) }
        if let variables { items.append(URLQueryItem(name: "variables", value: variables.serialized(pretty: false))) }
        return (Data(JSONValue.object(members).serialized(pretty: false).utf8), items)
    }
}
