import Foundation
import NetworkingCore

// MARK: - Nodes and their locations

extension JSONPath {
    /// A member name as a normalized path writes it between single quotes.
    package static func escapedName(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Where a node is in the document, built up as the evaluator goes down. `NoLocation`
    /// costs nothing; `NormalizedPath` records the path for `locate(_:)`.
    protocol Location: Sendable {
        /// The document's own location (`$`).
        static var root: Self { get }
        /// The location of the member `name` of the node here.
        func appending(name: String) -> Self
        /// The location of the element `index` of the node here.
        func appending(index: Int) -> Self
    }

    /// No location: what `evaluate(_:)` uses.
    struct NoLocation: Location {
        static var root: NoLocation { NoLocation() }
        func appending(name: String) -> NoLocation { self }
        func appending(index: Int) -> NoLocation { self }
    }

    /// A normalized path (RFC 9535 §2.7), shared with the parent's as a linked list, so that
    /// going one level down costs one small allocation whatever the depth.
    struct NormalizedPath: Location, CustomStringConvertible {
        /// One step of the path, and the steps before it.
        final class Link: Sendable {
            let parent: Link?
            let name: String?
            let index: Int

            init(parent: Link?, name: String?, index: Int) {
                self.parent = parent
                self.name = name
                self.index = index
            }
        }

        var last: Link?

        static var root: NormalizedPath { NormalizedPath(last: nil) }
        func appending(name: String) -> NormalizedPath {
            NormalizedPath(last: Link(parent: last, name: name, index: 0))
        }
        func appending(index: Int) -> NormalizedPath {
            NormalizedPath(last: Link(parent: last, name: nil, index: index))
        }

        /// `$` then `['name']` and `[index]` steps, names escaped as §2.7 says.
        var description: String {
            var steps: [String] = []
            var link = last
            while let current = link {
                steps.append(current.name.map { "['\(JSONPath.escapedName($0))']" } ?? "[\(current.index)]")
                link = current.parent
            }
            return "$" + steps.reversed().joined()
        }
    }

    /// A value of the document and where it is.
    struct Node<L: Location> {
        var value: JSONValue
        var location: L

        init(_ value: JSONValue, at location: L) {
            self.value = value
            self.location = location
        }

        /// The number of children (elements or members); 0 for a scalar.
        var childCount: Int {
            switch value {
            case .array(let elements): elements.count
            case .object(let members): members.count
            default: 0
            }
        }

        /// The child at `index` (an element, or a member's value), with its location.
        func child(at index: Int) -> Node {
            switch value {
            case .array(let elements): Node(elements[index], at: location.appending(index: index))
            case .object(let members): Node(members[index].value, at: location.appending(name: members[index].key))
            default: preconditionFailure("a scalar has no children")
            }
        }
    }
}

// MARK: - Evaluating

extension JSONPath {
    /// Applies a parsed query to one document (§2.5 to §2.6). It holds the root, which `$`
    /// in filters reads, the regular expressions compiled so far, and the work left of the
    /// query's `EvaluationLimits`.
    struct Evaluator {
        let root: JSONValue
        private let regularExpressions = RegularExpressionCache()
        private let budget: Budget

        init(root: JSONValue, expression: String, limits: EvaluationLimits) {
            self.root = root
            self.budget = Budget(expression: expression, limits: limits)
        }

        /// The RFC's Nothing: no value. Written out because a bare `nil` where a `JSONValue`
        /// can stand is JSON's `null` (`JSONValue` is `ExpressibleByNilLiteral`).
        static let nothing: JSONValue? = .none

        /// The nodes `query` selects, from `current` for a relative query and from the root for
        /// an absolute one.
        ///
        /// - Throws: `EvaluationLimitError` when the query passes its node or time limit.
        func select<L: Location>(_ query: Query, from current: Node<L>) throws(EvaluationLimitError) -> [Node<L>] {
            var nodes = [query.isAbsolute ? Node(root, at: L.root) : current]
            for segment in query.segments {
                var next: [Node<L>] = []
                for node in nodes {
                    if segment.isDescendant {
                        try forEachDescendantOrSelf(of: node) { (descendant) throws(EvaluationLimitError) in
                            try apply(segment.selectors, to: descendant, into: &next)
                        }
                    } else {
                        try apply(segment.selectors, to: node, into: &next)
                    }
                }
                nodes = next
                if nodes.isEmpty { break }
            }
            return nodes
        }

