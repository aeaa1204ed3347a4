import Foundation
import NetworkingCore

/// A compiled schema: its nodes (one per schema object of the document that is reached) and
/// their checks, ready to run on any number of instances without reading the document again.
/// Immutable once compiled.
final class SchemaProgram: Sendable {
    let nodes: [SchemaNode]
    /// The document pointer of each keyword a check came from, by `Check.at`.
    let keywordPointers: [String]

    init(nodes: [SchemaNode], keywordPointers: [String]) {
        self.nodes = nodes
        self.keywordPointers = keywordPointers
    }
}

/// One schema object: the checks its keywords make.
struct SchemaNode: Sendable {
    /// OpenAPI 3.0's `nullable: true` (with a `type`): `null` passes the whole node.
    var acceptsNull = false
    var checks: [Check] = []
}

/// The JSON types, as a set of bits.
struct TypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = TypeSet(rawValue: 1)
    static let boolean = TypeSet(rawValue: 2)
    static let integer = TypeSet(rawValue: 4)
    static let number = TypeSet(rawValue: 8)
    static let string = TypeSet(rawValue: 16)
    static let array = TypeSet(rawValue: 32)
    static let object = TypeSet(rawValue: 64)

    static let names: [(String, TypeSet)] = [
        ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number),
        ("string", .string), ("array", .array), ("object", .object),
    ]

    var description: String { Self.names.filter { contains($0.1) }.map(\.0).joined(separator: " or ") }
}

/// A compiled regular expression (ICU's, through `NSRegularExpression`), searched, not anchored.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    private let expression: NSRegularExpression

    init(_ source: String) throws {
        self.source = source
        self.expression = try NSRegularExpression(pattern: source)
    }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// One keyword's test, with the index of its place in the document (`at`).
enum Check: Sendable {
    case never(at: Int)
    case type(TypeSet, at: Int)
    case enumeration(EnumValues, at: Int)
    case constant(JSONValue, at: Int)
    case reference(Int, at: Int)
    case allOf([Int])
    case anyOf([Int], at: Int)
    case oneOf([Int], at: Int)
    case not(Int, at: Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case object(ObjectRules)
    case array(ArrayRules)
    case length(min: Int?, max: Int?, atMin: Int, atMax: Int)
    case pattern(SchemaPattern, at: Int)
    case format(SchemaFormat, at: Int)
    case bound(NumberBound)
    case multipleOf(JSONNumber.Divisor, text: String, at: Int)
}

/// An `enum`'s values, strings in a set.
struct EnumValues: Sendable {
    var strings: Set<String> = []
    var others: [JSONValue] = []
    var all: [JSONValue] = []
}

/// One bound of a number: `minimum`, `maximum` and their exclusive forms.
struct NumberBound: Sendable {
    var value: Double
    var text: String
    var isLower: Bool
    var exclusive: Bool
    var at: Int
}

/// What an object's keywords ask, checked in one pass over its members.
final class ObjectRules: Sendable {
    /// For each named key: its `properties` schema and its place in `required`.
    struct Entry: Sendable {
        var property: Int?
        var requiredSlot: Int?
    }
    enum Additional: Sendable {
        case any
        case forbidden(at: Int)
        case schema(Int)
    }

    let entries: [String: Entry]
    let required: [String]
    let requiredAt: Int
    let patterns: [(SchemaPattern, Int)]
    let additional: Additional
    let minProperties: Int?
    let maxProperties: Int?
    let minAt: Int
    let maxAt: Int
    let propertyNames: Int?
    let dependentRequired: [(String, [String], at: Int)]
    let dependentSchemas: [(String, Int)]

    init(entries: [String: Entry], required: [String], requiredAt: Int, patterns: [(SchemaPattern, Int)], additional: Additional,
         minProperties: Int?, maxProperties: Int?, minAt: Int, maxAt: Int, propertyNames: Int?,
         dependentRequired: [(String, [String], at: Int)], dependentSchemas: [(String, Int)]) {
        self.entries = entries
        self.required = required
        self.requiredAt = requiredAt
        self.patterns = patterns
        self.additional = additional
        self.minProperties = minProperties
        self.maxProperties = maxProperties
        self.minAt = minAt
        self.maxAt = maxAt
        self.propertyNames = propertyNames
        self.dependentRequired = dependentRequired
        self.dependentSchemas = dependentSchemas
    }
}

/// What an array's keywords ask.
final class ArrayRules: Sendable {
    enum Rest: Sendable {
        case any
        case forbidden(at: Int)
        case schema(Int)
    }

    let prefix: [Int]
    let rest: Rest
    let minItems: Int?
    let maxItems: Int?
    let minAt: Int
    let maxAt: Int
    let unique: Int?
    let contains: Int?
    let containsAt: Int
    let minContains: Int
    let maxContains: Int?

    init(prefix: [Int], rest: Rest, minItems: Int?, maxItems: Int?, minAt: Int, maxAt: Int, unique: Int?,
         contains: Int?, containsAt: Int, minContains: Int, maxContains: Int?) {
        self.prefix = prefix
        self.rest = rest
        self.minItems = minItems
        self.maxItems = maxItems
        self.minAt = minAt
        self.maxAt = maxAt
        self.unique = unique
        self.contains = contains
        self.containsAt = containsAt
        self.minContains = minContains
        self.maxContains = maxContains
    }
}
