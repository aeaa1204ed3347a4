import Foundation
import NetworkingCore

// MARK: - Which queries stream

extension JSONPath {
    /// Whether `streamedMatches(in:maximumDepth:limits:)` evaluates the query over the body's
    /// bytes rather than over a parsed tree: an absolute query (`$`, never `@`) whose selectors
    /// are names (`.a`, `['a']`), wildcards (`[*]`), indices (`[0]`, `[-1]`) and slices forwards
    /// (`[1:3]`, `[::2]`, `[-2:]`), in child segments but for the last, which may be a
    /// descendant segment (`$..id`, `$.items..name`, `$..*`). A pass over the text finds such a
    /// query's matches: in document order with one selector a segment; an index or slice counted
    /// from the end counts the array's elements first; several selectors in a bracket (`[0,1]`,
    /// `['a','b']`) read the node's children once a selector, in the selectors' order; and the
    /// nodes a descendant segment selects are put in the RFC's order (each node's children after
    /// the children of the nodes before it) by where their parents start.
    ///
    /// The others need the tree: a descendant segment before another segment (`$..a.b`, whose
    /// nodes may be selected on several paths), filters (`[?…]`), slices backwards (`[::-1]`),
    /// a descendant segment with an index or slice counted from the end (`..[-1]`, where counted
    /// arrays would nest), and several selectors in a bracket in a query with a descent.
    package var isStreamable: Bool {
        guard query.isAbsolute, query.segments.allSatisfy({ $0.streamingSelectors != nil }),
            query.segments.dropLast().allSatisfy({ !$0.isDescendant })
        else { return false }
        // Several selectors in a bracket are read one after the other, in the tree's order: not
        // with a descent, whose matches are sorted.
        return query.segments.allSatisfy { $0.selectors.count == 1 } || !query.segments.contains(where: \.isDescendant)
    }
}

extension JSONPath.Segment {
    /// The selectors of a segment when each can be applied in a pass over the text, or `nil`.
    fileprivate var streamingSelectors: [JSONPath.Selector]? {
        guard !selectors.isEmpty, selectors.count <= 64 else { return nil }
        let streams = selectors.allSatisfy { selector in
            switch selector {
            case .name, .wildcard: return true
            // Counted from the end, the array is counted first: not in a descent, where arrays
            // nest in arrays that are counted too.
            case .index(let index): return index >= 0 || !isDescendant
            case .slice(let start, let end, let step):
                guard (step ?? 1) >= 0 else { return false }
                return (start ?? 0) >= 0 && (end ?? 0) >= 0 || !isDescendant
            case .filter: return false
            }
        }
        return streams ? selectors : nil
    }
}

// MARK: - Evaluating over the bytes

extension JSONPath {
    /// Applies a streamable query (see `isStreamable`) to a JSON document without parsing it
    /// into a tree: a pass over its bytes that checks it is JSON and counts the query's nodes
    /// against its limits, keeping only the stack of open arrays and objects. The nodelist is
    /// the one `matches(in:maximumDepth:limits:)` gives; `StreamedNodelist.write(to:)` writes it
    /// as `evaluate(_:maximumDepth:limits:)` does, finding the matches again in a second pass.
    ///
    /// - Parameters:
    ///   - json: the document.
    ///   - maximumDepth: how deeply its arrays and objects may nest.
    ///   - limits: how many nodes the query may select and how long it may take.
    /// - Returns: the nodelist; `nil` when the query is not streamable or the document needs
    ///   the tree to say what it selects: an object repeating a key that a name selects (the
    ///   tree takes the last).
    /// - Throws: `Failure`, with the sentence `matches(in:maximumDepth:limits:)` gives, when the
    ///   document is not JSON or nests deeper than `maximumDepth` (the line, column and words of
    ///   the tree's reader), or when the query passes its node or time limit.
    package func streamedMatches(
        in json: Data, maximumDepth: Int = JSONValue.defaultMaximumDepth, limits: EvaluationLimits = .current
    ) throws(Failure) -> StreamedNodelist? {
        guard isStreamable else { return nil }
        let plan = StreamingPlan(
            segments: query.segments.compactMap(\.streamingSelectors),
            descends: query.segments.last?.isDescendant == true, maximumDepth: maximumDepth)
        let budget = Budget(expression: description, limits: limits)
        let outcome = json.withUnsafeBytes { raw in
            var scanner = StreamingScanner(bytes: raw.bindMemory(to: UInt8.self), plan: plan, budget: budget)
            return scanner.run()
        }
        switch outcome {
        case .declined: return nil
        case .refused(let error): throw Self.failure(reading: error, maximumDepth: maximumDepth)
        case .limit(let error): throw Failure(limit: error)
        case .matches(let count, let ordered):
            return StreamedNodelist(json: json, plan: plan, count: count, inDocumentOrder: ordered)
        }
    }
}

