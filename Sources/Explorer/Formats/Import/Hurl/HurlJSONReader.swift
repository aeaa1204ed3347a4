/// Checks a JSON body as Hurl reads it, to the position of its first error; `{{templates}}`
/// may stand for any value. Ends on the closing bracket of the top value.
struct HurlJSONReader {
    let lines: [Substring]
    /// The current line (0-based) and the column (0-based) of the next character.
    var line: Int
    var column: Int

    init(lines: [Substring], line: Int, column: Int) {
        self.lines = lines
        self.line = line
        self.column = column
    }

    /// The deepest nesting Hurl reads (its own hard limit), so a hostile body cannot exhaust the stack.
    static let maximumDepth = 128

    private var current: Character? {
        guard line < lines.count else { return nil }
        let text = lines[line]
        return column < text.count ? text[text.index(text.startIndex, offsetBy: column)] : "\n"
    }

    private func failure(_ message: String, title: String = "Parsing JSON") -> HurlParser.Failure {
        HurlParser.Failure(line: line + 1, column: column + 1, title: title, message: message)
    }

    /// What Hurl says where a value should be and is not.
    static let expectingValue = "expecting a boolean, number, string, array, object or null"

    private mutating func advance() {
        guard line < lines.count else { return }
        if column >= lines[line].count {
            line += 1
            column = 0
        } else {
            column += 1
        }
    }

    private mutating func skipSpace() {
        while let character = current, character == " " || character == "\t" || character == "\n" || character == "\r" {
            advance()
        }
    }

    /// Reads one value; leaves the position on its last character.
    mutating func value(depth: Int) throws {
        guard depth < Self.maximumDepth else {
            throw failure("maximum nesting depth of \(Self.maximumDepth) exceeded")
        }
        let before = (line, column)
        skipSpace()
        guard let character = current else {
            (line, column) = before
            throw failure("expecting an element; found empty element instead")
        }
        switch character {
        case "{" where next != "{": try container(close: "}", depth: depth, isObject: true)
        case "[": try container(close: "]", depth: depth, isObject: false)
        case "\"": try string()
        default: try scalar()
        }
    }

    /// The character after the current one on its line.
    private var next: Character? {
        guard line < lines.count, column + 1 < lines[line].count else { return nil }
        let text = lines[line]
        return text[text.index(text.startIndex, offsetBy: column + 1)]
    }

    private mutating func container(close: Character, depth: Int, isObject: Bool) throws {
        advance()
        skipSpace()
        if current == close { return }
        while true {
            if isObject {
                skipSpace()
                guard current == "\"" else { throw failure("expecting '\"'") }
                try string()
                advance()
                skipSpace()
                guard current == ":" else { throw failure("expecting ':'") }
                advance()
            }
            try value(depth: depth + 1)
            advance()
            skipSpace()
            if current == close { return }
            guard current == "," else { throw failure("expecting ',' or '\(close)'") }
            let comma = (line, column)
            advance()
            skipSpace()
            if current == close {
                (line, column) = comma
                throw failure("trailing comma is not allowed")
            }
        }
    }

    /// A string; leaves the position on the closing quote.
    private mutating func string() throws {
        advance()
        while let character = current {
            if character == "\n" { throw failure("expecting '\"'") }
            if character == "\\" {
                advance()
                guard let escaped = current, "\"\\/bfnrtu".contains(escaped) else {
                    throw failure("the escaping sequence is not valid")
                }
                if escaped == "u" { try unicodeEscape() }
            } else if character == "\"" {
                return
            }
            advance()
        }
        throw failure("expecting '\"'")
    }

    /// The four hex digits of a `\u` escape (the position on the `u`), and the low surrogate
    /// after a high one; leaves the position on the last digit.
    private mutating func unicodeEscape() throws {
        func hexDigits() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                advance()
                guard let digit = current, let number = digit.hexDigitValue else {
                    throw failure("expecting a valid hexadecimal number", title: "Parsing hexadecimal number")
                }
                value = value * 16 + UInt32(number)
            }
            return value
        }
        let code = try hexDigits()
        guard (0xD800...0xDFFF).contains(code) else { return }
        let invalid = { (reader: HurlJSONReader) in
            reader.failure("Invalid unicode literal", title: "Parsing unicode literal")
        }
        guard code <= 0xDBFF else { throw invalid(self) }
        advance()
        guard current == "\\" else { throw invalid(self) }
        advance()
        guard current == "u" else { throw invalid(self) }
        let digits = (line, column + 1)
        let low = try hexDigits()
        guard (0xDC00...0xDFFF).contains(low) else {
            (line, column) = digits
            throw invalid(self)
        }
    }

    /// A number, `true`, `false`, `null` or a `{{template}}`; leaves the position on its last character.
    private mutating func scalar() throws {
        guard let first = current else { throw failure(Self.expectingValue) }
        if first == "{" {
            // {{template}}
            var depth = 0
            while let character = current, character != "\n" {
                if character == "{" { depth += 1 }
                if character == "}" {
                    depth -= 1
                    if depth == 0 { return }
                }
                advance()
            }
            throw failure("expecting '}}'")
        }
        var word = ""
        let start = (line, column)
        while let character = current, character.isLetter || character.isNumber || "+-.eE".contains(character) {
            word.append(character)
            advance()
        }
        guard !word.isEmpty, ["true", "false", "null"].contains(word) || Double(word) != nil else {
            (line, column) = start
            throw failure(Self.expectingValue)
        }
        // Back onto the last character.
        if column == 0 {
            line -= 1
            column = lines[line].count
        } else {
            column -= 1
        }
    }
}
