/// A table of rows under a header line: columns of styled cells, the selected row highlighted
/// across the full width, rows that are switched off drawn dim.
///
/// The first columns get the width they ask for (cut to what is left); the last takes the
/// rest. Cells longer than their column end in `…`.
package struct TableView: Sendable {
    /// One row: a cell per column and whether it is switched on.
    package struct Row: Sendable, Hashable {
        /// The cells, one per column.
        package var cells: [[Span]]
        /// A row that is off is drawn dim (and kept, not deleted).
        package var isEnabled: Bool

        /// Creates a row.
        package init(_ cells: [[Span]], isEnabled: Bool = true) {
            self.cells = cells
            self.isEnabled = isEnabled
        }
    }

    /// The column titles.
    package var headers: [String]
    /// The widths of every column but the last, which takes what is left.
    package var widths: [Int]
    /// The rows.
    package var rows: [Row]
    /// Selection and scroll offset (`filter` is not used).
    package var state: ListState
    /// Whether the table has focus.
    package var focused: Bool
    /// Shown under the header when there is no row.
    package var emptyText: String

    /// Creates a table.
    package init(
        headers: [String], widths: [Int], rows: [Row], state: ListState, focused: Bool = true,
        emptyText: String = "No rows"
    ) {
        self.headers = headers
        self.widths = widths
        self.rows = rows
        self.state = state
        self.focused = focused
        self.emptyText = emptyText
    }

    /// Draws the header on the first row of `area` and the rows below it, scrolled so the
    /// selection shows.
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let columns = columnRects(area.row(0))
        for (index, column) in columns.enumerated() where index < headers.count {
            grid.put(
                DisplayWidth.truncate(headers[index], to: column.width), x: column.x, y: column.y,
                style: Style(.dim, .bold), clip: column)
        }
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        guard !body.isEmpty else { return }
        guard !rows.isEmpty else {
            grid.put(
                DisplayWidth.truncate(emptyText, to: body.width), x: body.x, y: body.y, style: Style(.dim), clip: body)
            return
        }
        let top = state.visibleOffset(height: body.height, count: rows.count)
        let selected = min(max(0, state.selected), rows.count - 1)
        for line in 0..<body.height {
            let index = top + line
            guard index < rows.count else { break }
            let row = rows[index]
            let rect = body.row(line)
            let isSelected = index == selected
            if isSelected { grid.fill(rect, style: Style(focused ? .selection : .selectionInactive)) }
            for (column, cellRect) in columnRects(rect).enumerated() where column < row.cells.count {
                var characters = Block.fit(Sanitizer.characters(row.cells[column]), width: cellRect.width)
                for i in characters.indices {
                    if !row.isEnabled { characters[i].style = Style(.dim, characters[i].style.attributes) }
                    if isSelected {
                        characters[i].style = Style(
                            focused ? .selection : .selectionInactive, characters[i].style.attributes)
                    }
                }
                grid.put(characters, x: cellRect.x, y: cellRect.y, clip: cellRect)
            }
        }
    }

    /// The rectangles of the columns on one row, a space between two columns.
    private func columnRects(_ row: Rect) -> [Rect] {
        var rects: [Rect] = []
        var x = row.x
        let count = max(headers.count, widths.count + 1)
        for column in 0..<count {
            let width = column < widths.count ? min(widths[column], max(0, row.maxX - x)) : max(0, row.maxX - x)
            rects.append(Rect(x: x, y: row.y, width: width, height: 1))
            x = min(row.maxX, x + width + 1)
        }
        return rects
    }
}
