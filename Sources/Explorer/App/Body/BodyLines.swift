import Foundation
import Terminal
import Workspace

#if canImport(Glibc)
import Glibc
#endif

/// The lines a body shows, found without laying the shown text out in memory where that can
/// be avoided: a body's own lines and its pretty-printed JSON are read from its bytes (in
/// memory, or mapped from its spool file) when drawn, through a sparse index built as the
/// bytes arrive.
enum BodyLines: Sendable {
    /// Text laid out in memory: XML and HTML indented, other charsets converted, event views.
    case laidOut(LineIndex)
    /// JSON, pretty-printed line by line from the body's bytes.
    case prettyJSON(PrettyJSONLines)
    /// The body's own lines, shown as they are (UTF-8 text).
    case raw(RawLines)

    static let empty = BodyLines.laidOut(LineIndex([UInt8]()))

    var lineCount: Int {
        switch self {
        case .laidOut(let index): index.lineCount
        case .prettyJSON(let lines): lines.lineCount
        case .raw(let lines): lines.lineCount
        }
    }

    /// A line as text (invalid UTF-8 as U+FFFD), at most `maxBytes`, cut on a character boundary.
    func line(_ index: Int, maxBytes: Int = .max) -> String {
        switch self {
        case .laidOut(let lines): lines.line(index, maxBytes: maxBytes)
        case .prettyJSON(let lines): lines.line(index, maxBytes: maxBytes)
        case .raw(let lines): lines.line(index, maxBytes: maxBytes)
        }
    }

    /// Every line that contains `needle`, compared ASCII case-insensitively, in order.
    func lines(containing needle: String) -> [Int] {
        switch self {
        case .laidOut(let lines): lines.lines(containing: needle)
        case .prettyJSON(let lines): lines.lines(containing: needle)
        case .raw(let lines): lines.lines(containing: needle)
        }
    }

    /// Each line's shape, in order, for folding: its indentation and its first and last bytes
    /// other than spaces (0 for a blank line).
    func forEachShape(_ body: (_ line: Int, _ indent: Int, _ first: UInt8, _ last: UInt8) -> Void) {
        withoutActuallyEscaping(body) { body in forEachShape(into: LineShapes(body)) }
    }

    private func forEachShape(into shapes: LineShapes) {
        var shapes = shapes
        switch self {
        case .laidOut(let index):
            for line in 0..<index.lineCount {
                for byte in index.bytes[index.range(ofLine: line)] { shapes.emit(byte) }
                shapes.lineBreak(JSONPrettyPrinter.Mark.start)
            }
        case .prettyJSON(let lines):
            lines.print(from: 0, into: &shapes)
            shapes.lineBreak(JSONPrettyPrinter.Mark.start)
        case .raw(let lines):
            for line in 0..<lines.lineCount {
                for byte in lines.line(line).utf8 { shapes.emit(byte) }
                shapes.lineBreak(JSONPrettyPrinter.Mark.start)
            }
        }
    }
}

/// How much of a body a whole pass reads before letting a spooled body's pages go.
private let passWindow = 16 << 20

/// Pretty-printed JSON whose lines are printed again from the body's bytes when asked for:
/// the printer's state is kept every `stride` lines, so a line costs at most `stride` lines of
/// printing, and the index costs 16 bytes per `stride` lines instead of the printed text
/// and 8 bytes a line.
struct PrettyJSONLines: Sendable {
    static let stride = 64

    /// The JSON as received (in memory or mapped from its spool file).
    let bytes: Data
    /// The printer's state at lines 0, `stride`, 2 × `stride`, …
    let marks: [JSONPrettyPrinter.Mark]
    let lineCount: Int

    /// Indexes JSON as it arrives, one chunk at a time.
    struct Builder: Sendable {
        private(set) var marks: [JSONPrettyPrinter.Mark] = [.start]
        private(set) var lineCount = 1
        private(set) var byteCount = 0
        private var state = JSONPrettyPrinter.State()

