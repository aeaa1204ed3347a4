/// The key help: every binding of a keymap, `key  what it does`, in as many columns as the
/// screen's height needs so that every key shows without scrolling.
package struct HelpOverlay: Sendable {
    /// The box's title.
    package var title: String
    /// The lines: key names and what they do.
    package var lines: [KeyHint]
    /// A line under the keys, after a blank row ("Esc closes this help."), or nil.
    package var footer: String?

    /// The widest a key column gets; longer key names are cut.
    static let maximumKeyWidth = 20
    /// The narrowest a column gets before labels are cut harder.
    static let minimumColumnWidth = 20
    /// The gap between two columns.
    static let gap = 2

    /// Creates the help overlay.
    package init(title: String = "Keys", lines: [KeyHint], footer: String? = nil) {
        self.title = title
        self.lines = lines
        self.footer = footer
    }

    /// Draws the help centred in `area`; labels that do not fit their column end in `…`, and
    /// when even the columns do not fit (a tiny screen) the top border counts the keys left out.
    package func render(into grid: inout CellGrid, area: Rect) {
        let footerRows = footer == nil ? 0 : 2
        let keyWidth = min(Self.maximumKeyWidth, lines.map { DisplayWidth.of($0.key) }.max() ?? 0)
        let entryWidth = keyWidth + 2 + (lines.map { DisplayWidth.of($0.label) }.max() ?? 0)
        // Rows first: the box may take the whole height; columns follow from them.
        let rows = max(1, Overlay.maximumHeight(in: area) - 2 - footerRows)
        let columns = max(1, (lines.count + rows - 1) / rows)
        let perColumn = max(1, (lines.count + columns - 1) / columns)
        let room = Overlay.maximumWidth(in: area) - 4 - (columns - 1) * Self.gap
        let columnWidth = min(entryWidth, max(Self.minimumColumnWidth, room / columns))
        let footerWidth = footer.map { DisplayWidth.of($0) } ?? 0
        let width = max(columns * columnWidth + (columns - 1) * Self.gap, footerWidth, DisplayWidth.of(title) + 2) + 4
        let box = area.centered(width: min(width, Overlay.maximumWidth(in: area)), height: min(perColumn + footerRows + 2, Overlay.maximumHeight(in: area)))
        let text = Block.inner(box).inset(left: 1, right: 1)
        let shown = lines.indices.filter { index in
            index % perColumn < text.height - footerRows && text.x + index / perColumn * (columnWidth + Self.gap) < text.maxX
        }
        let hidden = lines.count - shown.count
        Overlay.frame(into: &grid, area: area, width: box.width, height: box.height, title: title,
                      trailingTitle: hidden > 0 ? [Span("+\(hidden) more", role: .dim)] : [])
        for index in shown {
            let hint = lines[index]
            let column = index / perColumn, row = index % perColumn
            let x = text.x + column * (columnWidth + Self.gap)
            let cell = Rect(x: x, y: text.y + row, width: min(columnWidth, text.maxX - x), height: 1).intersection(text)
            let key = DisplayWidth.pad(DisplayWidth.truncate(hint.key, to: keyWidth), to: keyWidth)
            let after = grid.put(key, x: cell.x, y: cell.y, style: Style(.statusKey, [.bold]), clip: cell)
            let label = DisplayWidth.truncate(hint.label, to: max(0, cell.maxX - after - 2))
            grid.put("  " + label, x: after, y: cell.y, style: Style(.overlay), clip: cell)
        }
        if let footer, text.height >= 1 {
            grid.put(footer, x: text.x, y: text.maxY - 1, style: Style(.dim), clip: text.row(text.height - 1))
        }
    }
}
