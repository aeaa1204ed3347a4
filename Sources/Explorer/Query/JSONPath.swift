import Foundation
import NetworkingCore

/// A JSONPath query (RFC 9535), as people type it to narrow a response:
/// `$.items[*].name`, `$..id`, `$.items[-1]`, `$.items[1:10:2]`, `$['odd key']`, `$[0,2]`,
/// `$.items[?@.status == 'open' && @.score >= 50]`, `$[?length(@.tags) > 1]`,
/// `$[?match(@.code, '[A-Z]{3}')]`.
///
/// The whole RFC is read: every selector and segment, filters with `&&`, `||`, `!` and
/// parentheses, comparisons of literals, singular queries and function results, and the five
/// standard functions (`length`, `count`, `match`, `search`, `value`) with their type rules.
/// `JSONPath(strict:)` reads exactly the RFC's grammar. `JSONPath(_:)`, what a filter box and a
/// collection's checks use, also accepts what people type there (see `Syntax.lenient`).
///
/// The result is a list of the nodes that matched, in the order the RFC defines (document
/// order for wildcards and descendants). The body view's filter and the checks of a collection
/// (`capture:`, `assert:`) read bodies through it.
package struct JSONPath: Sendable, CustomStringConvertible {
    /// Which grammar the parser reads.
    package enum Syntax: Sendable, Hashable {
        /// RFC 9535's grammar exactly: the query starts with `$`, and there is no blank before
        /// or after it.
        case strict
        /// The RFC's grammar with what people type in a filter box: blanks around the query,
        /// no leading `$` (`items[0].name`, `.items`, `[0]`), `-` inside a dotted member name
        /// (`$.content-type`), and an empty expression for the whole document (`$`). Anything
        /// the RFC accepts means the same here; these only add queries it refuses.
        case lenient
    }

    /// What is wrong with an expression or a body, in one sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
        /// Where in the expression it goes wrong (1-based, in Unicode scalars), when it is the
        /// expression that is wrong.
        package let position: Int?
        /// The limit the query stopped at, when that is why it failed.
        package private(set) var limit: EvaluationLimitError?

        /// A failure saying `description`.
        package init(description: String) {
            self.init(description: description, position: nil)
        }

        /// A failure saying `description`, about the expression at `position` (1-based).
        package init(description: String, position: Int?) {
            self.description = description
            self.position = position
        }
    }

    /// How deeply filters, parentheses and function calls may nest in one query: deeper is
    /// refused when parsing, so that neither parsing nor evaluating can exhaust the stack.
    package static let maximumNesting = 64

    /// The query as parsed.
    let query: Query
    /// The expression as written.
    package let description: String
    /// The grammar it was read with.
    package let syntax: Syntax

    /// Parses an expression with the lenient syntax: the leading `$` is optional and blanks
    /// around the query are ignored (see `Syntax.lenient`).
    ///
    /// - Throws: `Failure` saying at which position the expression goes wrong.
    package init(_ expression: String) throws {
        try self.init(expression, syntax: .lenient)
    }

    /// Parses an expression with RFC 9535's grammar exactly, as the compliance suite expects.
    ///
    /// - Throws: `Failure` saying at which position the expression goes wrong.
    package init(strict expression: String) throws {
        try self.init(expression, syntax: .strict)
    }

    /// Parses an expression with the grammar `syntax` names.
    ///
    /// - Throws: `Failure` saying at which position the expression goes wrong.
    package init(_ expression: String, syntax: Syntax) throws {
        var parser = Parser(expression, syntax: syntax)
        query = try parser.parse()
        description = expression
        self.syntax = syntax
    }

    /// Any error as a `Failure` (parsing and evaluation already throw `Failure`).
    package static func failure(_ error: any Error) -> Failure {
        error as? Failure ?? Failure(description: String(describing: error))
    }

    /// Whether the expression can select more than one value (a wildcard, a slice, a filter,
    /// a descent or several selectors in one bracket): its result is then a list even when one
    /// value matched. The opposite of the RFC's singular query.
    package var isIndefinite: Bool { !query.isSingular }

    // MARK: - Evaluating

    /// Applies the expression to a JSON document.
    ///
    /// - Parameters:
    ///   - json: the document.
    ///   - maximumDepth: how deeply its arrays and objects may nest (the process's
    ///     `EXPLORER_MAX_DOCUMENT_DEPTH`, which the sentence names, or the parser's default).
    ///   - limits: how many nodes and how long the query may take
    ///     (`EvaluationLimits.current`: the defaults and what the environment sets).
    /// - Returns: a pretty JSON array of the matches, members in the order the document has
    ///   them and numbers spelled as it spells them.
    /// - Throws: `Failure` when the body is not JSON, nests deeper than `maximumDepth`, or when
    ///   the query passes one of its limits (the sentence names the limit and how to raise it).
    package func evaluate(
        _ json: Data, maximumDepth: Int = JSONValue.defaultMaximumDepth, limits: EvaluationLimits = .current
    ) throws -> Data {
        let matches = try matches(in: json, maximumDepth: maximumDepth, limits: limits)
        try checkWritable(matches, limits: limits)
        var text = Data()
        JSONValue.array(matches).write(pretty: true) {
            text.append(contentsOf: $0.utf8)
        }
        return text
    }

    /// Checks that writing `matches` stays within the node limit: writing a match visits all it
    /// holds, and `$..*..*` on a small, deeply nested body selects few nodes holding millions.
    ///
    /// - Throws: `Failure` naming the limit when the matches hold more than `limits.queryNodes`.
    package func checkWritable(_ matches: [JSONValue], limits: EvaluationLimits) throws(Failure) {
        guard Self.valueCount(matches, upTo: limits.queryNodes) > limits.queryNodes else { return }
        throw Failure(
            limit: EvaluationLimitError(
                problem: "the values the JSONPath \(description) selected hold more than \(limits.queryNodes) nodes",
                variable: EvaluationLimits.queryNodesVariable))
    }

    /// The number of values in `values` and in all they hold, counted without recursion and only
    /// until it passes `limit`.
    static func valueCount(_ values: [JSONValue], upTo limit: Int) -> Int {
        var count = 0
        var pending = values[...]
        var held: [ArraySlice<JSONValue>] = []
        while count <= limit {
            guard let value = pending.popFirst() else {
                guard let next = held.popLast() else { return count }
                pending = next
                continue
            }
            count += 1
            switch value {
            case .array(let elements): held.append(elements[...])
            case .object(let members): held.append(members.map(\.value)[...])
            case .null, .bool, .number, .string: break
            }
        }
        return count
    }

    /// Applies the expression to a JSON document, giving the values it selects (to be written
    /// as `evaluate(_:maximumDepth:limits:)` writes them, a piece at a time).
    ///
    /// - Throws: `Failure`, as `evaluate(_:maximumDepth:limits:)`.
    package func matches(
        in json: Data, maximumDepth: Int = JSONValue.defaultMaximumDepth, limits: EvaluationLimits = .current
    ) throws -> [JSONValue] {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: json, maximumDepth: maximumDepth)
        } catch {
            throw Self.failure(reading: error, maximumDepth: maximumDepth)
        }
        return try evaluate(root, limits: limits)
    }

    /// The sentence for a body the JSON reader refused: too deep, or not JSON.
    static func failure(reading error: JSONValue.SyntaxError, maximumDepth: Int) -> Failure {
        guard error.isTooDeep else {
            return Failure(
                description: "The body is not valid JSON (\(error.description)), so a JSONPath filter cannot apply.")
        }
        return Failure(
            description:
                "The body nests arrays and objects deeper than \(maximumDepth) levels, the most a JSONPath filter "
                + "reads; set EXPLORER_MAX_DOCUMENT_DEPTH to a larger number to read it.")
    }

    /// Applies the expression to a document.
    ///
    /// - Parameter limits: how many nodes and how long the query may take.
    /// - Returns: the values of the nodes selected, in the order the RFC gives them.
    /// - Throws: `Failure` when the query passes one of its limits: never a partial result.
    package func evaluate(_ root: JSONValue, limits: EvaluationLimits = .current) throws(Failure) -> [JSONValue] {
        do {
            return try Evaluator(root: root, expression: description, limits: limits)
                .select(query, from: Node(root, at: NoLocation())).map(\.value)
        } catch {
            throw Failure(limit: error)
        }
    }

    /// Applies the expression to a document and says where each match is.
    ///
    /// - Parameter limits: how many nodes and how long the query may take.
    /// - Returns: each node selected, as its normalized path (RFC 9535 §2.7, as in
    ///   `$['items'][0]`) and its value, in the order the RFC gives them.
    /// - Throws: `Failure` when the query passes one of its limits.
    package func locate(_ root: JSONValue, limits: EvaluationLimits = .current) throws(Failure) -> [(
        path: String, value: JSONValue
    )] {
        do {
            return try Evaluator(root: root, expression: description, limits: limits)
                .select(query, from: Node(root, at: NormalizedPath())).map { ($0.location.description, $0.value) }
        } catch {
            throw Failure(limit: error)
        }
    }
}

