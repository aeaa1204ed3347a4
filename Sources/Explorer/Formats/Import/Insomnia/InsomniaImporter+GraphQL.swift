import Foundation
import GraphQL
import NetworkingCore

/// What a GraphQL request of Insomnia must hold to become a `graphql:` endpoint, which the
/// collection loader reads only with a query that parses and variables that are an object.
extension InsomniaImporter.Walker {
    /// A GraphQL body's variables as a `graphql:` holds them: `.some(nil)` for none (absent,
    /// `null` or empty text), the object (written as an object, or as the JSON text of one, as
    /// older Insomnia versions keep them); `nil` when they are anything else.
    static func graphQLVariables(_ value: JSONValue?) -> JSONValue?? {
        switch value {
        case nil, .null?:
            return .some(nil)
        case .object?:
            return .some(value)
        case .string(let text)?:
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .some(nil) }
            if case .object? = JSONValue.container(parsing: text) { return .some(JSONValue.container(parsing: text)) }
            return nil
        default:
            return nil
        }
    }

    /// Whether a query is a GraphQL document that parses (an empty or unfinished one does not).
    static func isGraphQLDocument(_ text: String) -> Bool {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return false }
        return (try? GraphQL.parse(source: Source(body: text, name: "query"))) != nil
    }
}
