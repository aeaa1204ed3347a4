import Foundation
import Yams

/// A JSON value that keeps key order and number spelling: a collection's `json:` body
/// (string leaves may hold templates) and pretty-printing of bodies.
///
/// It shadows `Networking.JSONValue` inside this module; write `Networking.JSONValue` for that one.
package indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as the text that was written so `1.10` stays `1.10`.
    case number(String)
    /// A string, possibly holding `{{variable}}` templates.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose keys keep their order.
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let pairs):
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        }
    }

    /// Returns the value with every string leaf (and object key) passed through `transform`.
    ///
    /// - Throws: whatever `transform` throws.
    func mapStrings(_ transform: (String) throws -> String) rethrows -> JSONValue {
        switch self {
        case .null, .bool, .number: return self
        case .string(let value): return .string(try transform(value))
        case .array(let values): return .array(try values.map { try $0.mapStrings(transform) })
        case .object(let pairs):
            return .object(try pairs.map { (key: try transform($0.key), value: try $0.value.mapStrings(transform)) })
        }
    }

    /// The value as JSON text.
    ///
    /// - Parameter pretty: indents nested values by two spaces when `true`.
    package func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, depth: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, depth: Int) {
        let newline = pretty ? "\n" : ""
        let indent = pretty ? String(repeating: "  ", count: depth + 1) : ""
        let closing = pretty ? String(repeating: "  ", count: depth) : ""
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += value
        case .string(let value): out += JSONValue.quote(value)
        case .array(let values):
            if values.isEmpty { out += "[]"; return }
            out += "[" + newline
            for (index, value) in values.enumerated() {
                out += indent
                value.write(to: &out, pretty: pretty, depth: depth + 1)
                out += (index < values.count - 1 ? "," : "") + newline
            }
            out += closing + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{" + newline
            for (index, pair) in pairs.enumerated() {
                out += indent + JSONValue.quote(pair.key) + (pretty ? ": " : ":")
                pair.value.write(to: &out, pretty: pretty, depth: depth + 1)
                out += (index < pairs.count - 1 ? "," : "") + newline
            }
            out += closing + "}"
        }
    }

    /// A JSON string literal for `string`, escaping what JSON requires.
    static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Parses JSON text into a value that keeps key order, or `nil` when it is not JSON.
    ///
    /// JSON is read with the YAML parser (JSON is YAML's flow style), which keeps the order
    /// of object keys where `JSONSerialization` would not.
    package static func parse(_ text: String) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, first == "{" || first == "[",
              (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) != nil,
              let node = try? Yams.compose(yaml: trimmed)
        else { return nil }
        return JSONValue(yaml: node)
    }

    /// Converts a YAML node: quoted scalars are strings, plain ones are resolved by their tag.
    init(yaml node: Node) {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted
                || scalar.style == .literal || scalar.style == .folded {
                self = .string(scalar.string)
                return
            }
            if node.null != nil {
                self = .null
            } else if let bool = node.bool {
                self = .bool(bool)
            } else if node.int != nil || (node.float.map { $0.isFinite } ?? false) {
                self = .number(scalar.string)
            } else {
                self = .string(scalar.string)
            }
        case .sequence(let sequence):
            self = .array(sequence.map { JSONValue(yaml: $0) })
        case .mapping(let mapping):
            self = .object(mapping.map { (key: $0.key.string ?? "", value: JSONValue(yaml: $0.value)) })
        case .alias:
            self = .null
        }
    }
}
