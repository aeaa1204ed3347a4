import Foundation
import NetworkingCore

/// One place where two JSON documents differ.
///
/// `path` is a JSONPath query (RFC 9535) that selects the place in both documents: members by
/// name (`$.user.email`), array elements by position (`$.items[2]`), or, when the arrays were
/// matched by an id-like member, by that member (`$.users[?@.id==3].name`); it can be copied
/// into a collection's `compare: { ignore: [...] }` as it is.
package struct JSONDifference: Sendable, Hashable {
    /// What differs, kept apart so that a reader sees at once a value that changed from a
    /// value that changed its type.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Only the second document has it.
        case added
        /// Only the first document has it.
        case removed
        /// Two strings with different text.
        case string
        /// Two numbers with different values (`1` and `1.0` are the same number).
        case number
        /// `true` against `false`.
        case boolean
        /// Two values of different JSON types (a string against a number, an object against `null`).
        case type

        /// The mark a line of the diff starts with.
        package var mark: String {
            switch self {
            case .added: "+"
            case .removed: "-"
            case .string: "~"
            case .number: "#"
            case .boolean: "~"
            case .type: "!"
            }
        }

        /// What the kind is called in a sentence and in `--json`.
        package var label: String {
            switch self {
            case .added: "only in the second"
            case .removed: "only in the first"
            case .string: "string differs"
            case .number: "number differs"
            case .boolean: "boolean differs"
            case .type: "type differs"
            }
        }
    }

    /// What differs.
    package var kind: Kind
    /// Where, as a JSONPath query that selects the place in both documents.
    package var path: String
    /// The first document's value (`nil` when only the second has one).
    package var first: JSONValue?
    /// The second document's value (`nil` when only the first has one).
    package var second: JSONValue?

    /// A difference.
    package init(kind: Kind, path: String, first: JSONValue?, second: JSONValue?) {
        self.kind = kind
        self.path = path
        self.first = first
        self.second = second
    }
}

extension JSONValue {
    /// The JSON type's name: `object`, `array`, `string`, `number`, `boolean` or `null`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