/// What a streamed query looks for.
struct StreamingPlan: Sendable {
    /// Each segment's selectors.
    let segments: [[JSONPath.Selector]]
    /// Whether the last segment is a descendant segment.
    let descends: Bool
    let maximumDepth: Int
    /// The UTF-8 bytes of each name selector's name (empty for the others), segment by segment.
    let names: [[[UInt8]]]
    /// Whether a segment has several selectors (whose matches come selector after selector).
    let isMultiple: Bool

    init(segments: [[JSONPath.Selector]], descends: Bool, maximumDepth: Int) {
        self.segments = segments
        self.descends = descends
        self.maximumDepth = maximumDepth
        names = segments.map { selectors in
            selectors.map { selector in
                if case .name(let name) = selector { return Array(name.utf8) }
                return []
            }
        }
        isMultiple = segments.contains { $0.count > 1 }
    }
}

/// The positions of the elements an index or slice selects in an array: from `lower` up to
/// `upper` by `step`.
struct ArrayWindow {
    var lower = 0
    var upper = Int.max
    var step = 1

    func contains(_ position: Int) -> Bool {
        position >= lower && position < upper && (position - lower) % step == 0
    }

    /// The window of `selector` for the array that starts at `start`, counting its elements
    /// (once, into `count`) when the selector counts from the end, as the tree's evaluator
    /// normalizes indices; `nil` when the text ends before the array does.
    static func of(
        _ selector: JSONPath.Selector, arrayAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, count: inout Int?
    ) -> ArrayWindow? {
        func counted() -> Int? {
            if count == nil { count = RawJSON.elementCount(ofArrayAt: start, in: bytes) }
            return count
        }
        switch selector {
        case .index(let index):
            guard let position = index >= 0 ? index : counted().map({ $0 + index }) else { return nil }
            return position >= 0 ? ArrayWindow(lower: position, upper: position &+ 1) : ArrayWindow(upper: 0)
        case .slice(let start, let end, let step):
            guard (step ?? 1) > 0 else { return ArrayWindow(upper: 0) }
            guard (start ?? 0) < 0 || (end ?? 0) < 0 else {
                return ArrayWindow(lower: start ?? 0, upper: end ?? Int.max, step: step ?? 1)
            }
            guard let count = counted() else { return nil }
            func normalized(_ index: Int) -> Int { min(max(index >= 0 ? index : count + index, 0), count) }
            return ArrayWindow(lower: normalized(start ?? 0), upper: normalized(end ?? count), step: step ?? 1)
        case .wildcard, .name, .filter: return ArrayWindow()
        }
    }
}

