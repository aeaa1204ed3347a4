import GraphQL

/// One thing wrong with a GraphQL document: a syntax error, or a validation error against the
/// schema, with where it is in the file.
package struct GraphQLProblem: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in the GraphQL implementation's words.
    package var message: String
    /// Where it is in the collection or the `@file`, when known.
    package var location: FileLocation?

    package var description: String { (location.map { "\($0): " } ?? "") + message }
}

/// Parsing and validating GraphQL documents with the GraphQL reference implementation for
/// Swift (GraphQLSwift), errors mapped to the lines and columns of the file they are written in.
package enum GraphQLDocumentCheck {
    /// The syntax error of a document, or `nil` when it parses.
    static func syntaxProblem(in source: GraphQLSourceText) -> GraphQLProblem? {
        do {
            _ = try GraphQL.parse(source: Source(body: source.text, name: "query"))
            return nil
        } catch let error as GraphQLError {
            return problem(error, in: source, syntax: true)
        } catch {
            return GraphQLProblem(message: "\(error)", location: source.origin)
        }
    }

    /// The syntax error, or the validation errors of a document against a schema (empty when
    /// it is valid).
    package static func problems(in source: GraphQLSourceText, schema: GraphQLSchema) -> [GraphQLProblem] {
        let document: Document
        do {
            document = try GraphQL.parse(source: Source(body: source.text, name: "query"))
        } catch let error as GraphQLError {
            return [problem(error, in: source, syntax: true)]
        } catch {
            return [GraphQLProblem(message: "\(error)", location: source.origin)]
        }
        return GraphQL.validate(schema: schema, ast: document).map { problem($0, in: source, syntax: false) }
    }

    /// A GraphQLSwift error as a problem: its first location mapped into the file, and a
    /// syntax error's message without the `Syntax Error query (1:5)` prefix and the excerpt
    /// (the location says it).
    static func problem(_ error: GraphQLError, in source: GraphQLSourceText, syntax: Bool) -> GraphQLProblem {
        var message = error.message
        if syntax {
            let firstLine =
                message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? message
            if let close = firstLine.range(of: ") ") {
                message = "syntax error: " + firstLine[close.upperBound...]
            } else {
                message = firstLine
            }
        }
        let place = error.locations.first.flatMap { source.location(line: $0.line, column: $0.column) } ?? source.origin
        return GraphQLProblem(message: message, location: place)
    }
}

extension GraphQLDocumentCheck {
    /// The kind of the operation a request runs (`query`, `mutation`, `subscription`): the
    /// one named, or the document's only one; `nil` when the document does not parse or the
    /// name matches none.
    static func operationKind(in text: String, named name: String?) -> String? {
        guard let document = try? GraphQL.parse(source: Source(body: text, name: "query")) else { return nil }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let chosen =
            name.map { wanted in operations.first { $0.name?.value == wanted } }
            ?? (operations.count == 1 ? operations.first : nil)
        return chosen?.operation.rawValue
    }

    /// The names of a document's operations, in order (unnamed ones left out).
    static func operationNames(in text: String) -> [String] {
        guard let document = try? GraphQL.parse(source: Source(body: text, name: "query")) else { return [] }
        return document.definitions.compactMap { ($0 as? OperationDefinition)?.name?.value }
    }
}
