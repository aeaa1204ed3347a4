import Foundation
import NetworkingCore

/// A document is never given up for one value: no malformed schema, example or security
/// entry is needed to build an endpoint, so each costs only itself, with a warning that names
/// its JSON pointer and what was kept.
///
/// `mendingValues` rewrites, before endpoints are read, the values public documents are known
/// to get wrong (a `security` that is `null`, an `enum` with a number among strings, `items`
/// that is a list, a `type` that is `null` or a list, an integer bound out of range); anything
/// else an endpoint does not read is never looked at, and what it reads is read for what it is
/// (`Samples`), so no other value can stop the import.
extension OpenAPIImporter {
    /// Keys under which a value is data, not description: never rewritten.
    private static let dataKeys: Set<String> = ["example", "examples", "default", "const", "enum"]

    /// The JSON pointer of a path of keys (`~` and `/` escaped as RFC 6901 says).
    static func pointer(_ keys: [String]) -> String {
        keys.isEmpty
            ? "/"
            : keys.map { key in
                guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
                    return "/" + key
                }
                return "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }.joined()
    }

    /// Rewrites the values public documents are known to get wrong, each with a warning.
    ///
    /// - Parameters:
    ///   - tree: the document.
    ///   - isVersion30: whether it is OpenAPI 3.0 (where `type` is one name and `nullable` says
    ///     null is allowed) rather than 3.1.
    ///   - path: the document's path, for the warnings.
    static func mendingValues(_ tree: inout JSONValue, isVersion30: Bool, path: String, warnings: inout [String]) {
        var found: [String] = []
        mend(&tree, keys: [], isVersion30: isVersion30, found: &found)
        let shown = found.prefix(20)
        for line in shown { warnings.append("\(path)#\(line)") }
        if found.count > shown.count {
            warnings.append("\(path): \(found.count - shown.count) more values like these were mended the same way.")
        }
    }

    private static func mend(_ value: inout JSONValue, keys: [String], isVersion30: Bool, found: inout [String]) {
        switch value {
        case .array(var elements):
            for index in elements.indices {
                mend(&elements[index], keys: keys + [String(index)], isVersion30: isVersion30, found: &found)
            }
            value = .array(elements)
        case .object(var members):
            mendObject(&members, keys: keys, isVersion30: isVersion30, found: &found)
            for index in members.indices
            where !dataKeys.contains(members[index].key) && !members[index].key.hasPrefix("x-") {
                mend(&members[index].value, keys: keys + [members[index].key], isVersion30: isVersion30, found: &found)
            }
            value = .object(members)
        default:
            break
        }
    }