/// A streamed query's nodelist, in a document checked to be JSON: found again in its bytes
/// when it is written, so that nothing but the document (a `Data` shares its bytes, it does
/// not copy them) is kept.
package struct StreamedNodelist: Sendable {
    /// The document.
    let json: Data
    let plan: StreamingPlan
    /// How many nodes were selected.
    package let count: Int
    /// Whether the nodelist's order is the order in which the matches start in the document
    /// (always, but for a descent that reaches an object's member after what is below the
    /// object's earlier members: the member comes first).
    let inDocumentOrder: Bool

    /// Calls `body` with where each match starts, in the nodelist's order; `body` gives where
    /// the match ends, when it has read it (the scan then goes on from there).
    func forEachStart(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Int?) {
        if plan.isMultiple {
            var start = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            while RawJSON.isSpace(bytes[start]) { start += 1 }
            visit(start, segment: 0, in: bytes, body)
            return
        }
        guard inDocumentOrder else {
            // The RFC's order: the children of each node (in the order a selector gives them,
            // here the document's), nodes in the order the descent visits them (each before its
            // own). Kept as pairs of offsets, sorted by the parent's.
            var pairs: [(parent: Int, start: Int)] = []
            pairs.reserveCapacity(count)
            var scanner = StreamingScanner(bytes: bytes, plan: plan, budget: nil) { start, parent in
                pairs.append((parent, start))
                return nil
            }
            _ = scanner.run()
            pairs.sort { $0 < $1 }
            for pair in pairs { _ = body(pair.start) }
            return
        }
        withoutActuallyEscaping(body) { body in
            var scanner = StreamingScanner(bytes: bytes, plan: plan, budget: nil) { start, _ in body(start) }
            _ = scanner.run()
        }
    }

    /// Calls `body` for each match below the value at `start` of the segments from `segment`
    /// on, as the tree's evaluator finds them: selector after selector, each over the value's
    /// children in their order (a query with several selectors in a bracket).
    func visit(_ start: Int, segment: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Int?) {
        guard segment < plan.segments.count else {
            _ = body(start)
            return
        }
        let isArray = bytes[start] == UInt8(ascii: "[")
        guard isArray || bytes[start] == UInt8(ascii: "{") else { return }
        let closer = isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")
        var count: Int?
        func skipSpace(_ index: inout Int) {
            while RawJSON.isSpace(bytes[index]) { index += 1 }
        }
        for (number, selector) in plan.segments[segment].enumerated() {
            var window = ArrayWindow()
            switch selector {
            case .name: if isArray { continue }
            case .index, .slice:
                guard isArray else { continue }
                window = ArrayWindow.of(selector, arrayAt: start, in: bytes, count: &count) ?? ArrayWindow(upper: 0)
            case .wildcard, .filter: break
            }
            var index = start + 1
            var position = 0
            skipSpace(&index)
            while bytes[index] != closer, position < window.upper {
                var selected: Bool
                if isArray {
                    selected = window.contains(position)
                } else {
                    let keyEnd = RawJSON.end(ofValueAt: index, in: bytes)
                    selected =
                        if case .name = selector {
                            RawJSON.string(bytes, from: index + 1, to: keyEnd - 1, equals: plan.names[segment][number])
                        } else { true }
                    index = keyEnd
                    skipSpace(&index)
                    index += 1
                    skipSpace(&index)
                }
                let child = index
                if selected { visit(child, segment: segment + 1, in: bytes, body) }
                // A name's member is the only one (a repeated one is left to the tree).
                if selected, case .name = selector { break }
                index = RawJSON.end(ofValueAt: child, in: bytes)
                skipSpace(&index)
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipSpace(&index)
                }
                position += 1
            }
        }
    }

    /// The selected values, parsed (each one alone): what tests compare with the tree's.
    package func values() -> [JSONValue] {
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var values: [JSONValue] = []
            forEachStart(in: bytes) { start in
                let end = RawJSON.end(ofValueAt: start, in: bytes)
                let text = Data(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                values.append((try? JSONValue(parsing: text)) ?? .null)
                return end
            }
            return values
        }
    }

    /// Writes the nodelist as a pretty JSON array, exactly as `JSONValue.array(values)
    /// .write(pretty: true)` writes it, from the document's bytes as the matches are found
    /// and a piece of about 64 KB at a time: nothing as large as the document is built.
    ///
    /// - Parameter write: receives the pieces, in order.
    package func write(to write: (Data) -> Void) {
        withoutActuallyEscaping(write) { write in
            json.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let writer = RawJSON.PrettyWriter(bytes: bytes, flush: write)
                var written = 0
                forEachStart(in: bytes) { start in
                    defer { written += 1 }
                    return writer.writeElement(at: start, first: written == 0)
                }
                writer.finishArray(empty: written == 0)
            }
        }
    }
}

// MARK: - The scanner

