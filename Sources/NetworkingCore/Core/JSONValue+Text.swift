import Foundation

// MARK: - Reading JSON text

extension JSONValue {
    /// Where JSON text stops being JSON: the line and column (1-based, counting characters as
    /// Unicode scalars) of the first mistake, and what was expected there.
    public struct SyntaxError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
        /// 1-based line.
        public var line: Int
        /// 1-based column, in Unicode scalars.
        public var column: Int
        /// What is wrong, and what was expected instead.
        public var message: String
        /// Whether the text is refused for nesting deeper than the parser's `maximumDepth`
        /// (it may be valid JSON).
        public var isTooDeep = false

        /// Creates a syntax error.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// `line L, column C: message`.
        public var description: String { "line \(line), column \(column): \(message)" }
        public var errorDescription: String? { description }
    }

    /// Nesting deeper than this is refused rather than risking the stack.
    public static let defaultMaximumDepth = 512

    /// Parses JSON text (RFC 8259: any value, whitespace around it), keeping object members in
    /// their order and numbers as written.
    ///
    /// - Parameters:
    ///   - text: the JSON text.
    ///   - maximumDepth: how deeply arrays and objects may nest.
    /// - Throws: `SyntaxError` at the first mistake.
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(SyntaxError) {
        var text = text
        self = try text.withUTF8 { bytes in JSONParser.parse(bytes, maximumDepth: maximumDepth) }.get()
    }

    /// Parses a UTF-8 JSON document (a leading byte order mark is skipped), keeping object
    /// members in their order and numbers as written.
    ///
    /// - Parameters:
    ///   - data: the JSON document.
    ///   - maximumDepth: how deeply arrays and objects may nest.
    /// - Throws: `SyntaxError` at the first mistake.
    public init(parsing data: Data, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(SyntaxError) {
        // Read in place: a large body is not copied before it is parsed.
        self = try data.withUnsafeBytes { raw in
            var bytes = raw.bindMemory(to: UInt8.self)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(3)) }
            return JSONParser.parse(bytes, maximumDepth: maximumDepth)
        }.get()
    }
}

