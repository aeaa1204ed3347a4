import OpenAPIKit

extension OpenAPIImporter {
    /// The document's components by name, each `$ref` followed only when an endpoint reads what
    /// it names.
    ///
    /// Nothing is expanded that no endpoint reads: expanding every operation up front
    /// (OpenAPIKit's `locallyDereferenced()`) copied each body schema's whole tree into every
    /// operation that names it, and checked each component name with a character set per
    /// lookup: most of a large document's import and its memory. A reference that names nothing
    /// costs only what uses it, with a warning.
    struct ComponentLookup {
        typealias Referenced<T: ComponentDictionaryLocatable> = Either<OpenAPI.Reference<T>, T>

        private let schemas: [String: JSONSchema]
        private let parameters: [String: Referenced<OpenAPI.Parameter>]
        private let requests: [String: Referenced<OpenAPI.Request>]
        private let contents: [String: Referenced<OpenAPI.Content>]
        private let examples: [String: Referenced<OpenAPI.Example>]
        private let securitySchemes: [String: Referenced<OpenAPI.SecurityScheme>]
        private let pathItems: [String: OpenAPI.PathItem]
        /// The warnings about references that name nothing, each once, in the order found.
        private(set) var warnings: [String] = []
        private var warned: Set<String> = []

        init(_ components: OpenAPI.Components) {
            schemas = Self.byName(components.schemas)
            parameters = Self.byName(components.parameters)
            requests = Self.byName(components.requestBodies)
            contents = Self.byName(components.mediaTypes)
            examples = Self.byName(components.examples)
            securitySchemes = Self.byName(components.securitySchemes)
            pathItems = Self.byName(components.pathItems)
        }

        private static func byName<T>(_ components: OrderedDictionary<OpenAPI.ComponentKey, T>) -> [String: T] {
            Dictionary(components.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { first, _ in first })
        }

        /// The name a reference gives in `#/components/KIND/NAME`; `nil` for any other.
        static func componentName<T>(_ reference: JSONReference<T>) -> String? {
            if case .internal(.component(let name)) = reference { return name }
            return nil
        }

        mutating func parameter(_ value: Referenced<OpenAPI.Parameter>, at place: String) -> OpenAPI.Parameter? {
            follow(value, through: parameters, at: place)
        }

        mutating func request(_ value: Referenced<OpenAPI.Request>, at place: String) -> OpenAPI.Request? {
            follow(value, through: requests, at: place)
        }

        mutating func content(_ value: Referenced<OpenAPI.Content>, at place: String) -> OpenAPI.Content? {
            follow(value, through: contents, at: place)
        }

        mutating func example(_ value: Referenced<OpenAPI.Example>, at place: String) -> OpenAPI.Example? {
            follow(value, through: examples, at: place)
        }

        mutating func securityScheme(_ reference: JSONReference<OpenAPI.SecurityScheme>, at place: String) -> OpenAPI.SecurityScheme? {
            follow(.a(OpenAPI.Reference(reference)), through: securitySchemes, at: place)
        }

        mutating func pathItem(_ value: Either<OpenAPI.Reference<OpenAPI.PathItem>, OpenAPI.PathItem>, at place: String) -> OpenAPI.PathItem? {
            switch value {
            case .b(let item):
                return item
            case .a(let reference):
                guard let item = Self.componentName(reference.jsonReference).flatMap({ pathItems[$0] }) else {
                    return broken(reference.absoluteString, at: place)
                }
                return item
            }
        }

        /// A parameter's schema, its reference followed.
        mutating func schema(_ value: Either<OpenAPI.Reference<JSONSchema>, JSONSchema>, at place: String) -> JSONSchema? {
            switch value {
            case .b(let schema): return target(of: schema, at: place)
            case .a(let reference): return target(of: JSONSchema.reference(reference.jsonReference), at: place)
            }
        }

        /// The schema itself, or what its chain of `$ref`s ends at; `nil` when a reference names
        /// nothing or the chain goes round.
        mutating func target(of schema: JSONSchema, at place: String) -> JSONSchema? {
            var current = schema
            var seen: Set<String> = []
            while case .reference(let reference, _) = current.value {
                guard let name = Self.componentName(reference), let next = schemas[name] else {
                    return broken(reference.absoluteString, at: place)
                }
                guard seen.insert(name).inserted else { return nil }
                current = next
            }
            return current
        }

        /// The component a schema's `$ref` names (its name and schema), without following further.
        mutating func referencedSchema(_ reference: JSONReference<JSONSchema>, at place: String) -> (name: String, schema: JSONSchema)? {
            guard let name = Self.componentName(reference), let schema = schemas[name] else {
                return broken(reference.absoluteString, at: place)
            }
            return (name, schema)
        }

        private mutating func follow<T>(_ value: Referenced<T>, through table: [String: Referenced<T>], at place: String) -> T? {
            var current = value
            var seen: Set<String> = []
            while true {
                switch current {
                case .b(let found):
                    return found
                case .a(let reference):
                    guard let name = Self.componentName(reference.jsonReference), let next = table[name] else {
                        return broken(reference.absoluteString, at: place)
                    }
                    guard seen.insert(name).inserted else { return broken(reference.absoluteString, at: place) }
                    current = next
                }
            }
        }

        private mutating func broken<T>(_ reference: String, at place: String) -> T? {
            if warned.insert(reference).inserted {
                warnings.append("The $ref \(reference) (first used by \(place)) names nothing the document holds; what uses it is left out.")
            }
            return nil
        }
    }
}
