/// The bottom line: key hints generated from a keymap, a message, and text on the right.
package struct StatusBar: Sendable {
    /// The hints, left to right; those that do not fit are dropped from the end.
    package var hints: [KeyHint]
    /// A message shown instead of the hints (an error, "Saved"); cut with `…` when too long.
    package var message: [Span]
    /// Text on the right (environment, spinner).
    package var trailing: [Span]

    /// Creates a status bar.
    package init(hints: [KeyHint], message: [Span] = [], trailing: [Span] = []) {
        self.hints = hints
        self.message = message
        self.trailing = trailing
    }

    /// Draws the bar on the first row of `area`.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: where the bar goes (only its first row is used).
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        let base = Style(.statusBar)
        grid.fill(row, style: base)
        let trailingWidth = DisplayWidth.of(trailing.plainText)
        var right = row.maxX
        if trailingWidth > 0, trailingWidth + 1 < row.width {
            right = row.maxX - trailingWidth - 1
            grid.put(trailing, x: right, y: row.y, clip: row)
        }
        let left = Rect(x: row.x, y: row.y, width: right - row.x, height: 1)
        var x = row.x + 1
        if !message.isEmpty {
            // A message too long for the row ends in `…`, so it never reads as complete.
            var characters = Sanitizer.characters(message)
            let room = max(0, left.maxX - x)
            if characters.reduce(0, { $0 + $1.width }) > room, room > 0 {
                var used = 0
                characters = Array(
                    characters.prefix { item in
                        used += item.width
                        return used <= room - 1
                    })
                characters.append(StyledCharacter("…", characters.last?.style ?? base))
            }
            grid.put(characters, x: x, y: row.y, clip: left)
            return
        }
        for hint in hints {
            let needed = DisplayWidth.of(hint.key) + 1 + DisplayWidth.of(hint.label)
            if x + needed > left.maxX { break }
            x = grid.put(hint.key, x: x, y: row.y, style: Style(.statusKey, [.bold]), clip: left)
            x = grid.put(" " + hint.label, x: x, y: row.y, style: base, clip: left)
            x += 2
        }
    }
}
