import Contract
import NetworkingCore

/// Examples for a response: the document's own (named `examples`, `example`, the schema's
/// `example`/`examples`), or one generated from the schema.
///
/// Generation is deterministic (the same schema gives the same value) and aims at a value the
/// schema accepts: `$ref`s followed, `allOf` merged, the first of `oneOf`/`anyOf`, `enum` and
/// `const` first values, every `required` and declared property, `minItems` items (at least
/// one), the common string formats, numbers inside `minimum`/`maximum`/`multipleOf`, strings of
/// `minLength` (65,536 characters at most). A `pattern` is not solved: a string is `"string"`
/// padded to its length bounds (the tests check the generated values against their schemas with
/// the Contract engine).
package enum MockExample {
    /// The named examples of a media type object (`examples`: `value`, or a `$ref` to
    /// `#/components/examples/…`), in the document's order.
    package static func named(in media: JSONValue, document: JSONValue) -> [(name: String, value: JSONValue)] {
        (media["examples"]?.members ?? []).compactMap { member in
            let example = dereferenced(member.value, in: document)
            return example["value"].map { (member.key, $0) }
        }
    }

    /// The example of a media type: `example=name` when named, else its first named example,
    /// its `example`, the schema's `example` or first `examples`, else one generated from the schema.
    ///
    /// - Returns: the value and the name of the example it came from (`nil` when generated or unnamed).
    package static func value(for media: JSONValue, named name: String?, document: JSONValue, dialect: SchemaDialect)
        -> (value: JSONValue, name: String?)?
    {
        let examples = named(in: media, document: document)
        if let name {
            guard let found = examples.first(where: { $0.name == name }) else { return nil }
            return (found.value, found.name)
        }
        if let first = examples.first { return (first.value, first.name) }
        if let example = media["example"] { return (example, nil) }
        guard let schema = media["schema"] else { return (.null, nil) }
        let resolved = dereferenced(schema, in: document)
        if let example = resolved["example"] { return (example, nil) }
        if dialect != .openAPI30, let first = resolved["examples"]?.arrayValue?.first { return (first, nil) }
        return (generated(from: schema, document: document), nil)
    }

    /// A value generated from a schema (see the type's comment).
    package static func generated(from schema: JSONValue, document: JSONValue) -> JSONValue {
        var generator = Generator(document: document)
        return generator.value(schema, depth: 0)
    }

    /// Follows `$ref`s to the document's own objects, at most a few times.
    static func dereferenced(_ value: JSONValue, in document: JSONValue) -> JSONValue {
        var current = value
        for _ in 0..<8 {
            guard let reference = current["$ref"]?.stringValue, reference.hasPrefix("#"),
                let target = JSONPointer.resolve(String(reference.dropFirst()), in: document)
            else { return current }
            current = target
        }
        return current
    }

    private struct Generator {
        let document: JSONValue
        static let maximumDepth = 12
        /// The longest string generated: a `minLength` beyond it is not met.
        static let stringLimit = 65_536

        mutating func value(_ schemaValue: JSONValue, depth: Int) -> JSONValue {
            let schema = MockExample.dereferenced(schemaValue, in: document)
            if case .bool = schema { return .null }
            if let constant = schema["const"] { return constant }
            if let first = schema["enum"]?.arrayValue?.first { return first }
            if let example = schema["example"] { return example }
            if let example = schema["examples"]?.arrayValue?.first { return example }
            if let all = schema["allOf"]?.arrayValue, !all.isEmpty {
                return merged(
                    all.map { MockExample.dereferenced($0, in: document) } + [schema.removing("allOf")], depth: depth)
            }
            if let choice = (schema["oneOf"] ?? schema["anyOf"])?.arrayValue?.first {
                return value(choice, depth: depth + 1)
            }
            switch type(of: schema) {
            case "object": return object(schema, depth: depth)
            case "array":
                guard depth < Self.maximumDepth, let items = schema["items"] ?? schema["prefixItems"]?.arrayValue?.first
                else { return .array([]) }
                let count = max(schema["minItems"]?.intValue ?? 1, 1)
                guard count <= (schema["maxItems"]?.intValue ?? Int.max) else { return .array([]) }
                let item = value(items, depth: depth + 1)
                if schema["uniqueItems"]?.boolValue == true, count > 1 { return .array([item]) }
                return .array(Array(repeating: item, count: min(count, 100)))
            case "integer":
                // A bound past Int's range (`minimum: 1e30`) is written as the number it is.
                let chosen = number(schema, integer: true)
                return .number(Int(exactly: chosen).map(String.init) ?? String(chosen))
            case "number": return .number(String(number(schema, integer: false)))
            case "boolean": return .bool(true)
            case "null": return .null
            default: return .string(string(schema))
            }
        }

        /// The type a schema names, the first that is not `null`; guessed from its keywords when none.
        func type(of schema: JSONValue) -> String {
            if let name = schema["type"]?.stringValue { return name }
            if let names = schema["type"]?.arrayValue?.compactMap(\.stringValue) {
                return names.first { $0 != "null" } ?? "null"
            }
            if schema["properties"] != nil || schema["additionalProperties"] != nil || schema["required"] != nil {
                return "object"
            }
            if schema["items"] != nil { return "array" }
            if schema["minimum"] != nil || schema["maximum"] != nil { return "number" }
            return "string"
        }

        mutating func object(_ schema: JSONValue, depth: Int) -> JSONValue {
            guard depth < Self.maximumDepth else { return .object([]) }
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            var members: [(key: String, value: JSONValue)] = []
            for property in schema["properties"]?.members ?? [] {
                // Deep down, only what is required (recursive schemas end).
                if depth > 4 && !required.contains(property.key) { continue }
                members.append((property.key, value(property.value, depth: depth + 1)))
            }
            for name in required.sorted() where !members.contains(where: { $0.key == name }) {
                members.append((name, .string("string")))
            }
            return .object(members)
        }

        /// The members of several object schemas merged (`allOf`).
        mutating func merged(_ schemas: [JSONValue], depth: Int) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            var other: JSONValue?
            for schema in schemas {
                let part = value(schema, depth: depth + 1)
                if let partMembers = part.members {
                    for member in partMembers {
                        if let index = members.firstIndex(where: { $0.key == member.key }) {
                            members[index] = member
                        } else {
                            members.append(member)
                        }
                    }
                } else if other == nil, schema.members?.isEmpty == false {
                    other = part
                }
            }
            return members.isEmpty ? (other ?? .object([])) : .object(members)
        }

        func number(_ schema: JSONValue, integer: Bool) -> Double {
            var low = schema["minimum"]?.numberValue
            var high = schema["maximum"]?.numberValue
            if let exclusive = schema["exclusiveMinimum"]?.numberValue { low = exclusive + (integer ? 1 : 0.5) }
            if schema["exclusiveMinimum"]?.boolValue == true, let minimum = low { low = minimum + (integer ? 1 : 0.5) }
            if let exclusive = schema["exclusiveMaximum"]?.numberValue { high = exclusive - (integer ? 1 : 0.5) }
            if schema["exclusiveMaximum"]?.boolValue == true, let maximum = high {
                high = maximum - (integer ? 1 : 0.5)
            }
            var chosen = low ?? min(high ?? 1, 1)
            if integer { chosen = chosen.rounded(.up) }
            if let step = schema["multipleOf"]?.numberValue, step > 0 { chosen = (chosen / step).rounded(.up) * step }
            return chosen
        }

        func string(_ schema: JSONValue) -> String {
            var text: String
            switch schema["format"]?.stringValue {
            case "date-time": text = "2024-01-01T00:00:00Z"
            case "date": text = "2024-01-01"
            case "time": text = "00:00:00Z"
            case "email": text = "user@example.com"
            case "uuid": text = "00000000-0000-4000-8000-000000000000"
            case "uri", "url": text = "https://example.com/"
            case "hostname": text = "example.com"
            case "ipv4": text = "192.0.2.1"
            case "ipv6": text = "2001:db8::1"
            case "byte": text = "c3RyaW5n"
            default: text = "string"
            }
            // At most `stringLimit` characters, whatever the document's `minLength`.
            let minimum = min(schema["minLength"]?.intValue ?? 0, Self.stringLimit)
            if text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
            if let maximum = schema["maxLength"]?.intValue, text.count > maximum { text = String(text.prefix(maximum)) }
            return text
        }
    }
}

extension JSONValue {
    /// The object without one member.
    func removing(_ key: String) -> JSONValue {
        guard let members else { return self }
        return .object(members.filter { $0.key != key })
    }
}
