/// The text and cursor of a one-line text field, with the editing a shell user expects.
///
/// The cursor counts grapheme clusters, so editing never splits an emoji or a letter with
/// its accent. Typed and pasted control characters are not stored: line breaks and tabs
/// become spaces, others are dropped.
package struct TextFieldState: Sendable, Hashable {
    /// The text.
    package private(set) var text: String
    /// The cursor, in grapheme clusters from the start (0...text.count).
    package private(set) var cursor: Int

    /// Creates a field with the cursor at the end.
    package init(_ text: String = "") {
        self.text = TextFieldState.clean(text)
        self.cursor = self.text.count
    }

    // MARK: - Editing

    /// Inserts text at the cursor (typing or pasting).
    package mutating func insert(_ string: String) {
        let clean = TextFieldState.clean(string)
        guard !clean.isEmpty else { return }
        let index = text.index(text.startIndex, offsetBy: cursor)
        let before = text.count
        text.insert(contentsOf: clean, at: index)
        // Counting the change (not `clean.count`) keeps the cursor right when the insertion
        // merges with a neighbour (a combining mark joining the letter before it).
        cursor += text.count - before
        cursor = min(max(0, cursor), text.count)
    }

    /// Deletes the character before the cursor.
    package mutating func deleteBackward() {
        guard cursor > 0 else { return }
        removeCharacters(in: (cursor - 1)..<cursor)
        cursor -= 1
    }

    /// Deletes the character after the cursor.
    package mutating func deleteForward() {
        guard cursor < text.count else { return }
        removeCharacters(in: cursor..<(cursor + 1))
    }

    /// Deletes from the start of the previous word to the cursor (Ctrl-W).
    package mutating func deleteWordBackward() {
        let start = wordStart(before: cursor)
        removeCharacters(in: start..<cursor)
        cursor = start
    }

    /// Deletes from the start to the cursor (Ctrl-U).
    package mutating func deleteToStart() {
        removeCharacters(in: 0..<cursor)
        cursor = 0
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    package mutating func deleteToEnd() {
        removeCharacters(in: cursor..<text.count)
    }

    /// Replaces all the text, cursor at the end.
    package mutating func setText(_ newText: String) {
        text = TextFieldState.clean(newText)
        cursor = text.count
    }

    // MARK: - Moving

    /// Moves the cursor by `delta` characters.
    package mutating func moveCursor(by delta: Int) {
        cursor = min(max(0, cursor + delta), text.count)
    }

    /// Moves to the start.
    package mutating func moveToStart() { cursor = 0 }

    /// Moves to the end.
    package mutating func moveToEnd() { cursor = text.count }

    /// Moves to the start of the previous word.
    package mutating func moveWordBackward() { cursor = wordStart(before: cursor) }

    /// Moves past the end of the next word.
    package mutating func moveWordForward() {
        let characters = Array(text)
        var i = cursor
        while i < characters.count, !TextFieldState.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, TextFieldState.isWordCharacter(characters[i]) { i += 1 }
        cursor = i
    }

    // MARK: - Keys

    /// Applies an editing key or paste; returns whether the field used it.
    ///
    /// Handles printable characters, Backspace, Delete, ←/→, Home/End, Ctrl-A/E, Ctrl-←/→
    /// and Alt-B/F (words), Ctrl-W, Ctrl-U, Ctrl-K and pastes.
    ///
    /// - Parameter event: the input event.
    /// - Returns: true when the event changed the field or its cursor.
    @discardableResult
    package mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .paste(let string):
            insert(string)
            return true
        case .key(let press):
            return handle(press)
        default:
            return false
        }
    }

    /// Applies an editing key; returns whether the field used it.
    @discardableResult
    package mutating func handle(_ press: KeyPress) -> Bool {
        let mods = press.modifiers.subtracting(.shift)
        switch (press.key, mods) {
        case (.character(let c), []):
            insert(String(c))
        case (.backspace, []), (.character("h"), .ctrl):
            deleteBackward()
        case (.backspace, .alt), (.character("w"), .ctrl):
            deleteWordBackward()
        case (.delete, []), (.character("d"), .ctrl):
            deleteForward()
        case (.left, []), (.character("b"), .ctrl):
            moveCursor(by: -1)
        case (.right, []), (.character("f"), .ctrl):
            moveCursor(by: 1)
        case (.left, .ctrl), (.left, .alt), (.character("b"), .alt):
            moveWordBackward()
        case (.right, .ctrl), (.right, .alt), (.character("f"), .alt):
            moveWordForward()
        case (.home, []), (.character("a"), .ctrl):
            moveToStart()
        case (.end, []), (.character("e"), .ctrl):
            moveToEnd()
        case (.character("u"), .ctrl):
            deleteToStart()
        case (.character("k"), .ctrl):
            deleteToEnd()
        default:
            return false
        }
        return true
    }

    // MARK: - Helpers

    private mutating func removeCharacters(in range: Range<Int>) {
        guard !range.isEmpty else { return }
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        text.removeSubrange(start..<end)
    }

    private func wordStart(before position: Int) -> Int {
        let characters = Array(text)
        var i = min(position, characters.count)
        while i > 0, !TextFieldState.isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0, TextFieldState.isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_"
    }

    static func clean(_ string: String) -> String {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D, 0x09: result.unicodeScalars.append(" ")
            case 0x00..<0x20, 0x7F...0x9F: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