/// What one pass over a document ended with.
private enum StreamingOutcome {
    /// How many values are selected, and whether they start in the nodelist's order.
    case matches(count: Int, ordered: Bool)
    /// The query passed one of its limits (the document is JSON).
    case limit(EvaluationLimitError)
    /// The document is not JSON, or nests too deeply: where and why, as the tree's reader says.
    case refused(JSONValue.SyntaxError)
    /// The document needs the tree's evaluation.
    case declined
}

/// One pass over a JSON document that checks it as `JSONValue(parsing:)` reads it (the same
/// grammar and depth rule), counts the nodes a streamable query selects, and tells where each
/// match starts. It keeps a stack of the open arrays and objects, never a value.
private struct StreamingScanner {
    /// An open array or object.
    struct Frame {
        /// `}` or `]`: what closes it.
        var closer: UInt8
        /// The index of the selector its children are tested with, or -1 when no child of it
        /// can be selected (it is not in the nodelist before that selector).
        var selector: Int
        /// Where it starts.
        var start: Int
        /// How many times it is in the nodelist before its selectors (several selectors in a
        /// bracket may select a node more than once).
        var weight: Int
        /// How many elements came before the current one (arrays).
        var position = 0
        /// The positions of the elements its first selector selects (arrays), and those the
        /// others select (when there are several).
        var window = ArrayWindow()
        var moreWindows: [ArrayWindow] = []
        /// Which of its name selectors have selected a member (objects), a bit each: a second
        /// member of that name is left to the tree.
        var named: UInt64 = 0
    }

    /// The document was refused (`error`, as the tree's reader words it) or needs the tree.
    struct Decline: Error {
        var error: JSONValue.SyntaxError?
    }

    /// Where the text starts (after a byte order mark).
    var origin = 0

    let bytes: UnsafeBufferPointer<UInt8>
    /// Each segment's selectors.
    let segments: [[JSONPath.Selector]]
    /// Each segment's selector when it has one (most do), read without a loop.
    let singles: [JSONPath.Selector?]
    let names: [[[UInt8]]]
    /// What to count against the query's limits; `nil` once they are known to be kept.
    let budget: JSONPath.Budget?
    /// What is told of each match: where it starts, and where its parent does (with a
    /// descendant segment; else 0).
    let note: ((Int, Int) -> Int?)?
    /// The index of the last selector when its segment is a descendant segment, else -1: a
    /// value whose children it tests passes the test on to all of them.
    let descent: Int
    let maximumDepth: Int
    var index = 0
    var stack: [Frame] = []
    /// How many times the next child read is in the nodelist after its segment.
    var childWeight = 1
    /// How many matches so far, and where the last one's parent starts.
    var count = 0
    var lastParent = 0
    /// Whether each match's parent starts after the last one's (or is the same).
    var ordered = true
    /// The limit passed, if any: nothing more is counted or noted, but the rest is still read,
    /// since a document that is not JSON gets the reader's sentence instead.
    var limit: EvaluationLimitError?

    init(
        bytes: UnsafeBufferPointer<UInt8>, plan: StreamingPlan, budget: JSONPath.Budget?,
        note: ((Int, Int) -> Int?)? = nil
    ) {
        self.bytes = bytes
        segments = plan.segments
        singles = plan.segments.map { $0.count == 1 ? $0[0] : nil }
        names = plan.names
        descent = plan.descends ? segments.count - 1 : -1
        maximumDepth = plan.maximumDepth
        self.budget = budget
        self.note = note
    }

    mutating func run() -> StreamingOutcome {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { origin = 3 }
        index = origin
        do {
            try document()
        } catch {
            return error.error.map { .refused($0) } ?? .declined
        }
        if let limit { return .limit(limit) }
        return .matches(count: count, ordered: ordered)
    }

    /// Counts a match, and tells of it; gives where it ends when what was told read it.
    mutating func noteMatch(at start: Int, parent: Int, weight: Int = 1) -> Int? {
        guard limit == nil else { return nil }
        count += weight
        if parent < lastParent { ordered = false }
        lastParent = parent
        return note?(start, parent) ?? nil
    }

