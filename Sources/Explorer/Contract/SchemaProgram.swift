import Foundation
import NetworkingCore

/// A compiled schema: its nodes (one per schema object of the document that is reached) and
/// their checks, ready to run on any number of instances without reading the document again.
/// Immutable once compiled.
///
/// Checks are plain values (indices into the tables here), and each node's checks lie side by
/// side in one array, so that running them copies and counts no references.
final class SchemaProgram: Sendable {
    let nodes: [SchemaNode]
    let checks: [Check]
    /// The document pointer of each keyword a check came from, by `at`.
    let keywordPointers: [String]
    let lists: [[Int]]
    let enums: [EnumValues]
    let constants: [JSONValue]
    let objects: [ObjectRules]
    let arrays: [ArrayRules]
    let patterns: [SchemaPattern]
    let bounds: [NumberBound]
    let divisors: [(JSONNumber.Divisor, String)]

    init(tables: SchemaTables) {
        nodes = tables.nodes
        checks = tables.checks
        keywordPointers = tables.keywordPointers
        lists = tables.lists
        enums = tables.enums
        constants = tables.constants
        objects = tables.objects
        arrays = tables.arrays
        patterns = tables.patterns
        bounds = tables.bounds
        divisors = tables.divisors
    }
}

/// The tables a program is made of, while the compiler fills them.
struct SchemaTables {
    var nodes: [SchemaNode] = []
    var checks: [Check] = []
    var keywordPointers: [String] = []
    var lists: [[Int]] = []
    var enums: [EnumValues] = []
    var constants: [JSONValue] = []
    var objects: [ObjectRules] = []
    var arrays: [ArrayRules] = []
    var patterns: [SchemaPattern] = []
    var bounds: [NumberBound] = []
    var divisors: [(JSONNumber.Divisor, String)] = []
}

/// One schema object: where its checks are in `SchemaProgram.checks`.
struct SchemaNode: Sendable {
    /// OpenAPI 3.0's `nullable: true`: `null` passes the whole node.
    var acceptsNull = false
    var start = 0
    var count = 0
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
///
/// Unchecked `Sendable`, sound because both properties are immutable after init and an
/// `NSRegularExpression` is immutable and documented thread-safe (not marked `Sendable` everywhere).
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

/// One keyword's test: the index of its place in the document (`at`) and of what it needs in
/// the program's tables. `-1` stands for "none".
enum Check: Sendable {
    case never(at: Int)
    case type(TypeSet, at: Int)
    case enumeration(Int, at: Int)
    case constant(Int, at: Int)
    case reference(Int, at: Int)
    case allOf(Int)
    case anyOf(Int, at: Int)
    case oneOf(Int, at: Int)
    case not(Int, at: Int)
    case conditional(if: Int, then: Int, else: Int)
    case object(Int)
    case array(Int)
    case length(min: Int, max: Int, atMin: Int, atMax: Int)
    case pattern(Int, at: Int)
    case format(SchemaFormat, at: Int)
    case bound(Int)
    case multipleOf(Int, at: Int)
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

    /// The named keys in the order the schema lists them, their entries, and the index by key.
    let keys: [String]
    let keyEntries: [Entry]
    let keyIndex: [String: Int]

    /// The entry index of `key`: bodies tend to list members in the schema's order, so the
    /// one after the last found is tried before hashing the key.
    @inline(__always)
    func entry(of key: String, guess: Int) -> Int? {
        if guess < keys.count, keys[guess] == key { return guess }
        return keyIndex[key]
    }
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

    init(
        entries: [(String, Entry)], required: [String], requiredAt: Int, patterns: [(SchemaPattern, Int)],
        additional: Additional,
        minProperties: Int?, maxProperties: Int?, minAt: Int, maxAt: Int, propertyNames: Int?,
        dependentRequired: [(String, [String], at: Int)], dependentSchemas: [(String, Int)]
    ) {
        var keys: [String] = []
        var keyEntries: [Entry] = []
        for (key, entry) in entries {
            keys.append(key)
            keyEntries.append(entry)
        }
        self.keys = keys
        self.keyEntries = keyEntries
        self.keyIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, $0.offset) })
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

    init(
        prefix: [Int], rest: Rest, minItems: Int?, maxItems: Int?, minAt: Int, maxAt: Int, unique: Int?,
        contains: Int?, containsAt: Int, minContains: Int, maxContains: Int?
    ) {
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
