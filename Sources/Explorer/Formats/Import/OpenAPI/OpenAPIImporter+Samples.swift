import Foundation
import NetworkingCore

extension OpenAPIImporter {
    /// The sample values an endpoint is built with: parameter values and request bodies from the
    /// document's examples, defaults and enums, else a skeleton of the schema. References are
    /// followed as the values are built (`ComponentLookup`), so a schema is read only as deep as
    /// the skeleton goes, and one that contains itself stops where it recurs.
    ///
    /// Schemas are read as OpenAPI 3.1 reads them (JSON Schema), and as OpenAPIKit did: `$ref`
    /// first, then `allOf`, `anyOf`, `oneOf`, `not`, then the first `type` other than `null`,
    /// else the type the keywords belong to (`properties` an object, `items` an array …).
    struct Samples {
        var lookup: ComponentLookup
        /// Whether the document is OpenAPI 3.0 (or Swagger 2.0, read as 3.0).
        let isVersion30: Bool
        /// The operation being built, for the warnings.
        var place = ""
        /// The schemas found containing themselves.
        private(set) var recurring: Set<String> = []
        /// The schema references being expanded, outermost first.
        private var expanding: [String] = []
        /// The values a body's skeleton may still hold (`maximumValues` for each body).
        private var budget = 0
        /// The operations whose skeleton was cut at `maximumValues`.
        private(set) var cut: [String] = []

        /// Properties an object skeleton lists at most, and how deep a skeleton goes.
        static let maximumProperties = 60
        static let maximumDepth = 8
        /// Values a skeleton holds at most: objects that each name other large objects grow
        /// as their width to the power of the depth (a document can make one of 60^8 values).
        static let maximumValues = 5_000

        init(lookup: ComponentLookup, isVersion30: Bool) {
            self.lookup = lookup
            self.isVersion30 = isVersion30
        }

        /// The body content explorer sends: the first JSON one, else the first.
        mutating func preferredContent(_ map: JSONValue?) -> (type: String, content: JSONValue)? {
            guard case .object(let members)? = map else { return nil }
            let json = members.first { $0.key.lowercased().contains("json") }
            for candidate in [json, members.first].compactMap({ $0 }) {
                if let content = lookup.resolved(candidate.value, at: place), case .object = content {
                    return (candidate.key, content)
                }
            }
            return nil
        }

        /// A media type's example: its first named example, else `example`, else a skeleton of
        /// its schema.
        mutating func example(of content: JSONValue) -> JSONValue? {
            if let value = firstExample(content["examples"]) { return value }
            if let example = content["example"], example != .null { return example }
            guard let schema = content["schema"] else { return nil }
            budget = Self.maximumValues
            let value = skeleton(schema, depth: 0)
            if budget < 0 { cut.append(place) }
            return value
        }

        /// The value of the first of named examples, in the document's order.
        mutating func firstExample(_ examples: JSONValue?) -> JSONValue? {
            guard case .object(let members)? = examples else { return nil }
            for member in members {
                guard let example = lookup.resolved(member.value, at: place) else { continue }
                if let value = example["dataValue"] ?? example["value"], value != .null { return value }
            }
            return nil
        }

        /// A parameter's value: its first named example, its example, else its schema's example,
        /// default or first allowed value. `nil` for one described by `content`.
        mutating func sample(of parameter: JSONValue) -> String? {
            guard let schemaValue = parameter["schema"] else { return nil }
            if let value = firstExample(parameter["examples"]) { return OpenAPIImporter.flat(value) }
            if let example = parameter["example"], example != .null { return OpenAPIImporter.flat(example) }
            guard let schema = lookup.resolved(schemaValue, at: place) else { return nil }
            let core = Core(schema, isVersion30: isVersion30)
            if let value = core.examples.first ?? core.defaultValue { return OpenAPIImporter.flat(value) }
            if let value = core.allowedValues.first { return OpenAPIImporter.flat(value) }
            return nil
        }

