import Foundation
import NetworkingCore
import Yams

/// Reading an endpoint's `graphql:` (`query`, `variables`, `operation`), each error at the
/// line and column of what to fix; an inline query that does not parse is an error at the line
/// and column of the mistake inside it.
extension Reader {
    mutating func graphQLOperation(_ node: Yams.Node, endpoint name: String) throws -> GraphQLOperation {
        let expected = "a mapping with query (the GraphQL document, or @path of a file), variables and operation"
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(location(node), key: "graphql", expected: expected)
        }
        checkKeys(mapping, known: GraphQLOperation.keys, in: "the graphql of endpoint \"\(name)\"")
        guard let queryNode = mapping.value("query") else {
            throw CollectionError.missingKey(location(node), key: "query", in: "the graphql of endpoint \"\(name)\"")
        }
        let query = try string(queryNode, key: "graphql.query")
        var variables: JSONValue?
        if let variablesNode = mapping.value("variables"), variablesNode.null == nil {
            guard case .mapping = variablesNode else {
                throw CollectionError.wrongType(
                    location(variablesNode), key: "graphql.variables",
                    expected: "a mapping of variable names to values (id: \"{{user_id}}\")")
            }
            variables = JSONValue(yaml: variablesNode)
        }
        let operation = try mapping.value("operation").map { try string($0, key: "graphql.operation") }
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("@"), !trimmed.contains("\n") {
            let path = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else {
                throw CollectionError.wrongType(
                    location(queryNode), key: "graphql.query",
                    expected: "the GraphQL document, or @path of a file holding it")
            }
            return GraphQLOperation(document: .file(path), variables: variables, operationName: operation)
        }
        guard !trimmed.isEmpty else {
            throw CollectionError.wrongType(
                location(queryNode), key: "graphql.query",
                expected: "the GraphQL document, or @path of a file holding it")
        }
        let source = GraphQLSourceText(text: query, origin: queryOrigin(queryNode))
        if let problem = GraphQLDocumentCheck.syntaxProblem(in: source) {
            throw CollectionError.invalidCheck(
                problem.location ?? location(queryNode), key: "graphql", endpoint: name,
                problem: "the query has a \(problem.message); fix it there.")
        }
        return GraphQLOperation(document: .inline(query), variables: variables, operationName: operation)
    }

    /// Where the first character of a scalar's text is: after the opening quote of a quoted
    /// one, on the line after `|` (at the block's indentation) for a block scalar.
    func queryOrigin(_ node: Yams.Node) -> FileLocation {
        var place = location(node)
        guard case .scalar(let scalar) = node else { return place }
        switch scalar.style {
        case .singleQuoted, .doubleQuoted:
            place.column += 1
        case .literal, .folded:
            // The block's text starts on the next line, at the indentation of its first
            // non-empty line.
            // Lines are 1-based, so the line at index `place.line` is the next one. Split as
            // bytes, and only here: the loader split every file into lines of characters, as
            // `hasComments` did (0.2–0.3 ms for the demo collection), and a CRLF is one
            // character, so no line of a CRLF file ended.
            let blank: (UInt8) -> Bool = {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
            }
            let indent =
                source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .dropFirst(place.line).first { !$0.allSatisfy(blank) }
                .map { $0.prefix { $0 == UInt8(ascii: " ") }.count } ?? 0
            place = FileLocation(file: place.file, line: place.line + 1, column: indent + 1)
        default:
            break
        }
        return place
    }
}
