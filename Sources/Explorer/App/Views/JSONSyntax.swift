import Foundation
import Terminal

/// Colours a line of JSON as it is typed (the text is checked by `JSONValue(parsing:)`, which
/// says where the first mistake is).
enum JSONSyntax {
    // MARK: - Colours

    /// One line of JSON as spans: keys, strings, numbers, literals and punctuation in their
    /// roles, `{{variables}}` inside strings marked. Works line by line (a string does not
    /// span lines in JSON).
    static func highlight(_ line: String) -> [Span] {
        var spans: [Span] = []
        let characters = Array(line)
        var index = 0
        func push(_ text: String, _ role: Role) {
            if let last = spans.last, last.style == Style(role) {
                spans[spans.count - 1].text += text
            } else {
                spans.append(Span(text, role: role))
            }
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
        var name: String? {
            isVariable ? String(text.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces) : nil
        }
    }

    static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex {
                pieces.append(Piece(text: String(rest[..<open.lowerBound]), isVariable: false))
            }
            pieces.append(Piece(text: String(rest[open.lowerBound..<close.upperBound]), isVariable: true))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(Piece(text: String(rest), isVariable: false)) }
        return pieces
    }
}
