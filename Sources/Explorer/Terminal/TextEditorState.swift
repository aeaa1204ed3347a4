/// The text and cursor of a multi-line text editor, with the keys a terminal user expects.
///
/// Lines are kept apart; the cursor is a line and a column counted in grapheme clusters. A
/// tab is typed as two spaces; other control characters are not stored.
package struct TextEditorState: Sendable, Hashable {
    /// The lines (at least one, possibly empty).
    package private(set) var lines: [String]
    /// The cursor's line.
    package private(set) var line: Int
    /// The cursor's column, in characters (0...lines[line].count).
    package private(set) var column: Int
    /// The first line shown; the view keeps the cursor in sight.
    package var topLine = 0

    /// Creates an editor on `text`, the cursor at its start.
    package init(_ text: String = "") {
        lines = TextEditorState.split(text)
        line = 0
        column = 0
    }

    /// The whole text, lines joined by `\n`.
    package var text: String { lines.joined(separator: "\n") }

    // MARK: - Editing

    /// Inserts text at the cursor (typing or pasting); line breaks split the line.
    package mutating func insert(_ string: String) {
        let pieces = TextEditorState.split(string)
        let current = Array(lines[line])
        let before = String(current[..<column])
        let after = String(current[column...])
        if pieces.count == 1 {
            lines[line] = before + pieces[0] + after
            column += pieces[0].count
            return
        }
        var replacement = [before + pieces[0]]
        replacement += pieces[1..<(pieces.count - 1)]
        replacement.append(pieces[pieces.count - 1] + after)
        lines.replaceSubrange(line...line, with: replacement)
        line += pieces.count - 1
        column = pieces[pieces.count - 1].count
    }

    /// Splits the line at the cursor, the new line indented as the current one.
    package mutating func newline() {
        let indent = String(lines[line].prefix { $0 == " " }.prefix(column))
        insert("\n" + indent)
    }

    /// Deletes the character before the cursor, joining with the line above at its start.
    package mutating func deleteBackward() {
        if column > 0 {
            var characters = Array(lines[line])
            characters.remove(at: column - 1)
            lines[line] = String(characters)
            column -= 1
        } else if line > 0 {
            column = lines[line - 1].count
            lines[line - 1] += lines[line]
            lines.remove(at: line)
            line -= 1
        }
    }

    /// Deletes the character after the cursor, joining with the line below at its end.
    package mutating func deleteForward() {
        if column < lines[line].count {
            var characters = Array(lines[line])
            characters.remove(at: column)
            lines[line] = String(characters)
        } else if line + 1 < lines.count {
            lines[line] += lines[line + 1]
            lines.remove(at: line + 1)
        }
    }

    /// Deletes from the cursor to the end of the line (Ctrl-K).
    package mutating func deleteToEndOfLine() {
        lines[line] = String(lines[line].prefix(column))
    }

    // MARK: - Moving

    /// Moves the cursor to a line and column (clamped).
    package mutating func moveTo(line newLine: Int, column newColumn: Int) {
        line = min(max(0, newLine), lines.count - 1)
        column = min(max(0, newColumn), lines[line].count)
    }

    /// Moves up or down by `delta` lines, keeping the column where the line allows.
    package mutating func moveLines(by delta: Int) {
        moveTo(line: line + delta, column: column)
    }

    /// Moves one character left or right, across line ends.
    package mutating func moveCharacter(by delta: Int) {
        if delta < 0 {
            if column > 0 {
                column -= 1
            } else if line > 0 {
                line -= 1
                column = lines[line].count
            }
        } else {
            if column < lines[line].count {
                column += 1
            } else if line + 1 < lines.count {
                line += 1
                column = 0
            }
        }
    }

    // MARK: - Keys

    /// Applies an editing key; returns whether the editor used it.
    ///
    /// Handles printable characters, Enter (a new line, indented), Tab (two spaces),
    /// Backspace, Delete, arrows, Home/End, Ctrl-A/E, PgUp/PgDn and Ctrl-K. Esc is left to
    /// the caller (it closes the editor).
    ///
    /// - Parameters:
    ///   - press: the key.
    ///   - pageHeight: how many lines PgUp/PgDn move.
    /// - Returns: true when the key changed the text or moved the cursor.
    @discardableResult
    package mutating func handle(_ press: KeyPress, pageHeight: Int = 10) -> Bool {
        let mods = press.modifiers.subtracting(.shift)
        switch (press.key, mods) {
        case (.character(let c), []): insert(String(c))
        case (.enter, []): newline()
        case (.tab, []): insert("  ")
        case (.backspace, []), (.character("h"), .ctrl): deleteBackward()
        case (.delete, []), (.character("d"), .ctrl): deleteForward()
        case (.left, []): moveCharacter(by: -1)
        case (.right, []): moveCharacter(by: 1)
        case (.up, []): moveLines(by: -1)
        case (.down, []): moveLines(by: 1)
        case (.home, []), (.character("a"), .ctrl): column = 0
        case (.end, []), (.character("e"), .ctrl): column = lines[line].count
        case (.pageUp, []): moveLines(by: -pageHeight)
        case (.pageDown, []): moveLines(by: pageHeight)
        case (.home, .ctrl): moveTo(line: 0, column: 0)
        case (.end, .ctrl): moveTo(line: lines.count - 1, column: lines[lines.count - 1].count)
        case (.character("k"), .ctrl): deleteToEndOfLine()
        default: return false
        }
        return true
    }

    /// The first line to show in `height` rows so the cursor shows, moving `topLine` as
    /// little as possible.
    package func visibleTop(height: Int) -> Int {
        guard height > 0 else { return 0 }
        var top = min(max(0, topLine), max(0, lines.count - 1))
        if line < top { top = line }
        if line >= top + height { top = line - height + 1 }
        return top
    }

    /// Keeps `topLine` so the cursor shows in `height` rows.
    package mutating func scrollToCursor(height: Int) {
        topLine = visibleTop(height: height)
    }

    private static func split(_ text: String) -> [String] {
        var lines = [""]
        var afterReturn = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where afterReturn: break  // the LF of a CR LF
            case 0x0A, 0x0D: lines.append("")
            case 0x09: lines[lines.count - 1] += "  "
            case 0x00..<0x20, 0x7F...0x9F: break
            default: lines[lines.count - 1].unicodeScalars.append(scalar)
            }
            afterReturn = scalar.value == 0x0D
        }
        return lines
    }
}
