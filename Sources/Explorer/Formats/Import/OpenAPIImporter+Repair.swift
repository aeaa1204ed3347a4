import Foundation
import NetworkingCore
import OpenAPIKit

/// A document is never given up for one value: no malformed schema, example or security
/// entry is needed to build an endpoint, so each costs only itself, with a warning that names
/// its JSON pointer and what was kept.
///
/// Two passes: `mendingValues` rewrites, before decoding, the values public documents are
/// known to get wrong (a `security` that is `null`, an `enum` with a number among strings,
/// `items` that is a list, a `type` that is `null` or a list, an integer bound out of range);
/// then each error OpenAPIKit still reports drops the smallest part around its coding path
/// that may go (`droppingFailure`), and the document is decoded again.
extension OpenAPIImporter {
    /// How many values OpenAPIKit's errors may drop before the document is refused.
    static let maximumDroppedValues = 40

    /// Keys under which a value is data, not description: never rewritten.
    private static let dataKeys: Set<String> = ["example", "examples", "default", "const", "enum"]

    /// The JSON pointer of a path of keys (`~` and `/` escaped as RFC 6901 says).
    static func pointer(_ keys: [String]) -> String {
        keys.isEmpty ? "/" : keys.map { key in
            guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return "/" + key }
            return "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }.joined()
    }