extension JSONPath.Failure {
    /// A query stopped at one of its limits, as a sentence (the limit's error starts in lower case).
    init(limit: EvaluationLimitError) {
        let text = limit.description
        self.init(description: text.prefix(1).uppercased() + text.dropFirst() + ".")
        self.limit = limit
    }
}

// MARK: - The syntax tree

extension JSONPath {
    /// A query: `$` (the document) or `@` (the node a filter is testing), then segments.
    struct Query: Sendable {
        /// Whether it starts at the document (`$`) rather than at the current node (`@`).
        var isAbsolute: Bool
        var segments: [Segment]

        /// Whether it selects at most one node: only names and indexes, one per segment, and no
        /// descent (the RFC's singular query, the only kind a comparison accepts).
        var isSingular: Bool {
            segments.allSatisfy { segment in
                guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
                switch segment.selectors[0] {
                case .name, .index: return true
                case .wildcard, .slice, .filter: return false
                }
            }
        }
    }

    /// A child segment (`.a`, `[…]`) or a descendant segment (`..a`, `..[…]`).
    struct Segment: Sendable {
        /// Whether its selectors apply to the node and every node below it (`..`).
        var isDescendant: Bool
        var selectors: [Selector]
        /// Whether blanks were written inside its brackets (`[ 'a' ]`): the RFC's grammar of a
        /// singular query has none there, so the strict syntax does not compare such a query.
        var isSpaced = false
    }