        /// Calls `body` with `start` and then every node below it, in document order (each
        /// node before its children), with a stack of its own rather than recursion, so that
        /// no depth of document can exhaust the thread's stack.
        private func forEachDescendantOrSelf<L: Location>(
            of start: Node<L>, _ body: (Node<L>) throws(EvaluationLimitError) -> Void
        ) throws(EvaluationLimitError) {
            try body(start)
            var stack: [(node: Node<L>, next: Int)] = start.childCount > 0 ? [(start, 0)] : []
            while let top = stack.last {
                guard top.next < top.node.childCount else {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let child = top.node.child(at: top.next)
                try budget.spend()
                try body(child)
                if child.childCount > 0 { stack.append((child, 0)) }
            }
        }

        /// Appends what each selector selects from `node` to `output`, selector by selector.
        private func apply<L: Location>(_ selectors: [Selector], to node: Node<L>, into output: inout [Node<L>])
            throws(EvaluationLimitError)
        {
            for selector in selectors {
                let before = output.count
                try apply(selector, to: node, into: &output)
                try budget.spend(output.count - before)
            }
        }

        /// Appends what one selector selects from `node` (§2.3).
        private func apply<L: Location>(_ selector: Selector, to node: Node<L>, into output: inout [Node<L>])
            throws(EvaluationLimitError)
        {
            switch selector {
            case .name(let name):
                guard case .object(let members) = node.value,
                    let index = members.lastIndex(where: { Self.equal($0.key, name) })
                else { return }
                output.append(node.child(at: index))
            case .wildcard:
                for index in 0..<node.childCount { output.append(node.child(at: index)) }
            case .index(let index):
                guard case .array(let elements) = node.value else { return }
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) { output.append(node.child(at: position)) }
            case .slice(let start, let end, let step):
                guard case .array(let elements) = node.value else { return }
                for index in Self.sliceIndices(count: elements.count, start: start, end: end, step: step ?? 1) {
                    output.append(node.child(at: index))
                }
            case .filter(let expression):
                for index in 0..<node.childCount {
                    let child = node.child(at: index)
                    try budget.spend()
                    if try test(expression, on: child) { output.append(child) }
                }
            }
        }

        /// The indices a slice selects in an array of `count` elements, in order (§2.3.4.2.2).
        static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int) -> StrideTo<Int> {
            func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
            if step > 0 {
                let lower = min(max(normalized(start ?? 0), 0), count)
                let upper = min(max(normalized(end ?? count), 0), count)
                return stride(from: lower, to: max(lower, upper), by: step)
            }
            if step < 0 {
                let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
                let lower = min(max(normalized(end ?? -count - 1), -1), count - 1)
                return stride(from: upper, to: min(lower, upper), by: step)
            }
            return stride(from: 0, to: 0, by: 1)
        }

        // MARK: Filters

        /// Whether a filter's expression holds for `node` (`@`).
        private func test<L: Location>(_ expression: LogicalExpression, on node: Node<L>) throws(EvaluationLimitError)
            -> Bool
        {
            let current = Node(node.value, at: NoLocation())
            return try test(expression, current: current)
        }

        /// Whether `expression` holds with `current` as `@`.
        private func test(_ expression: LogicalExpression, current: Node<NoLocation>) throws(EvaluationLimitError)
            -> Bool
        {
            switch expression {
            case .or(let terms):
                for term in terms {
                    if try test(term, current: current) { return true }
                }
                return false
            case .and(let terms):
                for term in terms {
                    if try !test(term, current: current) { return false }
                }
                return true
            case .not(let term): return try !test(term, current: current)
            case .exists(let query): return try !select(query, from: current).isEmpty
            case .function(let call): return try truth(of: call, current: current)
            case .comparison(let left, let comparison, let right):
                return Self.compare(
                    try value(of: left, current: current), comparison, try value(of: right, current: current))
            }
        }

        /// A comparable's value, or `nil` for Nothing.
        private func value(of comparable: Comparable, current: Node<NoLocation>) throws(EvaluationLimitError)
            -> JSONValue?
        {
            switch comparable {
            case .literal(let value): return value
            case .query(let query): return try singleValue(of: query, current: current)
            case .function(let call): return try value(of: call, current: current)
            }
        }

