import Foundation
import NetworkingCore

/// An endpoint's `graphql:`: a GraphQL document, its variables and the operation to run,
/// sent per GraphQL over HTTP (a JSON body for POST, query parameters for GET).
///
/// ```yaml
/// graphql:
///   query: |
///     query User($id: ID!) { user(id: $id) { name } }
///   variables: { id: "{{user_id}}" }
///   operation: User
/// ```
package struct GraphQLOperation: Sendable, Hashable {
    /// Where the document is: written in the collection, or in a file beside it.
    package enum Document: Sendable, Codable, Hashable {
        /// The document's text, as written.
        case inline(String)
        /// `query: @path`: a file read at send time, relative to the collection's folder.
        case file(String)
    }

    /// The document (the query, mutation or subscription text).
    package var document: Document
    /// The variables, a JSON object whose strings may hold `{{variable}}` templates.
    package var variables: JSONValue?
    /// The operation to run when the document has several (`operationName`).
    package var operationName: String?

    /// Creates an operation.
    package init(document: Document, variables: JSONValue? = nil, operationName: String? = nil) {
        self.document = document
        self.variables = variables
        self.operationName = operationName
    }

    /// The keys a `graphql:` mapping may have.
    static let keys = ["query", "variables", "operation"]

    /// The `Accept` header GraphQL over HTTP asks a client to send.
    package static let accept = "application/graphql-response+json, application/json"
}

/// A GraphQL document as sent, with where its first character is written, so that a
/// (line, column) inside the document names the line and column of the file to fix.
package struct GraphQLSourceText: Sendable, Hashable {
    /// The document's text.
    package var text: String
    /// Where the document's line 1, column 1 is in the collection or in the `@file`. A
    /// `query: |` block starts every line at the same column, so column N of any line is
    /// `origin.column - 1 + N` there too.
    package var origin: FileLocation?

    /// The place in the file of a line and column of the document (both from 1).
    package func location(line: Int, column: Int) -> FileLocation? {
        guard let origin else { return nil }
        return FileLocation(file: origin.file, line: origin.line + line - 1, column: origin.column + column - 1)
    }
}
