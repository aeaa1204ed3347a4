import Workspace

extension JSONPath {
    /// Parses `expression` and applies it to a JSON document, giving the matches as a document.
    static func filter(_ document: BodyDocument, _ expression: String) throws -> BodyDocument {
        BodyDocument.make(try JSONPath(expression).evaluate(document.raw), contentType: "application/json")
    }
}