    /// Reads the document; `state` is, for the value about to be read, the number of
    /// selectors that have selected it so far (all of them: it is a match), or -1.
    mutating func document() throws(Decline) {
        skipSpace()
        var state = 0
        var weight = 1
        while true {
            // A value, nested `stack.count` levels deep.
            guard stack.count < maximumDepth else {
                var error = failure("nested deeper than \(maximumDepth) levels").error
                error?.isTooDeep = true
                throw Decline(error: error)
            }
            let childSelector = state >= 0 && state < segments.count ? state : -1
            // A match with no match below it, read already (on a second pass): skipped.
            let skipped = state == segments.count ? noteMatch(at: index, parent: 0, weight: weight) : nil
            switch index < bytes.count ? bytes[index] : 0 {
            case _ where skipped != nil: index = skipped ?? index
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let start = index
                let closer = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == closer {
                    index += 1
                } else {
                    var frame = Frame(closer: closer, selector: childSelector, start: start, weight: weight)
                    if closer == UInt8(ascii: "]"), childSelector >= 0 { try windows(of: &frame) }
                    stack.append(frame)
                    state = try firstChild()
                    weight = childWeight
                    continue
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try word("true")
            case UInt8(ascii: "f"): try word("false")
            case UInt8(ascii: "n"): try word("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default:
                throw failure(
                    "expected a value (an object, array, string, number, true, false or null), found \(shown)")
            }
            // After a value: the next one in the innermost open array or object, or its end.
            while true {
                skipSpace()
                guard let top = stack.last else {
                    guard index == bytes.count else {
                        throw failure("unexpected \(shown) after the end of the JSON value")
                    }
                    return
                }
                let closer = top.closer == UInt8(ascii: "]") ? "']'" : "'}'"
                if index < bytes.count, bytes[index] == top.closer {
                    index += 1
                    stack.removeLast()
                    continue
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else {
                    throw failure("expected ',' or \(closer), found \(shown)")
                }
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == top.closer {
                    throw failure("a trailing comma before \(closer)")
                }
                stack[stack.count - 1].position += 1
                state = try firstChild()
                weight = childWeight
                break
            }
        }
    }

    /// Reads up to the next child of the innermost open array or object (an object's key and
    /// `:`), and gives that child's state (and its weight, in `childWeight`); notes it when a
    /// descendant segment selects it.
    mutating func firstChild() throws(Decline) -> Int {
        let frame = stack[stack.count - 1]
        // How many of the segment's selectors select the child.
        var selections = 0
        if frame.closer == UInt8(ascii: "]") {
            guard frame.selector >= 0 else { return -1 }
            if let selector = singles[frame.selector] {
                switch selector {
                case .wildcard: selections = 1
                case .index, .slice: selections = frame.window.contains(frame.position) ? 1 : 0
                case .name, .filter: break
                }
            } else {
                selections = arraySelections(in: frame)
            }
        } else {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a key in double quotes, found \(shown)")
            }
            let keyStart = index + 1
            try skipString()
            let keyEnd = index - 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the key, found \(shown)")
            }
            index += 1
            skipSpace()
            guard frame.selector >= 0 else { return -1 }
            selections = try memberSelections(in: frame, keyStart: keyStart, keyEnd: keyEnd)
        }
        if frame.selector == descent {
            // Every node below the descent's start is visited, and passes the descent on.
            try spend()
            if selections > 0 {
                try spend()
                _ = noteMatch(at: index, parent: frame.start)
            }
            childWeight = 1
            return descent
        }
        guard selections > 0 else { return -1 }
        let (weight, overflow) = frame.weight.multipliedReportingOverflow(by: selections)
        // So many nodes are past any limit: the tree says which.
        if overflow { throw Decline() }
        try spend(weight)
        childWeight = weight
        return frame.selector + 1
    }

    /// How many of an array's selectors select its current element.
    func arraySelections(in frame: Frame) -> Int {
        var selections = 0
        for (number, selector) in segments[frame.selector].enumerated() {
            switch selector {
            case .wildcard: selections += 1
            case .index, .slice:
                let window = number == 0 ? frame.window : frame.moreWindows[number - 1]
                if window.contains(frame.position) { selections += 1 }
            case .name, .filter: break
            }
        }
        return selections
    }

    /// How many of an object's selectors select the member whose key is `bytes[keyStart..<keyEnd]`.
    mutating func memberSelections(in frame: Frame, keyStart: Int, keyEnd: Int) throws(Decline) -> Int {
        var selections = 0
        let selectors = segments[frame.selector]
        for number in 0..<selectors.count {
            switch selectors[number] {
            case .wildcard: selections += 1
            case .name:
                let name = names[frame.selector][number]
                guard RawJSON.string(bytes, from: keyStart, to: keyEnd, equals: name) else { continue }
                // The tree takes the last of repeated names, and counts only what is under it.
                if frame.named & (1 << number) != 0 { throw Decline() }
                stack[stack.count - 1].named |= 1 << number
                selections += 1
            case .index, .slice, .filter: break
            }
        }
        return selections
    }

    /// Sets the positions an array's selectors select (none when the text ends before the
    /// array does: reading it says so).
    func windows(of frame: inout Frame) throws(Decline) {
        var count: Int?
        var windows: [ArrayWindow] = []
        for selector in segments[frame.selector] {
            windows.append(
                ArrayWindow.of(selector, arrayAt: frame.start, in: bytes, count: &count) ?? ArrayWindow(upper: 0))
        }
        frame.window = windows[0]
        frame.moreWindows = Array(windows.dropFirst())
    }

    /// Counts a selected node against the query's limits, as the tree's evaluation does.
    mutating func spend(_ nodes: Int = 1) throws(Decline) {
        guard limit == nil, let budget else { return }
        do {
            try budget.spend(nodes)
        } catch {
            limit = error
        }
    }

    // MARK: Tokens

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Skips a string literal, checking its escapes and that it has no control character.
    mutating func skipString() throws(Decline) {
        let opening = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\n") { throw failure("a line break inside a string (write \\n)") }
            if byte < 0x20 { throw failure("a control character inside a string") }
            index += 1
            guard byte == UInt8(ascii: "\\") else { continue }
            guard index < bytes.count else { break }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                index += 1
                for _ in 0..<4 {
                    guard index < bytes.count, RawJSON.hexValue(bytes[index]) != nil else {
                        throw failure("expected four hex digits after \\u, found \(shown)")
                    }
                    index += 1
                }
            default: throw failure("\\\(shown.dropFirst().dropLast()) is not a JSON escape")
            }
        }
        throw failure("the string that starts here is not closed", at: opening)
    }

    mutating func word(_ word: StaticString) throws(Decline) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(word), found \(shown)") }
            index += 1
        }
    }

    /// Skips a number, checked against JSON's grammar.
    mutating func number() throws(Decline) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, RawJSON.isDigit(bytes[index]) else {
            throw failure("expected a digit, found \(shown)")
        }
        let first = bytes[index]
        index += 1
        if first != UInt8(ascii: "0") { digits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, RawJSON.isDigit(bytes[index]) else {
                throw failure("expected a digit after '.', found \(shown)")
            }
            digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, RawJSON.isDigit(bytes[index]) else {
                throw failure("expected a digit in the exponent, found \(shown)")
            }
            digits()
        }
    }

    // MARK: Mistakes

    /// The character at the current position, as the tree's reader shows it in a message.
    var shown: String { JSONValue.SyntaxError.shown(at: index, in: bytes) }

    /// The document's mistake at `offset` (by default the current position), with its line
    /// and column as the tree's reader counts them (from after a byte order mark).
    func failure(_ message: String, at offset: Int? = nil) -> Decline {
        let end = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        guard let base = bytes.baseAddress else {
            return Decline(error: JSONValue.SyntaxError(line: line, column: column, message: message))
        }
        var offset = origin
        while offset < end {
            let byte = base[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        return Decline(error: JSONValue.SyntaxError(line: line, column: column, message: message))
    }

    mutating func digits() {
        while index < bytes.count, RawJSON.isDigit(bytes[index]) { index += 1 }
    }
}
