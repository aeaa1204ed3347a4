/// A multi-line text editor: line numbers, the lines in sight (styled by the caller, a
/// highlighter), a marked line (an error), and the terminal cursor when focused.
package struct TextEditor: Sendable {
    /// The text and cursor.
    package var state: TextEditorState
    /// Whether the editor has focus (the terminal cursor shows in it).
    package var focused: Bool
    /// A line to mark in the gutter (where an error is), or nil.
    package var markedLine: Int?

    /// Creates an editor view.
    package init(state: TextEditorState, focused: Bool = true, markedLine: Int? = nil) {
        self.state = state
        self.focused = focused
        self.markedLine = markedLine
    }

    /// Draws the lines in sight in `area`, each styled by `style`.
    ///
    /// Lines wider than the area scroll sideways with the cursor (on the cursor's line) and
    /// are cut (on the others).
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on; its `cursor` is set when focused.
    ///   - area: the editor's rectangle.
    ///   - style: the spans of a line (its index and text); plain text when not given.
    package func render(into grid: inout CellGrid, area: Rect, style: (Int, String) -> [Span] = { [Span($1)] }) {
        guard !area.isEmpty else { return }
        let gutter = ScrollText.gutterWidth(lineCount: state.lines.count, visible: true) + 1
        let text = Rect(x: area.x + gutter, y: area.y, width: max(0, area.width - gutter), height: area.height)
        let top = state.visibleTop(height: area.height)
        for row in 0..<area.height {
            let index = top + row
            guard index < state.lines.count else { break }
            let number = String(index + 1)
            let marked = index == markedLine
            let gutterText =
                String(repeating: " ", count: max(0, gutter - 2 - number.count)) + number + (marked ? "▶" : " ")
            grid.put(gutterText, x: area.x, y: area.y + row, style: Style(marked ? .error : .dim), clip: area)
            let characters = Sanitizer.characters(style(index, state.lines[index]))
            var scroll = 0
            if index == state.line {
                let beforeCursor = characters.prefix(state.column).reduce(0) { $0 + $1.width }
                scroll = max(0, beforeCursor - (text.width - 1))
                if focused { grid.cursor = Point(x: text.x + beforeCursor - scroll, y: area.y + row) }
            }
            grid.put(characters, x: text.x - scroll, y: area.y + row, clip: text)
        }
    }
}
