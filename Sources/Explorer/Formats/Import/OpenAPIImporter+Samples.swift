import Foundation
import NetworkingCore
import OpenAPIKit

extension OpenAPIImporter {
    /// The sample values an endpoint is built with: parameter values and request bodies from the
    /// document's examples, defaults and enums, else a skeleton of the schema. References are
    /// followed as the values are built (`ComponentLookup`), so a schema is read only as deep as
    /// the skeleton goes, and one that contains itself stops where it recurs.
    struct Samples {
        var lookup: ComponentLookup
        let orders: MemberOrders
        /// The operation being built, for the warnings.
        var place = ""
        /// The schemas found containing themselves.
        private(set) var recurring: Set<String> = []
        /// The schema components being expanded, outermost first.
        private var expanding: [String] = []

        /// Properties an object skeleton lists at most, and how deep a skeleton goes.
        static let maximumProperties = 60
        static let maximumDepth = 8

        init(lookup: ComponentLookup, orders: MemberOrders) {
            self.lookup = lookup
            self.orders = orders
        }

        /// The body content explorer sends: the first JSON one, else the first.
        mutating func preferredContent(_ map: OpenAPI.Content.Map) -> (OpenAPI.ContentType, OpenAPI.Content)? {
            let json = map.first { $0.key.rawValue.lowercased().contains("json") }
            for candidate in [json, map.first].compactMap({ $0 }) {
                if let content = lookup.content(candidate.value, at: place) { return (candidate.key, content) }
            }
            return nil
        }

        mutating func example(of content: OpenAPI.Content) -> JSONValue? {
            if let value = firstExample(content.examples) { return value }
            if let example = content.example.flatMap(jsonValue) { return example }
            guard let schema = content.schema else { return nil }
            return skeleton(schema, depth: 0)
        }

        /// The value of the first of named examples, in the document's order (decoded, they come
        /// in the process's hash order: Twilio's `Fields` took a different one at each import).
        mutating func firstExample(_ examples: OpenAPI.Example.Map?) -> JSONValue? {
            guard let examples, !examples.isEmpty else { return nil }
            let pairs = examples.map { (key: $0.key, value: $0.value) }
            for pair in orders.ordered(pairs, among: pairs.map(\.key)) {
                if let value = lookup.example(pair.value, at: place)?.dataOrLegacyValue.flatMap(jsonValue) { return value }
            }
            return nil
        }

        mutating func sample(of parameter: OpenAPI.Parameter) -> String? {
            guard let context = parameter.schemaOrContent.a else { return nil }
            // Named examples first: OpenAPIKit fills `example` with one of them, not the first.
            if let value = firstExample(context.examples) { return OpenAPIImporter.flat(value) }
            if let example = context.example.flatMap(jsonValue) { return OpenAPIImporter.flat(example) }
            guard let schema = lookup.schema(context.schema, at: place) else { return nil }
            if let value = (schema.examples.first ?? schema.defaultValue).flatMap(jsonValue) { return OpenAPIImporter.flat(value) }
            if let value = schema.allowedValues?.first.flatMap(jsonValue) { return OpenAPIImporter.flat(value) }
            return nil
        }

        /// A sample value for a schema: its example, default or first allowed value, else a
        /// placeholder of its type (objects list their writable properties).
        mutating func skeleton(_ schema: JSONSchema, depth: Int) -> JSONValue {
            if case .reference(let reference, _) = schema.value {
                guard let (name, target) = lookup.referencedSchema(reference, at: place) else { return .null }
                if expanding.contains(name) {
                    recurring.insert(name)
                    return .null
                }
                expanding.append(name)
                defer { expanding.removeLast() }
                return skeleton(target, depth: depth)
            }
            let core = schema.coreContext
            if let value = (core.examples.first ?? core.defaultValue).flatMap(jsonValue) { return value }
            if let value = core.allowedValues?.first.flatMap(jsonValue) { return value }
            guard depth < Self.maximumDepth else { return .null }
            switch schema.value {
            case .null, .fragment, .not, .reference:
                return .null
            case .boolean:
                return .bool(false)
            case .integer, .number:
                return .number("0")
            case .string:
                switch core.formatString {
                case "date-time": return .string("2024-01-01T00:00:00Z")
                case "date": return .string("2024-01-01")
                case "uuid": return .string("00000000-0000-0000-0000-000000000000")
                case "email": return .string("user@example.com")
                case "uri", "url": return .string("https://example.com")
                default: return .string("")
                }
            case .array(_, let context):
                guard let items = context.items else { return .array([]) }
                return .array([skeleton(items, depth: depth + 1)])
            case .object(_, let context):
                let writable = context.properties
                    .filter { !(lookup.target(of: $0.value, at: place) ?? $0.value).coreContext.readOnly }
                    .map { (key: $0.key, value: $0.value) }
                var members: [(key: String, value: JSONValue)] = []
                for property in orders.ordered(writable, among: Array(context.properties.keys)).prefix(Self.maximumProperties) {
                    members.append((property.key, skeleton(property.value, depth: depth + 1)))
                }
                return .object(members)
            case .all(let schemas, _):
                var pairs: [(key: String, value: JSONValue)] = []
                var first: JSONValue?
                for part in schemas {
                    let value = skeleton(part, depth: depth + 1)
                    if first == nil { first = value }
                    guard case .object(let more) = value else { continue }
                    for pair in more where !pairs.contains(where: { $0.key == pair.key }) { pairs.append(pair) }
                }
                return pairs.isEmpty ? (first ?? .null) : .object(pairs)
            case .one(let schemas, _), .any(let schemas, _):
                let nonNull = schemas.first { part in
                    if case .null? = lookup.target(of: part, at: place)?.value { return false }
                    return true
                }
                return (nonNull ?? schemas.first).map { skeleton($0, depth: depth + 1) } ?? .null
            }
        }

        /// An example or default as a JSON value, its objects' members in the document's order.
        func jsonValue(_ value: AnyCodable) -> JSONValue? {
            guard let data = try? JSONEncoder().encode(value), let parsed = try? JSONValue(parsing: data) else { return nil }
            return orders.reordered(parsed)
        }
    }

    /// A JSON value written as a parameter or form value.
    static func flat(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        default: return value.serialized()
        }
    }
}