    /// The members of one object mended in place.
    private static func mendObject(
        _ members: inout [(key: String, value: JSONValue)], keys: [String], isVersion30: Bool, found: inout [String]
    ) {
        func index(_ key: String) -> Int? { members.firstIndex { $0.key == key } }
        // Written only with a warning: most objects have nothing to mend.
        var here: String { pointer(keys) }
        let isOperationOrRoot = keys.isEmpty || (keys.count == 3 && keys[0] == "paths")
        let inProperties = keys.last == "properties" || keys.last == "patternProperties"
        // security: a list of requirements, each a mapping of scheme names to lists of scopes.
        if isOperationOrRoot, let at = index("security") {
            switch members[at].value {
            case .array(let requirements):
                let kept = requirements.compactMap { requirement -> JSONValue? in
                    guard case .object(let schemes) = requirement else { return nil }
                    return .object(schemes.map { ($0.key, $0.value.isArray ? $0.value : .array([])) })
                }
                if kept.count != requirements.count || kept != requirements {
                    found.append(
                        "\(pointer(keys + ["security"])): security requirements that are not mappings of scheme names "
                            + "to scope lists were dropped; \(kept.count) kept."
                    )
                    members[at].value = .array(kept)
                }
            default:
                found.append(
                    "\(pointer(keys + ["security"])): `security` is \(members[at].value.kind), "
                        + "not a list; no security requirement is read here."
                )
                members.remove(at: at)
            }
        }
        // info.version: text (YAML reads `version: 1.0` as a number).
        if keys == ["info"], let at = index("version"), case .number(let text) = members[at].value {
            members[at].value = .string(text)
        }
        guard !inProperties else { return }
        // type: one name (3.0), or a list of names (3.1).
        if let at = index("type") {
            switch members[at].value {
            case .null:
                found.append("\(here)/type: `type` is null; the schema is read without a type.")
                members.remove(at: at)
            case .array(let names):
                let strings = names.compactMap(\.stringValue)
                let nonNull = strings.filter { $0 != "null" }
                if isVersion30 || strings.count != names.count {
                    if let first = nonNull.first {
                        members[at].value = .string(first)
                        if strings.contains("null"), index("nullable") == nil {
                            members.append(("nullable", .bool(true)))
                        }
                        found.append(
                            "\(here)/type: `type` is a list; "
                                + "read as \"\(first)\"\(strings.contains("null") ? " that may be null" : "")."
                        )
                    } else {
                        members.remove(at: at)
                        found.append(
                            "\(here)/type: `type` is a list with no type in it; the schema is read without a type.")
                    }
                }
            case .string, .object:
                break
            default:
                found.append("\(here)/type: `type` is \(members[at].value.kind); the schema is read without a type.")
                members.remove(at: at)
            }
        }
        let type = index("type").flatMap { members[$0].value.stringValue }
        // items: one schema (a list of schemas is JSON Schema's old tuple form).
        if let at = index("items"), case .array(let schemas) = members[at].value {
            let first = schemas.first { $0.objectValue != nil } ?? .object([])
            members[at].value = first
            found.append("\(here)/items: `items` is a list of \(schemas.count) schemas; the first is kept.")
        }
        // enum: values of the schema's type.
        if let at = index("enum"), case .array(let values) = members[at].value {
            switch type {
            case "string":
                if values.contains(where: { $0.stringValue == nil && $0 != .null }) {
                    members[at].value = .array(
                        values.map { value in
                            switch value {
                            case .number(let text): return .string(text)
                            case .bool(let flag): return .string(flag ? "true" : "false")
                            default: return value
                            }
                        })
                    found.append("\(here)/enum: an `enum` of text holds numbers or booleans; they are read as text.")
                }
            case "integer", "number":
                let kept = values.filter { if case .number = $0 { return true } else { return $0 == .null } }
                if kept.count != values.count {
                    members[at].value = .array(kept)
                    found.append(
                        "\(here)/enum: an `enum` of numbers holds other values; \(kept.count) of \(values.count) kept.")
                }
            default:
                break
            }
        } else if let at = index("enum"), !members[at].value.isArray {
            found.append("\(here)/enum: `enum` is \(members[at].value.kind), not a list; dropped.")
            members.remove(at: at)
        }
        // exclusiveMinimum/Maximum: a flag beside the bound in 3.0, the bound itself in 3.1.
        for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard let at = index(exclusive) else { continue }
            switch (members[at].value, isVersion30) {
            case (.bool(let flag), false):
                if flag, let boundAt = index(bound) {
                    members[at].value = members[boundAt].value
                    members.remove(at: boundAt)
                } else {
                    members.remove(at: at)
                }
                found.append(
                    "\(here)/\(exclusive): `\(exclusive)` is a flag, as in OpenAPI 3.0; read as OpenAPI 3.1 says.")
            case (.number(let value), true):
                members[at].value = .bool(true)
                if index(bound) == nil { members.append((bound, .number(value))) }
                found.append(
                    "\(here)/\(exclusive): `\(exclusive)` is a number, as in OpenAPI 3.1; read as OpenAPI 3.0 says.")
            default:
                break
            }
        }
        // Bounds an integer schema reads as Int.
        if type == "integer" {
            for key in ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] {
                guard let at = index(key), case .number(let text) = members[at].value, Int(text) == nil else {
                    continue
                }
                if let value = Double(text), value == value.rounded(), abs(value) < 9.2e18 {
                    members[at].value = .number(String(Int(value)))
                } else {
                    found.append("\(here)/\(key): \(text) is not an integer this importer can hold; `\(key)` dropped.")
                    members.remove(at: at)
                }
            }
        }
    }
}

extension JSONValue {
    /// Whether this is an array.
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    /// What kind of value this is, in words: `null`, `a number` …
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "text"
        case .array: return "a list"
        case .object: return "a mapping"
        }
    }
}
