import Foundation
import Terminal

/// Checks JSON text as it is typed, saying where the first mistake is (line and column, as
/// the editor counts them) and what was expected there; and colours a line of JSON.
enum JSONSyntax {
    /// The first mistake in a JSON text.
    struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line.
        var line: Int
        /// 1-based column, in characters.
        var column: Int
        /// What is wrong.
        var message: String

        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Deeper nesting than this is refused rather than risking the stack.
    static let maximumDepth = 512

    /// The first mistake in `text`, or nil when it is one JSON value (whitespace around it).
    static func check(_ text: String) -> Failure? {
        var reader = Reader(Array(text.unicodeScalars))
        do {
            reader.skipSpace()
            try reader.value(depth: 0)
            reader.skipSpace()
            if !reader.atEnd { throw reader.failure("unexpected \(reader.shown) after the end of the JSON value") }
            return nil
        } catch let failure as Failure {
            return failure
        } catch {
            return Failure(line: 1, column: 1, message: String(describing: error))
        }
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var column = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }
        var shown: String {
            guard let current else { return "the end of the text" }
            return current.value < 0x20 ? "a control character" : "'\(Character(current))'"
        }

        func failure(_ message: String) -> Failure { Failure(line: line, column: column, message: message) }

        mutating func advance() {
            guard let scalar = current else { return }
            index += 1
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }

        mutating func skipSpace() {
            while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { advance() }
        }

        mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws {
            guard current == scalar else { throw failure("expected \(what), found \(shown)") }
            advance()
        }

        mutating func value(depth: Int) throws {
            guard depth < JSONSyntax.maximumDepth else { throw failure("nested deeper than \(JSONSyntax.maximumDepth) levels") }
            switch current {
            case "{": try object(depth: depth)
            case "[": try array(depth: depth)
            case "\"": try string()
            case "t": try word("true")
            case "f": try word("false")
            case "n": try word("null")
            case let scalar? where scalar == "-" || ("0"..."9").contains(scalar): try number()
            default: throw failure("expected a value (an object, array, string, number, true, false or null), found \(shown)")
            }
        }

        mutating func object(depth: Int) throws {
            advance()
            skipSpace()
            if current == "}" { advance(); return }
            while true {
                guard current == "\"" else { throw failure("expected a key in double quotes, found \(shown)") }
                try string()
                skipSpace()
                try expect(":", "':' after the key")
                skipSpace()
                try value(depth: depth + 1)
                skipSpace()
                if current == "," {
                    advance()
                    skipSpace()
                    if current == "}" { throw failure("a trailing comma before '}'") }
                    continue
                }
                try expect("}", "',' or '}'")
                return
            }
        }

        mutating func array(depth: Int) throws {
            advance()
            skipSpace()
            if current == "]" { advance(); return }
            while true {
                try value(depth: depth + 1)
                skipSpace()
                if current == "," {
                    advance()
                    skipSpace()
                    if current == "]" { throw failure("a trailing comma before ']'") }
                    continue
                }
                try expect("]", "',' or ']'")
                return
            }
        }

        mutating func string() throws {
            let start = failure("")
            advance()
            while let scalar = current {
                switch scalar {
                case "\"":
                    advance()
                    return
                case "\\":
                    advance()
                    guard let escaped = current else { break }
                    if escaped == "u" {
                        advance()
                        for _ in 0..<4 {
                            guard let digit = current, digit.properties.isASCIIHexDigit else {
                                throw failure("expected four hex digits after \\u, found \(shown)")
                            }
                            advance()
                        }
                        continue
                    }
                    guard "\"\\/bfnrt".unicodeScalars.contains(escaped) else { throw failure("\\\(Character(escaped)) is not a JSON escape") }
                    advance()
                case "\n":
                    throw failure("a line break inside a string (write \\n)")
                default:
                    if scalar.value < 0x20 { throw failure("a control character inside a string") }
                    advance()
                }
            }
            throw Failure(line: start.line, column: start.column, message: "the string that starts here is not closed")
        }

        mutating func word(_ word: String) throws {
            for expected in word.unicodeScalars {
                guard current == expected else { throw failure("expected \(word), found \(shown)") }
                advance()
            }
        }

        mutating func number() throws {
            if current == "-" { advance() }
            guard let first = current, ("0"..."9").contains(first) else { throw failure("expected a digit, found \(shown)") }
            advance()
            if first != "0" { digits() }
            if current == "." {
                advance()
                guard let digit = current, ("0"..."9").contains(digit) else { throw failure("expected a digit after '.', found \(shown)") }
                digits()
            }
            if current == "e" || current == "E" {
                advance()
                if current == "+" || current == "-" { advance() }
                guard let digit = current, ("0"..."9").contains(digit) else { throw failure("expected a digit in the exponent, found \(shown)") }
                digits()
            }
        }

        mutating func digits() {
            while let scalar = current, ("0"..."9").contains(scalar) { advance() }
        }
    }

    // MARK: - Colours

    /// One line of JSON as spans: keys, strings, numbers, literals and punctuation in their
    /// roles, `{{variables}}` inside strings marked. Works line by line (a string does not
    /// span lines in JSON).
    static func highlight(_ line: String) -> [Span] {
        var spans: [Span] = []
        let characters = Array(line)
        var index = 0
        func push(_ text: String, _ role: Role) {
            if let last = spans.last, last.style == Style(role) { spans[spans.count - 1].text += text } else { spans.append(Span(text, role: role)) }
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                var end = index + 1
                while end < characters.count, characters[end] != "\"" { end += characters[end] == "\\" ? 2 : 1 }
                end = min(end + 1, characters.count)
                let text = String(characters[index..<end])
                var after = end
                while after < characters.count, characters[after] == " " { after += 1 }
                let role: Role = after < characters.count && characters[after] == ":" ? .jsonKey : .jsonString
                for piece in TemplateText.pieces(text) { push(piece.text, piece.isVariable ? .searchMatch : role) }
                index = end
            } else if character == "-" || character.isNumber {
                var end = index + 1
                while end < characters.count, characters[end].isNumber || ".eE+-".contains(characters[end]) { end += 1 }
                push(String(characters[index..<end]), .jsonNumber)
                index = end
            } else if character.isLetter {
                var end = index + 1
                while end < characters.count, characters[end].isLetter { end += 1 }
                let word = String(characters[index..<end])
                push(word, word == "null" ? .jsonNull : (word == "true" || word == "false") ? .jsonBool : .error)
                index = end
            } else {
                push(String(character), "{}[],:".contains(character) ? .jsonPunctuation : .text)
                index += 1
            }
        }
        return spans
    }
}

/// Text split into plain pieces and `{{variable}}` pieces, for highlighting templates.
enum TemplateText {
    struct Piece: Sendable, Hashable {
        var text: String
        var isVariable: Bool
        /// The variable's name, trimmed (nil for plain text).
        var name: String? { isVariable ? String(text.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces) : nil }
    }

    static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex { pieces.append(Piece(text: String(rest[..<open.lowerBound]), isVariable: false)) }
            pieces.append(Piece(text: String(rest[open.lowerBound..<close.upperBound]), isVariable: true))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(Piece(text: String(rest), isVariable: false)) }
        return pieces
    }
}