        /// Whether the text proved not to be JSON (a bracket closed that was never opened).
        var failed: Bool { state.failed }
        /// Whether everything opened was closed.
        var isBalanced: Bool { state.isBalanced }

        mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
            guard !state.failed else { return }
            var sink = Counter(marks: marks, lineCount: lineCount)
            marks = []  // the sink holds the only copy while it appends
            state.print(chunk, base: byteCount, into: &sink)
            marks = sink.marks
            lineCount = sink.lineCount
            byteCount += chunk.count
        }

        mutating func consume(_ chunk: Data) {
            chunk.withUnsafeBytes { consume($0.bindMemory(to: UInt8.self)) }
        }

        /// The lines of `bytes`, which must be what was consumed (or more).
        func lines(of bytes: Data) -> PrettyJSONLines {
            PrettyJSONLines(bytes: bytes, marks: marks, lineCount: lineCount)
        }

        private struct Counter: JSONPrettyPrinter.Sink {
            var marks: [JSONPrettyPrinter.Mark]
            var lineCount: Int
            var isDone: Bool { false }
            func emit(_ byte: UInt8) {}
            func indent(_ count: Int) {}
            mutating func lineBreak(_ mark: JSONPrettyPrinter.Mark) {
                if lineCount % PrettyJSONLines.stride == 0 { marks.append(mark) }
                lineCount += 1
            }
        }
    }

    /// Prints from the mark of line `line`'s stride onwards into `sink`, a window at a time;
    /// the pages of a spooled body are let go behind it.
    fileprivate func print<S: JSONPrettyPrinter.Sink>(from line: Int, into sink: inout S) {
        let mark = marks[min(max(0, line) / Self.stride, marks.count - 1)]
        bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var (state, offset) = JSONPrettyPrinter.State.resuming(at: mark, in: buffer, into: &sink)
            while offset < buffer.count, !state.failed, !sink.isDone {
                let end = min(buffer.count, offset + passWindow)
                state.print(UnsafeBufferPointer(rebasing: buffer[offset..<end]), base: offset, into: &sink)
                if end - offset == passWindow { MappedFilePages.release(of: raw, offset..<end) }
                offset = end
            }
        }
    }

    func line(_ index: Int, maxBytes: Int = .max) -> String {
        guard index >= 0, index < lineCount else { return "" }
        var sink = LineCollector(skip: index % Self.stride, maxBytes: maxBytes)
        print(from: index, into: &sink)
        return sink.text
    }

    func lines(containing needle: String) -> [Int] {
        guard var sink = LineSearch(needle) else { return [] }
        print(from: 0, into: &sink)
        sink.lineBreak(JSONPrettyPrinter.Mark.start)
        return sink.matches
    }
}

/// One printed line, `skip` lines after where printing starts, at most `maxBytes`.
private struct LineCollector: JSONPrettyPrinter.Sink {
    var skip: Int
    let maxBytes: Int
    var bytes: [UInt8] = []
    var isDone = false

    init(skip: Int, maxBytes: Int) {
        self.skip = skip
        self.maxBytes = maxBytes
    }

    mutating func emit(_ byte: UInt8) {
        guard skip == 0, !isDone else { return }
        // One byte past the cut, to see whether the cut splits a character.
        if bytes.count <= maxBytes { bytes.append(byte) } else { isDone = true }
    }

    mutating func indent(_ count: Int) {
        for _ in 0..<count { emit(0x20) }
    }

    mutating func lineBreak(_ mark: JSONPrettyPrinter.Mark) {
        if skip == 0 { isDone = true } else if !isDone { skip -= 1 }
    }

    var text: String {
        var end = bytes.count
        if end > maxBytes {
            // Cut: back up over continuation bytes so a character is not split.
            end = maxBytes
            var back = 0
            while end > 0, back < 3, bytes[end] & 0xC0 == 0x80 {
                end -= 1
                back += 1
            }
        }
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }
}

