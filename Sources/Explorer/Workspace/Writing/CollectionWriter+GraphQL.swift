import NetworkingCore
import Yams

extension CollectionWriter {
    /// A `graphql:` as the loader reads it: a multi-line query as a `|` block, so it reads
    /// as it was written; `@path` for a query kept in a file.
    static func graphQLNode(_ operation: GraphQLOperation) -> Yams.Node {
        var pairs: [(Yams.Node, Yams.Node)] = []
        switch operation.document {
        case .inline(let text):
            pairs.append(("query", text.contains("\n") ? Yams.Node(text, .implicit, .literal) : scalar(text)))
        case .file(let path):
            pairs.append(("query", Yams.Node("@" + path, .implicit, .doubleQuoted)))
        }
        if let variables = operation.variables { pairs.append(("variables", jsonNode(variables))) }
        if let name = operation.operationName { pairs.append(("operation", scalar(name))) }
        return keyed(pairs)
    }
}
