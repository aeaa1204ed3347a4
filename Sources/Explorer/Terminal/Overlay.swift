/// The box every modal is drawn in: a confirm dialog, a picker, the help.
package enum Overlay {
    /// Clears a centred box of the given size and draws its frame.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: the screen area to centre in.
    ///   - width: the box's outer width (cut to the area).
    ///   - height: the box's outer height (cut to the area).
    ///   - title: the frame's title.
    ///   - trailingTitle: text on the right of the top border (a count), or none.
    /// - Returns: the inside of the box.
    @discardableResult
    package static func frame(
        into grid: inout CellGrid, area: Rect, width: Int, height: Int, title: String, trailingTitle: [Span] = []
    ) -> Rect {
        let box = area.centered(width: width, height: height)
        grid.fill(box, style: Style(.overlay))
        return Block(
            title: title, trailingTitle: trailingTitle, focused: true, borders: .rounded, fill: Style(.overlay)
        ).render(into: &grid, area: box)
    }

    /// The widest box that leaves a column of the screen on each side, so the box reads as
    /// lying over the screen rather than replacing it.
    package static func maximumWidth(in area: Rect) -> Int { max(1, area.width - 2) }

    /// The tallest box that leaves a row of the screen above and below.
    package static func maximumHeight(in area: Rect) -> Int { max(1, area.height - 2) }

    /// Text drawn in a box: plain text takes the box's role, so the box's background shows
    /// behind it in every theme.
    package static func characters(_ spans: [Span]) -> [StyledCharacter] {
        Sanitizer.characters(spans).map { item in
            var item = item
            if item.style.role == .text { item.style.role = .overlay }
            return item
        }
    }

    /// Draws key hints on one row: the key in bold, then what it does (`y send   n cancel`).
    static func hints(_ hints: [KeyHint], into grid: inout CellGrid, row: Rect) {
        var x = row.x
        for hint in hints {
            x = grid.put(hint.key, x: x, y: row.y, style: Style(.statusKey, [.bold]), clip: row)
            x = grid.put(" " + hint.label + "   ", x: x, y: row.y, style: Style(.overlay), clip: row)
        }
    }
}
