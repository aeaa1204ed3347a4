/// A one-line text input: scrolls sideways to keep the cursor in view, shows the
/// terminal cursor when focused.
package struct TextField: Sendable {
    /// The text and cursor.
    package var state: TextFieldState
    /// Whether the field has focus (the terminal cursor shows in it).
    package var focused: Bool
    /// Shown dim when the text is empty.
    package var placeholder: String
    /// The style of the text.
    package var style: Style
    /// Whether each character shows as `•` (a password being typed).
    package var masked: Bool

    /// Creates a text field.
    package init(
        state: TextFieldState, focused: Bool = true, placeholder: String = "", style: Style = Style(.input),
        masked: Bool = false
    ) {
        self.state = state
        self.focused = focused
        self.placeholder = placeholder
        self.style = style
        self.masked = masked
    }

    /// Draws the field on the first row of `area`.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on; its `cursor` is set when the field is focused.
    ///   - area: the field's rectangle.
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        grid.fill(row, style: style)
        if state.text.isEmpty {
            if !placeholder.isEmpty {
                grid.put(
                    DisplayWidth.truncate(placeholder, to: row.width), x: row.x, y: row.y, style: Style(.dim), clip: row
                )
            }
            if focused { grid.cursor = Point(x: row.x, y: row.y) }
            return
        }
        var characters: [StyledCharacter] = []
        Sanitizer.append(
            masked ? String(repeating: "•", count: state.text.count) : state.text, style: style, to: &characters)
        // Columns before the cursor, counted on the sanitized text: a stored character
        // is at most one grapheme, so the first `cursor` graphemes map one-to-one except
        // for escapes, which the state never stores.
        let beforeCursor = characters.prefix(state.cursor).reduce(0) { $0 + $1.width }
        let scroll = max(0, beforeCursor - (row.width - 1))
        grid.put(characters, x: row.x - scroll, y: row.y, clip: row)
        if focused { grid.cursor = Point(x: row.x + beforeCursor - scroll, y: row.y) }
    }
}
