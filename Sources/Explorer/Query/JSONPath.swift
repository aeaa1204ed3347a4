import Foundation
import NetworkingCore

/// A JSONPath expression, the subset people type to narrow a response:
/// `$.items[*].name`, `$..id`, `$.items[0]`, `$.items[-1]`, `$.items[1:3]`, `$['odd key']`,
/// `$.items[?(@.status=="open")]`, `[?(@.score >= 50)]`, `[?(@.tags)]`.
///
/// The result is always a JSON array of what matched, in document order. The body view's
/// filter and the checks of a collection (`capture:`, `assert:`) read bodies through it.
package struct JSONPath: Sendable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case child(String)
        case index(Int)
        case slice(Int?, Int?)
        case wildcard
        case descendants(String?)
        case filter(Filter)
    }

    struct Filter: Sendable, Hashable {
        enum Operator: String, Sendable, CaseIterable {
            case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
        }
        let path: [String]
        let comparison: (Operator, Literal)?
    }

    enum Literal: Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// What is wrong with an expression or a body, in one sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String

        /// A failure saying `description`.
        package init(description: String) {
            self.description = description
        }
    }

    let steps: [Step]
    package let description: String

    /// Parses an expression; the leading `$` is optional.
    ///
    /// - Throws: `Failure` saying at which position the expression goes wrong.
    package init(_ expression: String) throws {
        description = expression
        var scanner = Scanner(Array(expression.trimmingCharacters(in: .whitespaces)))
        if scanner.peek == "$" { scanner.advance() }
        var steps: [Step] = []
        while !scanner.isAtEnd {
            if scanner.consume("..") {
                if scanner.consume("*") { steps.append(.descendants(nil)) } else if scanner.peek == "[" {
                    steps.append(.descendants(nil))
                } else {
                    steps.append(.descendants(try scanner.name()))
                }
            } else if scanner.consume(".") {
                if scanner.consume("*") { steps.append(.wildcard) } else { steps.append(.child(try scanner.name())) }
            } else if scanner.consume("[") {
                steps.append(try scanner.bracket())
                guard scanner.consume("]") else { throw Failure(description: "Expected ] at position \(scanner.position + 1) of \(expression)") }
            } else if steps.isEmpty, scanner.peek?.isLetter == true || scanner.peek == "_" {
                steps.append(.child(try scanner.name()))
            } else {
                throw Failure(description: "Unexpected \"\(scanner.peek.map(String.init) ?? "")\" at position \(scanner.position + 1) of \(expression)")
            }
        }
        self.steps = steps
    }

    /// Applies the expression to a JSON document.
    ///
    /// - Returns: a pretty JSON array of the matches, members in the order the document has
    ///   them and numbers spelled as it spells them.
    /// - Throws: `Failure` when the body is not JSON.
    package func evaluate(_ json: Data) throws -> Data {
        guard let root = try? JSONValue(parsing: json) else {
            throw Failure(description: "The body is not valid JSON, so a JSONPath filter cannot apply.")
        }
        return Data(JSONValue.array(evaluate(root)).serialized(pretty: true).utf8)
    }

    /// Any error as a `Failure` (parsing and evaluation already throw `Failure`).
    package static func failure(_ error: any Error) -> Failure {
        error as? Failure ?? Failure(description: String(describing: error))
    }

    /// Whether the expression can select more than one value (a wildcard, a slice, a filter
    /// or a descent): its result is then a list even when one value matched.
    package var isIndefinite: Bool {
        steps.contains { step in
            switch step {
            case .child, .index: return false
            case .slice, .wildcard, .descendants, .filter: return true
            }
        }
    }

    /// Applies the expression to a document.
    ///
    /// - Returns: the matches, in document order.
    package func evaluate(_ root: JSONValue) -> [JSONValue] {
        steps.reduce([root]) { nodes, step in nodes.flatMap { apply(step, to: $0) } }
    }

    private func apply(_ step: Step, to node: JSONValue) -> [JSONValue] {
        switch step {
        case .child(let name):
            return node[name].map { [$0] } ?? []
        case .index(let index):
            guard case .array(let array) = node else { return [] }
            let position = index < 0 ? array.count + index : index
            return array.indices.contains(position) ? [array[position]] : []
        case .slice(let start, let end):
            guard case .array(let array) = node else { return [] }
            func clamp(_ value: Int?, _ fallback: Int) -> Int {
                guard let value else { return fallback }
                return min(max(value < 0 ? array.count + value : value, 0), array.count)
            }
            let lower = clamp(start, 0)
            let upper = clamp(end, array.count)
            return lower < upper ? Array(array[lower..<upper]) : []
        case .wildcard:
            return children(of: node)
        case .descendants(let name):
            var result: [JSONValue] = []
            collect(node, name: name, into: &result)
            return result
        case .filter(let filter):
            return children(of: node).filter { matches(filter, $0) }
        }
    }

    private func children(of node: JSONValue) -> [JSONValue] {
        switch node {
        case .array(let elements): return elements
        case .object(let members): return members.map(\.value)
        default: return []
        }
    }

    private func collect(_ node: JSONValue, name: String?, into result: inout [JSONValue]) {
        switch node {
        case .object(let members):
            for member in members {
                if name == nil || member.key == name { result.append(member.value) }
                collect(member.value, name: name, into: &result)
            }
        case .array(let elements):
            for element in elements {
                if name == nil { result.append(element) }
                collect(element, name: name, into: &result)
            }
        default:
            break
        }
    }

    private func matches(_ filter: Filter, _ node: JSONValue) -> Bool {
        var value: JSONValue? = node
        for key in filter.path { value = value?[key] }
        guard let value else { return false }
        guard let (comparison, literal) = filter.comparison else { return value != .null }
        switch (literal, value) {
        case (.string(let expected), .string(let actual)):
            return compare(actual, expected, comparison)
        case (.number(let expected), .number(let text)):
            guard let actual = Double(text) else { return comparison == .notEqual }
            return compare(actual, expected, comparison)
        case (.bool(let expected), .bool(let actual)):
            return comparison == .equal ? actual == expected : (comparison == .notEqual ? actual != expected : false)
        case (.null, _):
            let isNull = value == .null
            return comparison == .equal ? isNull : (comparison == .notEqual ? !isNull : false)
        default:
            // A value of another type is not equal to the literal, and not ordered with it.
            return comparison == .notEqual
        }
    }

    private func compare<T: Comparable>(_ actual: T, _ expected: T, _ comparison: Filter.Operator) -> Bool {
        switch comparison {
        case .equal: return actual == expected
        case .notEqual: return actual != expected
        case .less: return actual < expected
        case .lessOrEqual: return actual <= expected
        case .greater: return actual > expected
        case .greaterOrEqual: return actual >= expected
        }
    }

    // MARK: - Parsing

    private struct Scanner {
        let characters: [Character]
        var position = 0

        init(_ characters: [Character]) { self.characters = characters }

        var isAtEnd: Bool { position >= characters.count }
        var peek: Character? { isAtEnd ? nil : characters[position] }

        mutating func advance() { position += 1 }

        mutating func skipSpaces() { while peek == " " { advance() } }

        mutating func consume(_ text: String) -> Bool {
            let wanted = Array(text)
            guard position + wanted.count <= characters.count, Array(characters[position..<position + wanted.count]) == wanted else { return false }
            position += wanted.count
            return true
        }

        mutating func name() throws -> String {
            let start = position
            while let character = peek, character.isLetter || character.isNumber || character == "_" || character == "-" { advance() }
            guard position > start else { throw Failure(description: "Expected a member name at position \(start + 1)") }
            return String(characters[start..<position])
        }

        mutating func quoted() throws -> String {
            guard let quote = peek, quote == "'" || quote == "\"" else { throw Failure(description: "Expected a quoted name at position \(position + 1)") }
            advance()
            var text = ""
            while let character = peek, character != quote {
                if character == "\\" { advance() }
                if let next = peek { text.append(next) }
                advance()
            }
            guard consume(String(quote)) else { throw Failure(description: "A quoted name is not closed") }
            return text
        }

        mutating func integer() -> Int? {
            let start = position
            if peek == "-" { advance() }
            while let character = peek, character.isNumber { advance() }
            return Int(String(characters[start..<position]))
        }

        mutating func bracket() throws -> Step {
            skipSpaces()
            defer { skipSpaces() }
            if consume("*") { return .wildcard }
            if peek == "'" || peek == "\"" { return .child(try quoted()) }
            if consume("?(") {
                skipSpaces()
                guard consume("@") else { throw Failure(description: "A filter starts with @, as in [?(@.status==\"open\")]") }
                var path: [String] = []
                while consume(".") { path.append(try name()) }
                skipSpaces()
                var comparison: (Filter.Operator, Literal)?
                for candidate in Filter.Operator.allCases where consume(candidate.rawValue) {
                    skipSpaces()
                    comparison = (candidate, try literal())
                    break
                }
                skipSpaces()
                guard consume(")") else { throw Failure(description: "A filter must end with ), as in [?(@.id>2)]") }
                return .filter(Filter(path: path, comparison: comparison))
            }
            let start = integer()
            if consume(":") {
                return .slice(start, integer())
            }
            guard let start else { throw Failure(description: "Expected an index, a slice, * or a filter at position \(position + 1)") }
            return .index(start)
        }

        mutating func literal() throws -> Literal {
            if peek == "'" || peek == "\"" { return .string(try quoted()) }
            if consume("true") { return .bool(true) }
            if consume("false") { return .bool(false) }
            if consume("null") { return .null }
            let start = position
            while let character = peek, character.isNumber || character == "." || character == "-" || character == "e" { advance() }
            guard let number = Double(String(characters[start..<position])) else {
                throw Failure(description: "Expected a string, number, true, false or null at position \(start + 1)")
            }
            return .number(number)
        }
    }
}

extension JSONPath.Filter {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.path == rhs.path && lhs.comparison?.0 == rhs.comparison?.0 && lhs.comparison?.1 == rhs.comparison?.1
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(comparison?.0)
        hasher.combine(comparison?.1)
    }
}
