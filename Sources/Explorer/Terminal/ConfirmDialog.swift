/// A message in a box with the keys that answer it: "Send DELETE to production? y send
/// n/Esc/Enter cancel", or a notice that only closes ("Esc closes"). It draws what it is given
/// and knows nothing of what an answer does.
package struct ConfirmDialog: Sendable {
    /// The box's title.
    package var title: String
    /// The message, one styled paragraph per element (an empty one is a blank row); each
    /// paragraph wraps at spaces to the box.
    package var message: [[Span]]
    /// The hints under the message (`y` confirm, `n` cancel), on as many rows as they need.
    package var hints: [KeyHint]
    /// Whether confirming is dangerous: the title shows as an error.
    package var destructive: Bool
    /// The widest the box grows before its paragraphs wrap (it never leaves the screen).
    package var maximumWidth: Int

    /// Creates a dialog with styled paragraphs.
    package init(title: String, message: [[Span]], hints: [KeyHint], destructive: Bool = false, maximumWidth: Int = 60)
    {
        self.title = title
        self.message = message
        self.hints = hints
        self.destructive = destructive
        self.maximumWidth = maximumWidth
    }

    /// Creates a dialog with a one-paragraph plain message.
    package init(title: String, message: String, hints: [KeyHint], destructive: Bool = false, maximumWidth: Int = 60) {
        self.init(
            title: title, message: [[Span(message)]], hints: hints, destructive: destructive, maximumWidth: maximumWidth
        )
    }

    /// Draws the dialog centred in `area`.
    package func render(into grid: inout CellGrid, area: Rect) {
        // As wide as the longest paragraph, the title or the hints need, up to the maximum.
        let hintWidth = hints.reduce(0) { $0 + DisplayWidth.of($1.key) + DisplayWidth.of($1.label) + 4 } - 3
        let contentWidth = max(
            26, DisplayWidth.of(title) + 2, hintWidth, message.map { DisplayWidth.of($0.plainText) }.max() ?? 0)
        let width = min(Overlay.maximumWidth(in: area), min(maximumWidth, contentWidth + 4))
        let rows = message.flatMap { paragraph -> [[StyledCharacter]] in
            paragraph.allSatisfy({ $0.text.isEmpty })
                ? [[]] : WordWrap.rows(Overlay.characters(paragraph), width: max(1, width - 4))
        }
        let hintRows = Self.rows(of: hints, width: max(1, width - 4))
        let height = min(Overlay.maximumHeight(in: area), rows.count + (hints.isEmpty ? 2 : 3 + hintRows.count))
        let inside = Overlay.frame(into: &grid, area: area, width: width, height: height, title: title)
        if destructive {
            let titleRow = Rect(x: inside.x, y: inside.y - 1, width: inside.width, height: 1)
            grid.put(" " + title + " ", x: inside.x, y: inside.y - 1, style: Style(.error, [.bold]), clip: titleRow)
        }
        let text = inside.inset(left: 1, right: 1)
        let shownHintRows = min(hintRows.count, text.height)
        let messageRows = text.height - shownHintRows
        for (i, row) in rows.enumerated() where i < messageRows {
            grid.put(row, x: text.x, y: text.y + i, clip: text)
        }
        for (i, hintRow) in hintRows.suffix(shownHintRows).enumerated() {
            Overlay.hints(hintRow, into: &grid, row: text.row(text.height - shownHintRows + i))
        }
    }

    /// The hints laid out in rows of `width`: as many on a row as fit whole, so that no hint is
    /// cut on a narrow screen (a hint wider than a row has a row of its own).
    static func rows(of hints: [KeyHint], width: Int) -> [[KeyHint]] {
        var rows: [[KeyHint]] = []
        var used = 0
        for hint in hints {
            let hintWidth = DisplayWidth.of(hint.key) + 1 + DisplayWidth.of(hint.label)
            if let last = rows.indices.last, used + 3 + hintWidth <= width {
                rows[last].append(hint)
                used += 3 + hintWidth
            } else {
                rows.append([hint])
                used = hintWidth
            }
        }
        return rows
    }
}