        /// The value of the one node a query selects, or `nil` (Nothing) when it selects none
        /// or several.
        private func singleValue(of query: Query, current: Node<NoLocation>) throws(EvaluationLimitError) -> JSONValue?
        {
            let nodes = try select(query, from: current)
            return nodes.count == 1 ? nodes[0].value : Self.nothing
        }

        // MARK: Comparisons

        /// A comparison of two values or Nothings (§2.3.5.2.2).
        static func compare(_ left: JSONValue?, _ comparison: ComparisonOperator, _ right: JSONValue?) -> Bool {
            switch comparison {
            case .equal: return equal(left, right)
            case .notEqual: return !equal(left, right)
            case .less: return less(left, right)
            case .lessOrEqual: return less(left, right) || equal(left, right)
            case .greater: return less(right, left)
            case .greaterOrEqual: return less(right, left) || equal(left, right)
            }
        }

        /// `<`: numbers by value, strings by their Unicode scalars; anything else is unordered.
        private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
            switch (left, right) {
            case (.number(let a)?, .number(let b)?): return JSONNumber.compare(a, b) == .orderedAscending
            // UTF-8 keeps the order of code points, so comparing bytes compares scalars.
            case (.string(let a)?, .string(let b)?): return a.utf8.lexicographicallyPrecedes(b.utf8)
            default: return false
            }
        }