        /// A sample value for a schema: its example, default or first allowed value, else a
        /// placeholder of its type (objects list their writable properties).
        mutating func skeleton(_ schema: JSONValue, depth: Int) -> JSONValue {
            if let reference = ComponentLookup.reference(in: schema) {
                guard let target = lookup.referenced(reference, at: place) else { return .null }
                if expanding.contains(reference) {
                    recurring.insert(ComponentLookup.name(of: reference))
                    return .null
                }
                expanding.append(reference)
                defer { expanding.removeLast() }
                return skeleton(target, depth: depth)
            }
            let core = Core(schema, isVersion30: isVersion30)
            if let value = core.examples.first ?? core.defaultValue { return value }
            if let value = core.allowedValues.first { return value }
            budget -= 1
            guard depth < Self.maximumDepth, budget >= 0 else { return .null }
            switch Kind(schema) {
            case .null, .fragment, .not:
                return .null
            case .boolean:
                return .bool(false)
            case .number:
                return .number("0")
            case .string:
                switch core.format {
                case "date-time": return .string("2024-01-01T00:00:00Z")
                case "date": return .string("2024-01-01")
                case "uuid": return .string("00000000-0000-0000-0000-000000000000")
                case "email": return .string("user@example.com")
                case "uri", "url": return .string("https://example.com")
                default: return .string("")
                }
            case .array:
                guard let items = schema["items"], case .object = items else { return .array([]) }
                return .array([skeleton(items, depth: depth + 1)])
            case .object:
                var members: [(key: String, value: JSONValue)] = []
                for property in schema["properties"]?.members ?? [] {
                    guard members.count < Self.maximumProperties else { break }
                    let target = lookup.resolved(property.value, at: place) ?? property.value
                    if Core(target, isVersion30: isVersion30).readOnly { continue }
                    members.append((property.key, skeleton(property.value, depth: depth + 1)))
                }
                // A required name the schema describes no property for still has to be sent.
                for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
                where members.count < Self.maximumProperties && schema["properties"]?[name] == nil
                    && !members.contains(where: { $0.key == name })
                {
                    members.append((name, .null))
                }
                return .object(members)
            case .all(let parts):
                var pairs: [(key: String, value: JSONValue)] = []
                var first: JSONValue?
                for part in parts {
                    let value = skeleton(part, depth: depth + 1)
                    if first == nil { first = value }
                    guard case .object(let more) = value else { continue }
                    for pair in more where !pairs.contains(where: { $0.key == pair.key }) { pairs.append(pair) }
                }
                return pairs.isEmpty ? (first ?? .null) : .object(pairs)
            case .choice(let parts):
                let nonNull = parts.first { part in
                    guard let target = lookup.resolved(part, at: place) else { return true }
                    if case .null = Kind(target) { return false }
                    return true
                }
                return (nonNull ?? parts.first).map { skeleton($0, depth: depth + 1) } ?? .null
            }
        }
    }

    /// What a schema is, read as OpenAPIKit reads it.
    enum Kind {
        case all([JSONValue])
        case choice([JSONValue])
        case not
        case null, number, string, array, object, boolean, fragment

        private static let numberKeys: Set<String> = [
            "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        ]
        private static let stringKeys: Set<String> = [
            "maxLength", "minLength", "pattern", "contentMediaType", "contentEncoding",
        ]
        private static let arrayKeys: Set<String> = ["items", "maxItems", "minItems", "uniqueItems", "prefixItems"]
        private static let objectKeys: Set<String> = [
            "maxProperties", "minProperties", "properties", "patternProperties", "additionalProperties", "required",
        ]

        init(_ schema: JSONValue) {
            guard case .object(let members) = schema else {
                self = .fragment
                return
            }
            func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
            if let parts = value("allOf")?.arrayValue {
                self = .all(parts)
                return
            }
            if let parts = value("anyOf")?.arrayValue {
                self = .choice(parts)
                return
            }
            if let parts = value("oneOf")?.arrayValue {
                self = .choice(parts)
                return
            }
            if value("not") != nil {
                self = .not
                return
            }
            let type: String?
            switch value("type") {
            case .string(let name)?: type = name
            case .array(let names)?: type = names.compactMap(\.stringValue).first { $0 != "null" }
            default: type = nil
            }
            func has(_ keys: Set<String>) -> Bool { members.contains { keys.contains($0.key) } }
            switch type {
            case "null": self = .null
            case "integer", "number": self = .number
            case nil where has(Self.numberKeys): self = .number
            case "string": self = .string
            case nil where has(Self.stringKeys): self = .string
            case "array": self = .array
            case nil where has(Self.arrayKeys): self = .array
            case "object": self = .object
            case nil where has(Self.objectKeys): self = .object
            case "boolean": self = .boolean
            default: self = .fragment
            }
        }
    }

    /// What a schema says of its values whatever its type: its examples (`example` first, as
    /// OpenAPI 3.0 writes one), default, allowed values (`enum`, else `const`), format and
    /// whether it is read-only.
    struct Core {
        let examples: [JSONValue]
        let defaultValue: JSONValue?
        let allowedValues: [JSONValue]
        let format: String?
        let readOnly: Bool

        init(_ schema: JSONValue, isVersion30: Bool) {
            guard case .object(let members) = schema else {
                (examples, defaultValue, allowedValues, format, readOnly) = ([], nil, [], nil, false)
                return
            }
            func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
            // A null `example` or `default` is none (as OpenAPI 3.0 reads them; in 3.1 a null
            // example is one).
            func present(_ value: JSONValue?) -> JSONValue? {
                if case .null? = value { return Optional<JSONValue>.none }
                return value
            }
            if let example = isVersion30 ? present(value("example")) : value("example") {
                examples = [example]
            } else {
                examples = value("examples")?.arrayValue ?? []
            }
            defaultValue = present(value("default"))
            if let values = value("enum")?.arrayValue {
                allowedValues = values
            } else {
                allowedValues = value("const").flatMap { $0 == .null ? nil : [$0] } ?? []
            }
            format = value("format")?.stringValue
            readOnly = value("readOnly")?.boolValue ?? false
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