/// The lines that contain a needle, ASCII case-insensitively, found as the lines go by (a
/// Knuth–Morris–Pratt matcher: each byte is looked at once, however long the line).
struct LineSearch: JSONPrettyPrinter.Sink {
    private let pattern: [UInt8]
    private let failure: [Int]
    private var matched = 0
    private var found = false
    private var line = 0
    private(set) var matches: [Int] = []
    var isDone: Bool { false }

    init?(_ needle: String) {
        pattern = needle.utf8.map(LineIndex.lower)
        guard !pattern.isEmpty else { return nil }
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in 1..<max(1, pattern.count) {
            while k > 0 && pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        self.failure = failure
    }

    @inline(__always)
    mutating func emit(_ byte: UInt8) {
        guard !found else { return }
        let lower = LineIndex.lower(byte)
        while matched > 0 && pattern[matched] != lower { matched = failure[matched - 1] }
        if pattern[matched] == lower { matched += 1 }
        if matched == pattern.count {
            found = true
            matches.append(line)
        }
    }

    mutating func indent(_ count: Int) {
        // Only a needle that starts with spaces can match indentation.
        guard pattern[0] == 0x20 else {
            matched = 0
            return
        }
        for _ in 0..<count { emit(0x20) }
    }

    mutating func lineBreak(_ mark: JSONPrettyPrinter.Mark) {
        line += 1
        matched = 0
        found = false
    }

    /// Runs over text whose lines end at `\n`.
    ///
    /// Only the bytes that can matter are looked at one by one: with no partial match under
    /// way, `memchr` jumps to the needle's first byte (in either case) within the line, and a
    /// line that already matched is skipped to its end. A body without the needle is read at
    /// `memchr`'s speed, not a byte at a time.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        let first = Int32(pattern[0])
        let firstUpper = pattern[0] >= 0x61 && pattern[0] <= 0x7A ? Int32(pattern[0] - 32) : first
        var position = 0
        while position < count {
            let lineEnd = Self.offset(of: 0x0A, in: base, from: position, to: count) ?? count
            while position < lineEnd {
                if found {
                    position = lineEnd
                } else if matched == 0 {
                    // Nothing under way: the next place this line could match from, if any.
                    guard let next = Self.firstOf(first, firstUpper, in: base, from: position, to: lineEnd) else {
                        position = lineEnd
                        break
                    }
                    position = next
                }
                guard position < lineEnd else { break }
                emit(base[position])
                position += 1
            }
            guard position < count else { return }
            lineBreak(JSONPrettyPrinter.Mark.start)
            position += 1
        }
    }

    /// The offset from `base` of the first `byte` in `start..<end`, if any.
    private static func offset(of byte: Int32, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        memchr(base + start, byte, end - start).map {
            start + UnsafeRawPointer(base + start).distance(to: UnsafeRawPointer($0))
        }
    }

    /// The offset from `base` of the first of two bytes in `start..<end`, if any.
    private static func firstOf(_ a: Int32, _ b: Int32, in base: UnsafePointer<UInt8>, from start: Int, to end: Int)
        -> Int?
    {
        let hitA = offset(of: a, in: base, from: start, to: end)
        guard a != b else { return hitA }
        return offset(of: b, in: base, from: start, to: hitA ?? end) ?? hitA
    }
}

/// The shape of each line as it goes by, for folding.
private struct LineShapes: JSONPrettyPrinter.Sink {
    let body: (Int, Int, UInt8, UInt8) -> Void
    var line = 0
    var indent = 0
    var first: UInt8 = 0
    var last: UInt8 = 0
    var isDone: Bool { false }

    init(_ body: @escaping (Int, Int, UInt8, UInt8) -> Void) { self.body = body }

    mutating func emit(_ byte: UInt8) {
        if first == 0 {
            if byte == 0x20 {
                indent += 1
                return
            }
            first = byte
        }
        if byte != 0x20 && byte != 0x0D { last = byte }
    }

