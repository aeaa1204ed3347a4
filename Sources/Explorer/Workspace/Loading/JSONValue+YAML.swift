import NetworkingCore
import Yams

// A collection's `json:` body is YAML in the file and a `JSONValue` in memory (string leaves
// may hold `{{variable}}` templates). The conversion needs Yams, so it lives here rather than
// in Networking.

extension JSONValue {
    /// Converts a YAML node: quoted scalars are strings, plain ones are resolved by their tag,
    /// mappings keep their order.
    init(yaml node: Node) {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted
                || scalar.style == .literal || scalar.style == .folded
            {
                self = .string(scalar.string)
                return
            }
            if node.null != nil {
                self = .null
            } else if let bool = node.flag {
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

    /// Returns the value with every string leaf (and object key) passed through `transform`.
    ///
    /// - Throws: whatever `transform` throws.
    func mapStrings(_ transform: (String) throws -> String) rethrows -> JSONValue {
        switch self {
        case .null, .bool, .number: return self
        case .string(let value): return .string(try transform(value))
        case .array(let values): return .array(try values.map { try $0.mapStrings(transform) })
        case .object(let members):
            return .object(try members.map { (key: try transform($0.key), value: try $0.value.mapStrings(transform)) })
        }
    }

    /// Parses JSON text that is an object or an array (a body, a set of variables), or `nil`
    /// when it is not JSON or is a lone scalar.
    package static func container(parsing text: String) -> JSONValue? {
        guard let value = try? JSONValue(parsing: text), !value.isScalar else { return nil }
        return value
    }
}
