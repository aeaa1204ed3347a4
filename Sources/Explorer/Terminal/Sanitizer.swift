/// A grapheme cluster ready to draw: visible, styled and measured.
package struct StyledCharacter: Sendable, Hashable {
    /// The grapheme cluster; never a control character.
    package var character: Character
    /// How it is drawn.
    package var style: Style
    /// Columns it takes (0, 1 or 2).
    package var width: Int

    /// Creates a styled character (the width is measured).
    package init(_ character: Character, _ style: Style) {
        self.character = character
        self.style = style
        self.width = DisplayWidth.of(character)
    }
}

/// Makes text from outside safe to draw: nothing it contains can reach the terminal raw.
///
/// ESC shows as `␛` (so `ESC [2J` reads `␛[2J`), other C0 and C1 controls, DEL and the
/// bidirectional overrides show as `\u{7}`-style escapes, a tab becomes spaces and invalid
/// UTF-8 becomes U+FFFD. Every text drawing path of `CellGrid` goes through it, so it is
/// the default, not an opt-in.
package enum Sanitizer {
    /// Spaces a tab becomes.
    package static let tabWidth = 4

    /// Text with every control character and escape made visible.
    ///
    /// - Parameter text: untrusted text.
    /// - Returns: text that is safe to write to a terminal.
    package static func sanitize<S: StringProtocol>(_ text: S) -> String {
        var needsWork = false
        for scalar in text.unicodeScalars where escape(for: scalar) != nil {
            needsWork = true
            break
        }
        guard needsWork else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if let replacement = escape(for: scalar) {
                result += replacement
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Bytes decoded as UTF-8 (invalid sequences become U+FFFD) and sanitized.
    ///
    /// - Parameter bytes: untrusted bytes.
    /// - Returns: text that is safe to write to a terminal.
    package static func sanitize<C: Collection>(bytes: C) -> String where C.Element == UInt8 {
        sanitize(String(decoding: bytes, as: UTF8.self))
    }

    /// The visible replacement of a scalar that must not reach the terminal, or nil when the
    /// scalar is safe as it is.
    ///
    /// - Parameter scalar: one Unicode scalar.
    /// - Returns: the replacement text.
    package static func escape(for scalar: Unicode.Scalar) -> String? {
        let v = scalar.value
        switch v {
        case 0x20..<0x7F:
            return nil
        case 0x1B:
            return "␛"
        case 0x09:
            return String(repeating: " ", count: tabWidth)
        case 0x00..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069,
            0x061C, 0xFFF9...0xFFFB:
            return "\\u{" + String(v, radix: 16, uppercase: true) + "}"
        default:
            return nil
        }
    }

    /// Styled text laid out as drawable characters: controls expanded into visible escapes
    /// in the `.escaped` role.
    ///
    /// - Parameter spans: the styled text.
    /// - Returns: one entry per grapheme cluster to draw.
    package static func characters(_ spans: [Span]) -> [StyledCharacter] {
        var result: [StyledCharacter] = []
        for span in spans { append(span.text, style: span.style, to: &result) }
        return result
    }

    /// Appends the drawable characters of `text` to `result`.
    ///
    /// - Parameters:
    ///   - text: the text, trusted or not.
    ///   - style: its style; escapes take the `.escaped` role.
    ///   - result: where the characters go.
    package static func append<S: StringProtocol>(_ text: S, style: Style, to result: inout [StyledCharacter]) {
        for character in text {
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
                result.append(StyledCharacter(character, style))
                continue
            }
            var safe = true
            for scalar in character.unicodeScalars where escape(for: scalar) != nil {
                safe = false
                break
            }
            if safe {
                result.append(StyledCharacter(character, style))
                continue
            }
            for scalar in character.unicodeScalars {
                if let replacement = escape(for: scalar) {
                    let escapedStyle = scalar.value == 0x09 ? style : Style(.escaped, style.attributes)
                    for c in replacement { result.append(StyledCharacter(c, escapedStyle)) }
                } else {
                    result.append(StyledCharacter(Character(scalar), style))
                }
            }
        }
    }
}