    mutating func indent(_ count: Int) {
        if first == 0 { indent += count }
    }

    mutating func lineBreak(_ mark: JSONPrettyPrinter.Mark) {
        body(line, indent, first, last)
        line += 1
        indent = 0
        first = 0
        last = 0
    }
}

/// The lines of a body as it is, by a sparse index: the start of every `stride`-th line,
/// found with `memchr` as the bytes arrive; a line is found from the nearest one.
struct RawLines: Sendable {
    static let stride = 64

    let data: Data
    /// Where lines 0, `stride`, 2 × `stride`, … start.
    let marks: [Int]
    let lineCount: Int

    /// Indexes bytes as they arrive.
    struct Builder: Sendable {
        private(set) var marks = [0]
        private var breaks = 0
        private var byteCount = 0
        private var endsWithBreak = false

        mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
            guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
            var position = 0
            while position < chunk.count, let hit = memchr(base + position, 0x0A, chunk.count - position) {
                position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
                breaks += 1
                if breaks % RawLines.stride == 0 { marks.append(byteCount + position) }
            }
            byteCount += chunk.count
            endsWithBreak = chunk[chunk.count - 1] == 0x0A
        }

        mutating func consume(_ chunk: Data) {
            chunk.withUnsafeBytes { consume($0.bindMemory(to: UInt8.self)) }
        }

        /// The lines of `data`, which must be what was consumed.
        func lines(of data: Data) -> RawLines {
            // A body ending in a line break has no empty last line; an empty one has one line.
            let count = breaks + (endsWithBreak ? 0 : 1)
            var marks = marks
            if endsWithBreak, breaks % RawLines.stride == 0 { marks.removeLast() }
            return RawLines(data: data, marks: marks, lineCount: max(1, count))
        }
    }

    init(data: Data, marks: [Int], lineCount: Int) {
        self.data = data
        self.marks = marks
        self.lineCount = lineCount
    }

    /// Indexes all of `data` at once.
    init(_ data: Data) {
        var builder = Builder()
        builder.consume(data)
        self = builder.lines(of: data)
    }

    /// The byte range of a line, without its `\n` or `\r\n`.
    func range(ofLine index: Int) -> Range<Int> {
        guard index >= 0, index < lineCount else { return 0..<0 }
        return data.withUnsafeBytes { raw -> Range<Int> in
            guard let base = raw.baseAddress, raw.count > 0 else { return 0..<0 }
            var start = marks[index / Self.stride]
            for _ in 0..<(index % Self.stride) {
                guard let hit = memchr(base + start, 0x0A, raw.count - start) else { return raw.count..<raw.count }
                start = base.distance(to: UnsafeRawPointer(hit)) + 1
            }
            var end =
                start < raw.count
                ? memchr(base + start, 0x0A, raw.count - start).map { base.distance(to: UnsafeRawPointer($0)) }
                    ?? raw.count : raw.count
            if end > start, raw[end - 1] == 0x0D { end -= 1 }
            return start..<end
        }
    }

    func line(_ index: Int, maxBytes: Int = .max) -> String {
        let range = range(ofLine: index)
        var end = range.upperBound
        let base = data.startIndex
        if range.count > maxBytes {
            end = range.lowerBound + maxBytes
            var back = 0
            while end > range.lowerBound, back < 3, data[base + end] & 0xC0 == 0x80 {
                end -= 1
                back += 1
            }
        }
        return String(decoding: data[base + range.lowerBound..<base + end], as: UTF8.self)
    }

    func lines(containing needle: String) -> [Int] {
        guard var search = LineSearch(needle) else { return [] }
        data.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            for start in Swift.stride(from: 0, to: buffer.count, by: passWindow) {
                let end = min(buffer.count, start + passWindow)
                search.scan(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                MappedFilePages.release(of: raw, start..<end)
            }
        }
        return search.matches
    }
}
