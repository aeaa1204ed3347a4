import Foundation

/// The XPath subset `xpath` assertions and captures understand, on a `MarkupDocument`.
///
/// ```
/// /html/head/title          an absolute path of element names (`*` for any element)
/// //li                      `//` anywhere: at any depth below
/// //ul/li[2]                a position (from 1) among the matching children; [last()]
/// //a[@rel='next']/@href    an attribute test ([@a], [@a='v'], [@a!='v']) and an attribute
/// //p/text()                the text nodes
/// count(//item)             how many nodes a path selects
/// ```
///
/// Names match as written in the document, namespace prefix included (`soap:Body`); a
/// default namespace is ignored, so `/feed/entry` reads an Atom feed. In HTML names are
/// case-insensitive. Anything else (axes such as `following-sibling::`, other functions,
/// unions, arithmetic) is refused with the position and the list above, never guessed.
package struct XPath: Sendable, Hashable, CustomStringConvertible {
    /// Why an expression is not in the subset: what, and where (in characters from the start).
    package struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var offset: Int
        package var description: String { "\(message) (at character \(offset + 1))" }
    }

    /// A test on the nodes a step selects.
    enum Predicate: Sendable, Hashable {
        /// The nth (from 1) of the step's nodes under one parent.
        case position(Int)
        /// The last of them.
        case last
        /// Elements that have the attribute.
        case hasAttribute(String)
        /// Elements whose attribute equals (or, negated, differs from) a value.
        case attribute(String, equals: String, negated: Bool)
    }

    /// What one step selects below each node in hand.
    enum Test: Sendable, Hashable {
        /// Child elements of a name (`nil`: any, `*`).
        case element(String?)
        /// Child text nodes (`text()`).
        case text
        /// An attribute of the element in hand (`@name`, `@*` when `nil`); only last.
        case attribute(String?)
        /// The node itself (`.`).
        case this
        /// Its parent (`..`).
        case parent
    }

    struct Step: Sendable, Hashable {
        /// Whether `//` came before it: it applies at any depth below.
        var anyDepth: Bool
        var test: Test
        var predicates: [Predicate]
    }

    /// The expression as written.
    package let text: String
    let steps: [Step]
    /// Whether the expression is `count(…)`.
    let isCount: Bool

    package var description: String { text }

    /// The subset in one line, for error messages.
    package static let subset =
        "paths (/a/b, //b, *), positions [n] and [last()], "
        + "attribute tests [@a] and [@a='v'], @attr, text(), count(path)"

    /// Parses an expression.
    ///
    /// - Throws: `SyntaxError` for anything outside the subset.
    package init(_ text: String) throws(SyntaxError) {
        self.text = text
        var scanner = Scanner(text.trimmingCharacters(in: .whitespaces))
        var count = false
        if scanner.consume("count(") {
            count = true
        }
        var steps: [Step] = []
        var first = true
        while !scanner.isAtEnd && !(count && scanner.peek == ")") {
            var anyDepth = false
            if scanner.consume("//") {
                anyDepth = true
            } else if scanner.consume("/") {
                anyDepth = false
            } else if !first {
                throw SyntaxError(
                    message: "expected / or // before \"\(scanner.rest)\"; the subset is \(Self.subset)",
                    offset: scanner.position)
            }
            first = false
            if let last = steps.last, case .attribute = last.test {
                throw SyntaxError(message: "an attribute (@…) can only end a path", offset: scanner.position)
            }
            let test = try Self.test(&scanner)
            var predicates: [Predicate] = []
            while scanner.consume("[") {
                predicates.append(try Self.predicate(&scanner))
            }
            steps.append(Step(anyDepth: anyDepth, test: test, predicates: predicates))
        }
        if count {
            guard scanner.consume(")"), scanner.isAtEnd else {
                throw SyntaxError(message: "count( must close with ) at the end", offset: scanner.position)
            }
        }
        guard !steps.isEmpty else {
            throw SyntaxError(message: "the expression selects nothing; write a path such as //title", offset: 0)
        }
        self.steps = steps
        isCount = count
    }

    private static func test(_ scanner: inout Scanner) throws(SyntaxError) -> Test {
        let start = scanner.position
        if scanner.consume("text()") { return .text }
        if scanner.consume("..") { return .parent }
        if scanner.consume(".") { return .this }
        if scanner.consume("*") { return .element(nil) }
        if scanner.consume("@") {
            if scanner.consume("*") { return .attribute(nil) }
            let name = scanner.name()
            guard !name.isEmpty else {
                throw SyntaxError(message: "@ needs an attribute name", offset: scanner.position)
            }
            return .attribute(name)
        }
        let name = scanner.name()
        guard !name.isEmpty else {
            throw SyntaxError(message: "\"\(scanner.rest)\" is not in the XPath subset: \(subset)", offset: start)
        }
        if scanner.peek == "(" || scanner.rest.hasPrefix("::") {
            throw SyntaxError(
                message: "\(name)\(scanner.peek == "(" ? "()" : "::") is not in the XPath subset: \(subset)",
                offset: start)
        }
        return .element(name)
    }

    private static func predicate(_ scanner: inout Scanner) throws(SyntaxError) -> Predicate {
        let start = scanner.position
        scanner.skipSpaces()
        let predicate: Predicate
        if scanner.consume("last()") {
            predicate = .last
        } else if let digits = scanner.digits() {
            guard let position = Int(digits), position >= 1 else {
                throw SyntaxError(message: "a position counts from 1", offset: start)
            }
            predicate = .position(position)
        } else if scanner.consume("@") {
            let name = scanner.name()
            guard !name.isEmpty else {
                throw SyntaxError(message: "@ needs an attribute name", offset: scanner.position)
            }
            scanner.skipSpaces()
            let negated = scanner.consume("!=")
            if negated || scanner.consume("=") {
                scanner.skipSpaces()
                guard let value = scanner.quoted() else {
                    throw SyntaxError(
                        message: "compare an attribute with a quoted value: [@\(name)='value']",
                        offset: scanner.position)
                }
                predicate = .attribute(name, equals: value, negated: negated)
            } else {
                predicate = .hasAttribute(name)
            }
        } else {
            throw SyntaxError(
                message:
                    "[\(scanner.rest.prefix(20))… is not a predicate of the subset ([n], [last()], [@a], [@a='v'])",
                offset: start)
        }
        scanner.skipSpaces()
        guard scanner.consume("]") else {
            throw SyntaxError(message: "expected ] to close the predicate", offset: scanner.position)
        }
        return predicate
    }

    // MARK: - Evaluating

    /// What an expression selected.
    package enum Selection: Sendable, Hashable {
        /// The count of `count(…)`.
        case count(Int)
        /// The text of each node selected (an element's text, an attribute's value), in
        /// document order.
        case values([String])
    }

    /// Evaluates the expression on a document.
    package func evaluate(_ document: MarkupDocument) -> Selection {
        var current: [Int] = [0]
        var attributes: [String]?
        for step in steps {
            if case .attribute(let name) = step.test {
                let elements = step.anyDepth ? Self.unique(current.flatMap(document.descendantsOrSelf(of:))) : current
                attributes = elements.flatMap { index -> [String] in
                    guard case .element(_, let pairs) = document.nodes[index].kind else { return [] }
                    return pairs.filter { pair in name.map { matches(pair.name, $0, document) } ?? true }.map(\.value)
                }
                break
            }
            let bases = step.anyDepth ? Self.unique(current.flatMap(document.descendantsOrSelf(of:))) : current
            current = Self.unique(bases.flatMap { base in apply(step, to: base, in: document) })
        }
        let values = attributes ?? current.map(document.stringValue(of:))
        return isCount ? .count(values.count) : .values(values)
    }

    /// The nodes one step selects below (or at) one node, its predicates applied.
    private func apply(_ step: Step, to base: Int, in document: MarkupDocument) -> [Int] {
        var selected: [Int]
        switch step.test {
        case .this: selected = [base]
        case .parent: selected = document.nodes[base].parent.map { [$0] } ?? []
        case .attribute: selected = []
        case .text:
            selected = document.nodes[base].children.filter {
                if case .text = document.nodes[$0].kind { true } else { false }
            }
        case .element(let name):
            selected = document.nodes[base].children.filter { child in
                guard case .element(let childName, _) = document.nodes[child].kind else { return false }
                return name.map { matches(childName, $0, document) } ?? true
            }
        }
        for predicate in step.predicates {
            switch predicate {
            case .position(let position):
                selected = selected.indices.contains(position - 1) ? [selected[position - 1]] : []
            case .last: selected = selected.last.map { [$0] } ?? []
            case .hasAttribute(let name):
                selected = selected.filter { attribute(name, of: $0, in: document) != nil }
            case .attribute(let name, let value, let negated):
                selected = selected.filter { index in
                    guard let found = attribute(name, of: index, in: document) else { return negated }
                    return (found == value) != negated
                }
            }
        }
        return selected
    }

    private func attribute(_ name: String, of index: Int, in document: MarkupDocument) -> String? {
        guard case .element(_, let pairs) = document.nodes[index].kind else { return nil }
        return pairs.first { matches($0.name, name, document) }?.value
    }

    private func matches(_ written: String, _ wanted: String, _ document: MarkupDocument) -> Bool {
        document.isHTML ? written.lowercased() == wanted.lowercased() : written == wanted
    }

    /// Indices once each, in document order.
    private static func unique(_ indices: [Int]) -> [Int] {
        Array(Set(indices)).sorted()
    }
}