        /// `==`: Nothing equals only Nothing; numbers by value; strings scalar by scalar (no
        /// normalization); arrays element by element; objects by members, in any order.
        static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
            // Not `left == nil`: JSONValue is ExpressibleByNilLiteral, so that `nil` could be JSON's null.
            switch (left, right) {
            case (.none, .none): return true
            case (.none, .some), (.some, .none): return false
            case (.some(let left), .some(let right)): return equal(left, right)
            }
        }

        /// `==` of two values, walking nested ones with a stack of its own, not by recursion.
        private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
            var pending: [(JSONValue, JSONValue)] = [(left, right)]
            while let (a, b) = pending.popLast() {
                switch (a, b) {
                case (.null, .null): continue
                case (.bool(let x), .bool(let y)): if x != y { return false }
                case (.number(let x), .number(let y)): if JSONNumber.compare(x, y) != .orderedSame { return false }
                case (.string(let x), .string(let y)): if !equal(x, y) { return false }
                case (.array(let x), .array(let y)):
                    guard x.count == y.count else { return false }
                    pending.append(contentsOf: zip(x, y))
                case (.object(let x), .object(let y)):
                    guard let pairs = pairedMembers(x, y) else { return false }
                    pending.append(contentsOf: pairs)
                default: return false
                }
            }
            return true
        }

        /// The values of two objects' members paired by name, or `nil` when their names differ.
        private static func pairedMembers(
            _ x: [(key: String, value: JSONValue)], _ y: [(key: String, value: JSONValue)]
        ) -> [(JSONValue, JSONValue)]? {
            // Keyed by UTF-8 bytes: `String`'s own equality would take "é" and "e\u{301}" as one name.
            func byName(_ members: [(key: String, value: JSONValue)]) -> [[UInt8]: JSONValue] {
                Dictionary(members.map { (Array($0.key.utf8), $0.value) }, uniquingKeysWith: { _, last in last })
            }
            let a = byName(x)
            let b = byName(y)
            guard a.count == b.count else { return nil }
            var pairs: [(JSONValue, JSONValue)] = []
            pairs.reserveCapacity(a.count)
            for (name, value) in a {
                guard let other = b[name] else { return nil }
                pairs.append((value, other))
            }
            return pairs
        }

        /// Whether two strings have the same Unicode scalars (RFC 9535 compares without
        /// normalizing, where `String.==` takes canonically equivalent strings as equal).
        static func equal(_ a: String, _ b: String) -> Bool {
            a.utf8.elementsEqual(b.utf8)
        }

        // MARK: Functions

        /// What a function gives (§2.4.4 to §2.4.8).
        private enum Result {
            case value(JSONValue?)
            case logical(Bool)
            case nodes([JSONValue])
        }

        /// A function's result as a value (for a comparison or a ValueType argument).
        private func value(of call: FunctionCall, current: Node<NoLocation>) throws(EvaluationLimitError) -> JSONValue?
        {
            if case .value(let value) = try result(of: call, current: current) { return value }
            return nil
        }

        /// A function's result as a test: a LogicalType as it is, a NodesType as "not empty".
        private func truth(of call: FunctionCall, current: Node<NoLocation>) throws(EvaluationLimitError) -> Bool {
            switch try result(of: call, current: current) {
            case .logical(let truth): return truth
            case .nodes(let nodes): return !nodes.isEmpty
            case .value: return false
            }
        }

        /// Calls a function on its arguments, each read as its parameter's type.
        private func result(of call: FunctionCall, current: Node<NoLocation>) throws(EvaluationLimitError) -> Result {
            switch call.function {
            case .length:
                return .value(Self.length(of: try valueArgument(call.arguments[0], current: current)))
            case .count:
                return .value(JSONValue(try nodesArgument(call.arguments[0], current: current).count))
            case .value:
                let nodes = try nodesArgument(call.arguments[0], current: current)
                return .value(nodes.count == 1 ? nodes[0] : Self.nothing)
            case .match, .search:
                guard case .string(let text)? = try valueArgument(call.arguments[0], current: current),
                    case .string(let pattern)? = try valueArgument(call.arguments[1], current: current),
                    let expression = regularExpressions.expression(for: pattern, wholeString: call.function == .match)
                else { return .logical(false) }
                // The whole query's deadline bounds the search too, with the regex limit's own.
                let left = budget.secondsLeft
                do {
                    return .logical(
                        try expression.firstMatch(in: text, within: min(budget.limits.regexSeconds, left)) != nil)
                } catch {
                    throw budget.failure(for: error, queryTimeLeft: left)
                }
            }
        }

        /// `length()`: a string's Unicode scalars, an array's elements, an object's members;
        /// Nothing for anything else.
        private static func length(of value: JSONValue?) -> JSONValue? {
            switch value {
            case .string(let text)?: JSONValue(text.unicodeScalars.count)
            case .array(let elements)?: JSONValue(elements.count)
            case .object(let members)?: JSONValue(members.count)
            default: nothing
            }
        }

        /// An argument read as a ValueType: a literal, the value of a singular query's node
        /// (Nothing unless exactly one), or a function's value.
        private func valueArgument(_ argument: Argument, current: Node<NoLocation>) throws(EvaluationLimitError)
            -> JSONValue?
        {
            switch argument {
            case .literal(let value): return value
            case .query(let query): return try singleValue(of: query, current: current)
            case .function(let call): return try value(of: call, current: current)
            case .logical: return Self.nothing
            }
        }

        /// An argument read as a NodesType: the values a query selects.
        private func nodesArgument(_ argument: Argument, current: Node<NoLocation>) throws(EvaluationLimitError)
            -> [JSONValue]
        {
            switch argument {
            case .query(let query): return try select(query, from: current).map(\.value)
            case .function(let call):
                if case .nodes(let nodes) = try result(of: call, current: current) { return nodes }
                return []
            case .literal, .logical: return []
            }
        }
    }

    /// What one evaluation may still do: nodes visited and selected, and time, as its
    /// `EvaluationLimits` allow. Shared by the evaluator's copies (filters evaluate queries of
    /// their own), so the whole query counts against one budget.
    final class Budget {
        let expression: String
        let limits: EvaluationLimits
        private let deadline: UInt64
        private var nodes = 0
        private var sinceClock = 0

        init(expression: String, limits: EvaluationLimits) {
            self.expression = expression
            self.limits = limits
            deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(limits.querySeconds, 1e9)) * 1e9)
        }

        /// Seconds left before the deadline (0 when past it).
        var secondsLeft: Double {
            let now = DispatchTime.now().uptimeNanoseconds
            return now >= deadline ? 0 : Double(deadline - now) / 1e9
        }

        /// Counts `count` nodes visited or selected; the clock is read every 4,096 of them.
        ///
        /// - Throws: `EvaluationLimitError` past the node limit or the deadline.
        func spend(_ count: Int = 1) throws(EvaluationLimitError) {
            nodes += count
            sinceClock += count
            if nodes > limits.queryNodes {
                throw EvaluationLimitError(
                    problem: "the JSONPath \(expression) visited and selected more than \(limits.queryNodes) nodes",
                    variable: EvaluationLimits.queryNodesVariable
                )
            }
            if sinceClock >= 4_096 {
                sinceClock = 0
                if DispatchTime.now().uptimeNanoseconds > deadline { throw timedOut }
            }
        }

        /// The query's own time limit when it is what a regular expression ran out of (the
        /// query had less time left than a regular expression may take), else the regular
        /// expression's error as it is.
        func failure(for error: EvaluationLimitError, queryTimeLeft: Double) -> EvaluationLimitError {
            guard error.variable == EvaluationLimits.regexTimeoutVariable, queryTimeLeft < limits.regexSeconds else {
                return error
            }
            return timedOut
        }

        private var timedOut: EvaluationLimitError {
            EvaluationLimitError(
                problem:
                    "the JSONPath \(expression) ran for more than \(EvaluationLimits.duration(limits.querySeconds))",
                variable: EvaluationLimits.queryTimeoutVariable
            )
        }
    }

    /// The regular expressions of one evaluation, each compiled once; `nil` for a pattern that
    /// is not an I-Regexp (then `match` and `search` are false).
    final class RegularExpressionCache {
        private var compiled: [String: NSRegularExpression?] = [:]

        /// The expression for an I-Regexp pattern, anchored at both ends for `match()`.
        func expression(for pattern: String, wholeString: Bool) -> NSRegularExpression? {
            let key = (wholeString ? "m" : "s") + pattern
            if let known = compiled[key] { return known }
            let expression = IRegexp.translate(pattern).flatMap { translated in
                try? NSRegularExpression(pattern: wholeString ? "\\A(?:\(translated))\\z" : translated)
            }
            compiled[key] = expression
            return expression
        }
    }
}

