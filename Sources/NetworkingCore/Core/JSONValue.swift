import Foundation

/// Any JSON value, kept as it was written: object members in their order, numbers as their
/// text (`1.10` stays `1.10`), so that a document parsed and written again reads the same.
///
/// `JSONValue(parsing:)` reads JSON text, `serialized(pretty:)` writes it; `decodeJSONValue()`
/// gives one for a response body. Through `Codable` (a `JSONValue` inside a `Decodable` type)
/// the order is the decoder's and a number's text is its shortest spelling.
///
/// Not `indirect`: arrays and objects hold their values in arrays already, and a boxed case
/// would cost every number and string of a document a heap allocation of its own (a 100 MiB
/// array of small objects took 780 MiB parsed that way).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the text that was written (`-0.50`, `1e3`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its members keep their order (and a repeated key, as it was written).
    case object([(key: String, value: JSONValue)])

    /// A number with the shortest text that reads back as `value` (`1.5`, `3`).
    ///
    /// - Parameter value: a finite number; an infinite or NaN one becomes `null`, which is
    ///   what JSON can say of it.
    public init(_ value: Double) {
        guard value.isFinite else {
            self = .null
            return
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            self = .number(String(Int64(value)))
        } else {
            self = .number(String(describing: value))
        }
    }

    /// A whole number.
    public init(_ value: Int) { self = .number(String(value)) }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    // MARK: - Reading

    /// The value of an object's member (the last one, when the key is repeated), or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The element of an array, or `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
    /// The number, when this is one.
    public var numberValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }
    /// The number, when this is one and it is whole and fits an `Int` (`3`, `-2`, `1e2`).
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let value = Double(text), value == value.rounded(.towardZero), abs(value) < 9e18 else { return nil }
        return Int(value)
    }
    /// The Boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
    /// The members in their order, when this is an object.
    public var members: [(key: String, value: JSONValue)]? {
        if case .object(let value) = self { return value }
        return nil
    }
    /// The members by key (the last one of a repeated key), when this is an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
    /// Whether this is neither an object nor an array.
    public var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }

    /// The value as Foundation objects (`[String: Any]`, `[Any]`, `String`, `Int` or `Double`,
    /// `Bool`, `NSNull`), as `JSONSerialization` would give.
    public var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let text):
            if let integer = Int(text) { return integer }
            return Double(text) ?? 0
        case .string(let value): return value
        case .array(let value): return value.map(\.anyValue)
        case .object(let members):
            return Dictionary(members.map { ($0.key, $0.value.anyValue) }, uniquingKeysWith: { _, last in last })
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object whose members are in the order the literal lists them.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value: members in the order the decoder lists them (`JSONDecoder`
    /// does not keep the document's), numbers as their shortest text. `JSONValue(parsing:)`
    /// keeps both as written.
    public init(from decoder: Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(
                try object.allKeys.map { (key: $0.stringValue, value: try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .number(String(int))
        } else if let number = try? container.decode(Double.self) {
            self = JSONValue(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value: members in their order, a number as an `Int` when it is one, else
    /// as a `Double`.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members { try container.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let int = Int(text) {
                try container.encode(int)
            } else if let double = Double(text) {
                try container.encode(double)
            } else {
                throw EncodingError.invalidValue(
                    text, .init(codingPath: encoder.codingPath, debugDescription: "'\(text)' is not a JSON number"))
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}