    /// One selector of a segment.
    enum Selector: Sendable {
        /// An object's member (`.a`, `['a']`).
        case name(String)
        /// Every element or member value (`*`).
        case wildcard
        /// An array's element, from the end when negative (`[0]`, `[-1]`).
        case index(Int)
        /// Array elements from `start` up to `end` by `step` (`[1:5:2]`, `[::-1]`).
        case slice(start: Int?, end: Int?, step: Int?)
        /// The element or member values for which the expression holds (`[?@.a > 1]`).
        case filter(LogicalExpression)
    }

    /// A filter's expression, true or false for the node it tests.
    indirect enum LogicalExpression: Sendable {
        case or([LogicalExpression])
        case and([LogicalExpression])
        case not(LogicalExpression)
        case comparison(Comparable, ComparisonOperator, Comparable)
        /// True when the query selects at least one node (an existence test).
        case exists(Query)
        /// A function whose result is a LogicalType, or a NodesType read as "not empty".
        case function(FunctionCall)
    }

    /// One side of a comparison: a literal, a singular query or a function giving a value.
    enum Comparable: Sendable {
        case literal(JSONValue)
        case query(Query)
        case function(FunctionCall)
    }

    /// The comparison operators of §2.3.5.1.
    enum ComparisonOperator: String, Sendable, CaseIterable {
        // Two-character operators first, so that `<=` is not read as `<`.
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    /// A call of one of the standard functions (§2.4).
    struct FunctionCall: Sendable {
        var function: Function
        var arguments: [Argument]
    }

    /// What a function's argument is, as written.
    enum Argument: Sendable {
        case literal(JSONValue)
        case query(Query)
        case logical(LogicalExpression)
        case function(FunctionCall)
    }

    /// The types of §2.4.1 that function parameters and results have.
    enum ExpressionType: Sendable {
        /// A JSON value or Nothing.
        case value
        /// True or false.
        case logical
        /// A list of nodes.
        case nodes
    }

    /// The function extensions RFC 9535 defines (§2.4.4 to §2.4.8).
    enum Function: String, Sendable, CaseIterable {
        case length, count, match, search, value

        /// The types of its parameters, in order.
        var parameters: [ExpressionType] {
            switch self {
            case .length: [.value]
            case .count, .value: [.nodes]
            case .match, .search: [.value, .value]
            }
        }

        /// The type of its result.
        var result: ExpressionType {
            switch self {
            case .length, .count, .value: .value
            case .match, .search: .logical
            }
        }
    }
}