// MARK: - Numbers

/// A JSON number's text read exactly, to compare numbers by value whatever their size or
/// spelling: `1`, `1.0` and `10e-1` are equal, and `1e400` is more than `1e399` (a `Double`
/// would call both infinite).
struct JSONNumber: Sendable {
    /// Whether the number is below zero (never for zero).
    var isNegative: Bool
    /// The significant digits (0 to 9), without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten of the first digit's place plus one: the value is 0.d₁d₂… × 10^exponent.
    var exponent: Int

    /// Reads `-?digits(.digits)?([eE][+-]?digits)?`, or gives `nil` for other text.
    init?(_ text: String) {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var integerDigits = 0
        while let byte = bytes.first, (48...57).contains(byte) {
            digits.append(byte - 48)
            integerDigits += 1
            bytes = bytes.dropFirst()
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            while let byte = bytes.first, (48...57).contains(byte) {
                digits.append(byte - 48)
                bytes = bytes.dropFirst()
            }
        }
        guard !digits.isEmpty else { return nil }
        var exponent = 0
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let negativeExponent = bytes.first == UInt8(ascii: "-")
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard let first = bytes.first, (48...57).contains(first) else { return nil }
            while let byte = bytes.first, (48...57).contains(byte) {
                // Past a trillion the exponent's exact value no longer matters: saturate.
                exponent = min(exponent * 10 + Int(byte - 48), 1_000_000_000_000)
                bytes = bytes.dropFirst()
            }
            if negativeExponent { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        let leadingZeros = digits.prefix { $0 == 0 }.count
        digits.removeFirst(leadingZeros)
        while digits.last == 0 { digits.removeLast() }
        self.digits = digits
        self.isNegative = negative && !digits.isEmpty
        self.exponent = digits.isEmpty ? 0 : integerDigits - leadingZeros + exponent
    }

    /// How two numbers' texts compare by value; texts that are not numbers compare as
    /// `Double`s (NaN with nothing).
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        guard let x = JSONNumber(a), let y = JSONNumber(b) else {
            guard let x = Double(a), let y = Double(b), !x.isNaN, !y.isNaN else {
                return a == b ? .orderedSame : .orderedDescending
            }
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        if x.isNegative != y.isNegative { return x.isNegative ? .orderedAscending : .orderedDescending }
        let magnitude = compareMagnitudes(x, y)
        guard x.isNegative else { return magnitude }
        switch magnitude {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// How the absolute values compare.
    private static func compareMagnitudes(_ x: JSONNumber, _ y: JSONNumber) -> ComparisonResult {
        switch (x.digits.isEmpty, y.digits.isEmpty) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedAscending
        case (false, true): return .orderedDescending
        case (false, false): break
        }
        if x.exponent != y.exponent { return x.exponent < y.exponent ? .orderedAscending : .orderedDescending }
        for (a, b) in zip(x.digits, y.digits) where a != b {
            return a < b ? .orderedAscending : .orderedDescending
        }
        if x.digits.count == y.digits.count { return .orderedSame }
        return x.digits.count < y.digits.count ? .orderedAscending : .orderedDescending
    }
}
