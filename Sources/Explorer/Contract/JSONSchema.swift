import NetworkingCore

/// A JSON schema compiled once and run on any number of instances.
///
/// Reads JSON Schema draft 2020-12 (OpenAPI 3.1), draft 4 and OpenAPI 3.0's schema objects
/// (`SchemaDialect`). The keywords it checks: `$ref` (pointers, `$id`/`id` and `$anchor` within
/// the document), `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `type`, `enum`, `const`,
/// `required`, `properties`, `patternProperties`, `additionalProperties`, `propertyNames`,
/// `dependentRequired`, `dependentSchemas`, draft 4's `dependencies`, `items`, `prefixItems`,
/// `additionalItems`, `contains`, `minContains`, `maxContains`, `minItems`, `maxItems`,
/// `uniqueItems`, `minLength`, `maxLength`, `pattern`, `minProperties`, `maxProperties`,
/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (both drafts' forms),
/// `multipleOf`, `nullable` (OpenAPI 3.0), and `format` (`date-time`, `date`, `email`, `uuid`,
/// `uri`, `ipv4`, `ipv6`) when formats are asserted. Not checked: `$dynamicRef`,
/// `unevaluatedProperties`, `unevaluatedItems`, references to other documents.
package struct JSONSchema: Sendable {
    private let program: SchemaProgram
    private let root: Int?
    /// The document's own mistakes found while compiling (each once).
    package let warnings: [SchemaWarning]

    /// Compiles a schema that is a whole document.
    ///
    /// - Parameters:
    ///   - schema: the schema.
    ///   - dialect: the rules it is read by.
    ///   - assertsFormats: whether `format` is checked (else it is an annotation).
    package init(_ schema: JSONValue, dialect: SchemaDialect = .draft2020_12, assertsFormats: Bool = false) {
        let set = SchemaSet(document: schema, pointers: [""], dialect: dialect, assertsFormats: assertsFormats)
        self = set.schemas[""] ?? JSONSchema(program: set.program, root: nil, warnings: set.warnings)
    }

    init(program: SchemaProgram, root: Int?, warnings: [SchemaWarning]) {
        self.program = program
        self.root = root
        self.warnings = warnings
    }

    /// The violations of `instance`, in the order found, at most `limit` of them.
    package func validate(_ instance: JSONValue, limit: Int = 100) -> [SchemaViolation] {
        guard let root else { return [] }
        return program.checks.withUnsafeBufferPointer { checks in
            program.nodes.withUnsafeBufferPointer { nodes in
                var evaluation = SchemaEvaluation(program: program, nodes: nodes, checks: checks, limit: max(1, limit))
                _ = evaluation.valid(instance, root)
                return evaluation.violations
            }
        }
    }

    /// Whether `instance` passes, stopping at the first violation.
    package func isValid(_ instance: JSONValue) -> Bool {
        guard let root else { return true }
        return program.checks.withUnsafeBufferPointer { checks in
            program.nodes.withUnsafeBufferPointer { nodes in
                var evaluation = SchemaEvaluation(program: program, nodes: nodes, checks: checks, limit: 0)
                return evaluation.valid(instance, root)
            }
        }
    }
}

/// Several schemas of one document (an OpenAPI document's response schemas), compiled
/// together: a schema that two of them reach is compiled once.
package struct SchemaSet: Sendable {
    /// The compiled schemas by their pointer in the document.
    package let schemas: [String: JSONSchema]
    /// The document's mistakes found while compiling, each once.
    package let warnings: [SchemaWarning]
    let program: SchemaProgram

    /// Compiles the schemas at `pointers` in `document`.
    ///
    /// - Parameters:
    ///   - document: the whole document (`$ref`s resolve within it).
    ///   - pointers: JSON pointers to the schemas (`/paths/~1pets/get/responses/200/content/application~1json/schema`).
    ///   - dialect: the rules the schemas are read by.
    ///   - assertsFormats: whether `format` is checked.
    ///   - identifierRoots: pointers under which `$id` and `$anchor` are indexed before
    ///     compiling (OpenAPI's `/components/schemas`).
    ///   - baseURI: the document's own URI, when it has one.
    package init(
        document: JSONValue, pointers: [String], dialect: SchemaDialect, assertsFormats: Bool = false,
        identifierRoots: [String] = [], baseURI: String = ""
    ) {
        var compiler = SchemaCompiler(
            document: document, dialect: dialect, assertsFormats: assertsFormats, documentBase: baseURI)
        for pointer in identifierRoots { compiler.indexIdentifiers(under: pointer) }
        var roots: [String: Int] = [:]
        for pointer in pointers {
            if let root = compiler.compileEntry(at: pointer) { roots[pointer] = root }
        }
        let program = SchemaProgram(tables: compiler.tables)
        var seen = Set<SchemaWarning>()
        let warnings = compiler.warnings.filter { seen.insert($0).inserted }
        self.program = program
        self.warnings = warnings
        self.schemas = roots.mapValues { JSONSchema(program: program, root: $0, warnings: warnings) }
    }
}