// MARK: - Scanning

extension XPath {
    /// The shared query scanner, reading the expression as characters: messages count
    /// characters as a reader sees them.
    typealias Scanner = QueryScanner<Character>
}

extension QueryScanner where Element == Character {
    /// Skips spaces (only spaces: the subset has no other blanks between tokens).
    fileprivate mutating func skipSpaces() {
        skip { $0 == " " }
    }

    /// Reads a name: letters, digits, `_`, `-`, `.` (not first) and `:` (not as the `::` of
    /// an axis). Empty when none comes next.
    fileprivate mutating func name() -> String {
        let start = position
        while let next = peek, next.isLetter || next.isNumber || "_-.:".contains(next) {
            // `::` starts an axis, not a name.
            if next == ":" && peek(at: 1) == ":" { break }
            if next == "." && position == start { break }
            advance()
        }
        return text(from: start)
    }

    /// Reads ASCII digits, or gives `nil` when none comes next.
    fileprivate mutating func digits() -> String? {
        let digits = take { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : digits
    }

    /// Reads a value in single or double quotes (no escapes), or gives `nil`, reading nothing,
    /// when none comes next or it is not closed.
    fileprivate mutating func quoted() -> String? {
        guard let quote = peek, quote == "'" || quote == "\"" else { return nil }
        guard let close = elements[(position + 1)...].firstIndex(of: quote) else { return nil }
        let value = String(elements[(position + 1)..<close])
        position = close + 1
        return value
    }
}
