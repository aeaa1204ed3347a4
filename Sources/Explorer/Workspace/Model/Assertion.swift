/// One line of an endpoint's `assert:` list: a query on the response, an optional `not`, a
/// predicate and, for most predicates, the value expected.
///
/// ```yaml
/// assert:
///   - status == 200
///   - header Content-Type contains json
///   - jsonpath $.roles[*] includes "admin"
///   - duration < 500          # milliseconds
///   - schema                  # conforms to its operation in the collection's openapi:
/// ```
///
/// Parse one with `Assertion(parsing:)`; check it against a response with `check(_:)`.
package struct Assertion: Sendable, Codable, Hashable, CustomStringConvertible {
    /// What an assertion reads from a response.
    package enum Query: Sendable, Codable, Hashable {
        /// The status code.
        case status
        /// A response header's value (several fields of one name joined by ", ").
        case header(String)
        /// What a JSONPath expression selects in a JSON body.
        case jsonpath(String)
        /// What an expression of the XPath subset (`XPath`) selects in an XML or HTML body.
        case xpath(String)
        /// The body as text.
        case body
        /// The first group (or the whole match) of a regular expression in the body.
        case regex(String)
        /// The time from sending to the last byte, in milliseconds.
        case duration
        /// The size of the body in bytes.
        case bytes
        /// The value of a cookie the response sets (`Set-Cookie`).
        case cookie(String)
        /// A gRPC call's status, by its name (`OK`, `NOT_FOUND`).
        case grpcStatus
        /// Whether the response keeps the promise of its operation in the collection's
        /// `openapi:` document. Written alone (`- schema`); its predicate is `exists`.
        case schema

        /// The query words, as written, with whether each takes an argument.
        static let words: [(word: String, argument: String?)] = [
            ("status", nil), ("header", "NAME"), ("jsonpath", "EXPR"), ("xpath", "EXPR"), ("body", nil),
            ("regex", "RE"),
            ("duration", nil), ("bytes", nil), ("cookie", "NAME"), ("grpc_status", nil),
        ]

        /// How it is written.
        package var text: String {
            switch self {
            case .status: "status"
            case .header(let name): "header \(name)"
            case .jsonpath(let expression): "jsonpath \(expression)"
            case .xpath(let expression): "xpath \(expression)"
            case .body: "body"
            case .regex(let pattern): "regex \(pattern)"
            case .duration: "duration"
            case .bytes: "bytes"
            case .cookie(let name): "cookie \(name)"
            case .grpcStatus: "grpc_status"
            case .schema: "schema"
            }
        }
    }

    /// How the queried value is judged.
    package enum Predicate: String, Sendable, Codable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
        case contains
        case includes
        case startsWith
        case endsWith
        case matches
        case exists
        case isEmpty
        case isInteger
        case isNumber
        case isString
        case isBoolean
        case isCollection

        /// Whether a value follows the predicate.
        package var takesValue: Bool {
            switch self {
            case .exists, .isEmpty, .isInteger, .isNumber, .isString, .isBoolean, .isCollection: false
            default: true
            }
        }
    }

    /// The value an assertion compares with, as written after the predicate.
    package enum Expected: Sendable, Codable, Hashable {
        /// A quoted string, or bare text (`contains json`). May hold `{{variables}}`.
        case string(String)
        /// A number, with its spelling.
        case number(Double, text: String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null

        /// How it is written.
        package var text: String {
            switch self {
            case .string(let string): string
            case .number(_, let text): text
            case .bool(let value): value ? "true" : "false"
            case .null: "null"
            }
        }
    }

    /// What is read from the response.
    package var query: Query
    /// Whether `not` precedes the predicate.
    package var isNegated: Bool
    /// How the value is judged.
    package var predicate: Predicate
    /// The value compared with, for predicates that take one.
    package var expected: Expected?
    /// The assertion as the user wrote it.
    package var text: String
    /// Where it is written, when it came from a file. Not part of equality.
    var location: FileLocation?

    /// Creates an assertion from its parts.
    package init(
        query: Query, isNegated: Bool = false, predicate: Predicate, expected: Expected? = nil, text: String? = nil
    ) {
        self.query = query
        self.isNegated = isNegated
        self.predicate = predicate
        self.expected = expected
        self.text =
            text
            ?? ([query.text, isNegated ? "not" : nil, predicate.rawValue, expected?.text].compactMap { $0 }.joined(
                separator: " "))
    }

    package var description: String { text }

    package static func == (lhs: Assertion, rhs: Assertion) -> Bool {
        lhs.query == rhs.query && lhs.isNegated == rhs.isNegated && lhs.predicate == rhs.predicate
            && lhs.expected == rhs.expected && lhs.text == rhs.text
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}
