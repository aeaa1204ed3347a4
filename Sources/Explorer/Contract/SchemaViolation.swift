/// One way an instance fails its schema.
package struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance (the body), as a JSON pointer: `/items/3/id`; empty for the whole.
    package var instancePointer: String
    /// Where in the schema's document, as a JSON pointer to the keyword that failed:
    /// `/components/schemas/Pet/required`.
    package var schemaPointer: String
    /// What is wrong, in a sentence.
    package var message: String

    package init(instancePointer: String, schemaPointer: String, message: String) {
        self.instancePointer = instancePointer
        self.schemaPointer = schemaPointer
        self.message = message
    }

    /// `/items/3/id: 7 is not of type string (#/components/schemas/Pet/properties/id/type)`.
    package var description: String {
        "\(instancePointer.isEmpty ? "(body)" : instancePointer): \(message) (#\(schemaPointer))"
    }
}

/// A mistake of the schema's document itself, found while compiling it: an unresolvable
/// `$ref`, a pattern that is not a regular expression, a keyword of the wrong type. The
/// keyword is then left out (it accepts everything), and the warning says so once.
package struct SchemaWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where in the document, as a JSON pointer.
    package var schemaPointer: String
    /// What is wrong.
    package var message: String

    package init(schemaPointer: String, message: String) {
        self.schemaPointer = schemaPointer
        self.message = message
    }

    package var description: String { "#\(schemaPointer): \(message)" }
}

/// Which rules a schema is read by.
package enum SchemaDialect: String, Sendable, CaseIterable {
    /// JSON Schema draft 2020-12, as OpenAPI 3.1 uses it.
    case draft2020_12 = "2020-12"
    /// JSON Schema draft 4: `id`, `definitions`, Boolean `exclusiveMaximum`, `$ref` that
    /// replaces its siblings, `items` as an array for tuples.
    case draft4 = "draft-04"
    /// OpenAPI 3.0's schema object: draft 4's rules and `nullable`.
    case openAPI30 = "openapi-3.0"

    var isDraft4Family: Bool { self != .draft2020_12 }
}