    // MARK: - Before decoding

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
        if found.count > shown.count { warnings.append("\(path): \(found.count - shown.count) more values like these were mended the same way.") }
    }

    private static func mend(_ value: inout JSONValue, keys: [String], isVersion30: Bool, found: inout [String]) {
        switch value {
        case .array(var elements):
            for index in elements.indices { mend(&elements[index], keys: keys + [String(index)], isVersion30: isVersion30, found: &found) }
            value = .array(elements)
        case .object(var members):
            mendObject(&members, keys: keys, isVersion30: isVersion30, found: &found)
            for index in members.indices where !dataKeys.contains(members[index].key) && !members[index].key.hasPrefix("x-") {
                mend(&members[index].value, keys: keys + [members[index].key], isVersion30: isVersion30, found: &found)
            }
            value = .object(members)
        default:
            break
        }
    }

    /// The members of one object mended in place.
    private static func mendObject(_ members: inout [(key: String, value: JSONValue)], keys: [String], isVersion30: Bool, found: inout [String]) {
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
                    found.append("\(pointer(keys + ["security"])): security requirements that are not mappings of scheme names to scope lists were dropped; \(kept.count) kept.")
                    members[at].value = .array(kept)
                }
            default:
                found.append("\(pointer(keys + ["security"])): `security` is \(members[at].value.kind), not a list; no security requirement is read here.")
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
                        if strings.contains("null"), index("nullable") == nil { members.append(("nullable", .bool(true))) }
                        found.append("\(here)/type: `type` is a list; read as \"\(first)\"\(strings.contains("null") ? " that may be null" : "").")
                    } else {
                        members.remove(at: at)
                        found.append("\(here)/type: `type` is a list with no type in it; the schema is read without a type.")
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
                    members[at].value = .array(values.map { value in
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
                    found.append("\(here)/enum: an `enum` of numbers holds other values; \(kept.count) of \(values.count) kept.")
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
                found.append("\(here)/\(exclusive): `\(exclusive)` is a flag, as in OpenAPI 3.0; read as OpenAPI 3.1 says.")
            case (.number(let value), true):
                members[at].value = .bool(true)
                if index(bound) == nil { members.append((bound, .number(value))) }
                found.append("\(here)/\(exclusive): `\(exclusive)` is a number, as in OpenAPI 3.1; read as OpenAPI 3.0 says.")
            default:
                break
            }
        }
        // Bounds an integer schema reads as Int.
        if type == "integer" {
            for key in ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] {
                guard let at = index(key), case .number(let text) = members[at].value, Int(text) == nil else { continue }
                if let value = Double(text), value == value.rounded(), abs(value) < 9.2e18 {
                    members[at].value = .number(String(Int(value)))
                } else {
                    found.append("\(here)/\(key): \(text) is not an integer this importer can hold; `\(key)` dropped.")
                    members.remove(at: at)
                }
            }
        }
    }

    // MARK: - After an error

    /// Drops the smallest part around an OpenAPIKit error's coding path that may go: an example,
    /// a default, a security requirement, a schema (read as any value), a parameter, a request
    /// body, an operation, a path item, a component.
    ///
    /// - Returns: the warning to give, or nil when nothing there may go.
    static func droppingFailure(_ error: Error, in tree: inout JSONValue, path: String) -> String? {
        let failure = OpenAPIKit.OpenAPI.Error(from: error)
        let keys = failure.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        guard let (prefix, action) = droppable(keys, in: tree) else { return nil }
        let reason = failure.localizedDescription.split(separator: "\n").first.map(String.init) ?? "it cannot be read"
        guard apply(action, at: prefix[...], in: &tree) else { return nil }
        let kept: String = switch action {
        case .emptySchema: "read as a schema that allows any value"
        case .remove: "dropped"
        }
        return "\(path)#\(pointer(prefix)): \(reason) It is \(kept); the rest of the document is imported."
    }

    private enum Action {
        case remove
        case emptySchema
    }

    /// The deepest prefix of `keys` that names a part that may go, and what to do with it.
    private static func droppable(_ keys: [String], in tree: JSONValue) -> ([String], Action)? {
        let schemaParents: Set<String> = ["schema", "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"]
        let schemaLists: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
        let schemaMaps: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
        let operations: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        // Only prefixes that exist in the tree (the coding path may name a key the decoder
        // looked for and did not find).
        var depth = 0
        var node: JSONValue? = tree
        while depth < keys.count, let next = child(of: node, keys[depth]) {
            node = next
            depth += 1
        }
        for end in stride(from: depth, through: 1, by: -1) {
            let key = keys[end - 1]
            let parent = end >= 2 ? keys[end - 2] : ""
            let grandparent = end >= 3 ? keys[end - 3] : ""
            let prefix = Array(keys[..<end])
            if ["example", "examples", "default", "security"].contains(key) || parent == "examples" || parent == "security" {
                return (prefix, .remove)
            }
            if schemaParents.contains(parent) || schemaLists.contains(parent) || schemaMaps.contains(parent)
                || (grandparent == "components" && parent == "schemas") {
                return (prefix, .emptySchema)
            }
            if parent == "parameters" || key == "requestBody" || key == "responses" || key == "callbacks"
                || parent == "headers" || parent == "links" || parent == "servers" || key == "servers" {
                return (prefix, .remove)
            }
            if grandparent == "paths" && operations.contains(key) { return (prefix, .remove) }
            if parent == "paths" || parent == "webhooks" || grandparent == "components" { return (prefix, .remove) }
        }
        return nil
    }

    private static func child(of node: JSONValue?, _ key: String) -> JSONValue? {
        switch node {
        case .object(let members)?: return members.first { $0.key == key }?.value
        case .array(let elements)?: return Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
        default: return nil
        }
    }

    /// Applies `action` to the value at `keys`; false when it is not there.
    private static func apply(_ action: Action, at keys: ArraySlice<String>, in value: inout JSONValue) -> Bool {
        guard let key = keys.first else { return false }
        let last = keys.count == 1
        switch value {
        case .object(var members):
            guard let at = members.firstIndex(where: { $0.key == key }) else { return false }
            if last {
                if case .emptySchema = action { members[at].value = .object([]) } else { members.remove(at: at) }
            } else if !apply(action, at: keys.dropFirst(), in: &members[at].value) {
                return false
            }
            value = .object(members)
            return true
        case .array(var elements):
            guard let at = Int(key), elements.indices.contains(at) else { return false }
            if last {
                if case .emptySchema = action { elements[at] = .object([]) } else { elements.remove(at: at) }
            } else if !apply(action, at: keys.dropFirst(), in: &elements[at]) {
                return false
            }
            value = .array(elements)
            return true
        default:
            return false
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