/// A recursive-descent JSON reader over UTF-8 bytes. Line and column are worked out only
/// when there is a mistake to report.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The document in `bytes`, or where it stops being JSON.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Result<
        JSONValue, JSONValue.SyntaxError
    > {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return Result { () throws(JSONValue.SyntaxError) -> JSONValue in try parser.document() }
    }

    mutating func document() throws(JSONValue.SyntaxError) -> JSONValue {
        skipSpace()
        let value = try value(depth: 0)
        skipSpace()
        if index < bytes.count { throw failure("unexpected \(shown) after the end of the JSON value") }
        return value
    }

    // MARK: Positions and messages

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The character at the current position, as a message shows it.
    var shown: String { JSONValue.SyntaxError.shown(at: index, in: bytes) }

    func failure(_ message: String, at offset: Int? = nil) -> JSONValue.SyntaxError {
        let end = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONValue.SyntaxError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONValue.SyntaxError) {
        guard current == byte else { throw failure("expected \(what), found \(shown)") }
        index += 1
    }

    // MARK: Values

    mutating func value(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        guard depth < maximumDepth else {
            var error = failure("nested deeper than \(maximumDepth) levels")
            error.isTooDeep = true
            throw error
        }
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case let byte? where byte == UInt8(ascii: "-") || isDigit(byte): return .number(try number())
        default:
            throw failure("expected a value (an object, array, string, number, true, false or null), found \(shown)")
        }
    }

    mutating func object(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1
        skipSpace()
        var members: [(key: String, value: JSONValue)] = []
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else {
                throw failure("expected a key in double quotes, found \(shown)")
            }
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"), "':' after the key")
            skipSpace()
            members.append((key: key, value: try value(depth: depth + 1)))
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") { throw failure("a trailing comma before '}'") }
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1
        skipSpace()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") { throw failure("a trailing comma before ']'") }
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(elements)
        }
    }

    /// A string literal; the bytes between escapes are copied as they are.
    mutating func string() throws(JSONValue.SyntaxError) -> String {
        let opening = index
        index += 1
        var text = ""
        var run = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[run..<index], as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[run..<index], as: UTF8.self)
                index += 1
                guard let escaped = current else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{08}"
                case UInt8(ascii: "f"): text += "\u{0C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"): text.unicodeScalars.append(try unicodeEscape())
                default:
                    index -= 1
                    throw failure("\\\(shown.dropFirst().dropLast()) is not a JSON escape")
                }
                run = index
            case UInt8(ascii: "\n"):
                throw failure("a line break inside a string (write \\n)")
            default:
                if byte < 0x20 { throw failure("a control character inside a string") }
                index += 1
            }
        }
        throw failure("the string that starts here is not closed", at: opening)
    }

    /// The scalar of `\uXXXX` (the `\u` read), joining a surrogate pair; a lone surrogate
    /// becomes U+FFFD.
    mutating func unicodeEscape() throws(JSONValue.SyntaxError) -> Unicode.Scalar {
        let unit = try hexQuad()
        if (0xD800..<0xDC00).contains(unit), bytes.count >= index + 6,
            bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        {
            let saved = index
            index += 2
            let low = try hexQuad()
            if (0xDC00..<0xE000).contains(low) {
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            index = saved
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    mutating func hexQuad() throws(JSONValue.SyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexValue(byte) else {
                throw failure("expected four hex digits after \\u, found \(shown)")
            }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    mutating func word(_ word: StaticString) throws(JSONValue.SyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard current == byte else { throw failure("expected \(word), found \(shown)") }
            index += 1
        }
    }

    /// A number's text, checked against JSON's grammar.
    mutating func number() throws(JSONValue.SyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("expected a digit, found \(shown)") }
        index += 1
        if first != UInt8(ascii: "0") { digits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, isDigit(digit) else {
                throw failure("expected a digit after '.', found \(shown)")
            }
            digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else {
                throw failure("expected a digit in the exponent, found \(shown)")
            }
            digits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func digits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

// MARK: - Writing JSON text

extension JSONValue: CustomStringConvertible {
    /// The value as JSON text: members in their order, numbers as their text.
    ///
    /// - Parameter pretty: puts each element and member on a line of its own, indented by two
    ///   spaces a level, with a space after `:`.
    /// - Returns: the text.
    public func serialized(pretty: Bool = false) -> String {
        if !pretty {
            // Compact text as UTF-8 bytes: three times faster than appending Strings (a
            // 13 KB document in 107 µs instead of 316 µs, release).
            var bytes: [UInt8] = []
            bytes.reserveCapacity(256)
            writeCompact(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        write(to: &out, pretty: pretty, depth: 0, flush: { _ in })
        return out
    }

    /// Writes the value as JSON text (`serialized(pretty:)`) a piece of about 64 KB at a time,
    /// so that a large value is never held as text whole.
    ///
    /// - Parameters:
    ///   - pretty: one element or member a line, indented by two spaces a level.
    ///   - write: receives the pieces, in order.
    public func write(pretty: Bool = false, to write: (String) -> Void) {
        let pieceSize = 1 << 16
        var out = ""
        out.reserveCapacity(pieceSize + 4096)
        self.write(to: &out, pretty: pretty, depth: 0) { buffer in
            guard buffer.utf8.count >= pieceSize else { return }
            write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        if !out.isEmpty { write(out) }
    }

    /// The value as compact JSON text (`serialized()`).
    public var description: String { serialized() }

    /// Appends the value to `out`, calling `flush` after each element and member.
    private func write(to out: inout String, pretty: Bool, depth: Int, flush: (inout String) -> Void) {
        let newline = pretty ? "\n" : ""
        let indent = pretty ? String(repeating: "  ", count: depth + 1) : ""
        let closing = pretty ? String(repeating: "  ", count: depth) : ""
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let value): out += JSONValue.quote(value)
        case .array(let values):
            if values.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            for (index, value) in values.enumerated() {
                out += indent
                value.write(to: &out, pretty: pretty, depth: depth + 1, flush: flush)
                out += (index < values.count - 1 ? "," : "") + newline
                flush(&out)
            }
            out += closing + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (index, member) in members.enumerated() {
                out += indent + JSONValue.quote(member.key) + (pretty ? ": " : ":")
                member.value.write(to: &out, pretty: pretty, depth: depth + 1, flush: flush)
                out += (index < members.count - 1 ? "," : "") + newline
                flush(&out)
            }
            out += closing + "}"
        }
    }

    private func writeCompact(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let value): JSONValue.quote(value, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.quote(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `quote(_:)` appended to UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - string: the text.
    ///   - out: the bytes the literal is appended to.
    package static func quote(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { quote($0, to: &out) }
    }

    /// Writes UTF-8 text as a JSON string literal: the runs of bytes that need no escape are
    /// copied whole (a long string is mostly one run), the others escaped one by one.
    static func quote(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            runStart = index + 1
            out.append(92)
            switch byte {
            case UInt8(ascii: "\""): out.append(34)
            case UInt8(ascii: "\\"): out.append(92)
            case UInt8(ascii: "\n"): out.append(110)
            case UInt8(ascii: "\r"): out.append(114)
            case UInt8(ascii: "\t"): out.append(116)
            default:
                out.append(contentsOf: [117, 48, 48])
                hex.withUTF8Buffer { digits in
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 15)])
                }
            }
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal for `string`, escaping what JSON requires (and no more: `/` and
    /// non-ASCII characters are written as they are).
    package static func quote(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count + 2)
        quote(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONValue.SyntaxError {
    /// The character at `index` of a JSON text, as a syntax error shows it: quoted, or what it
    /// is when it cannot be shown (the end of the text, a control character, a byte that is not
    /// UTF-8). The one wording of the tree's reader and of readers that stream over bytes.
    package static func shown(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard index < bytes.count else { return "the end of the text" }
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "a byte that is not UTF-8" }
        return scalar.value < 0x20 ? "a control character" : "'\(Character(scalar))'"
    }
}
