/// A box of entries that wrap at its width and scroll: the key help, the collection's problems.
///
/// Each entry is a lead (a key name; empty for plain text) in a column of its own and a text
/// that wraps beside it, its continuation rows under the text, not under the lead. Nothing is
/// cut: what does not fit the box's height is reached by scrolling, and the top border says
/// which rows are shown.
package struct TextPanel: Sendable {
    /// One entry: the lead column's text and the text that wraps beside it.
    package struct Entry: Sendable, Hashable {
        package var lead: [Span]
        package var text: [Span]

        /// Creates an entry.
        package init(lead: [Span] = [], text: [Span]) {
            self.lead = lead
            self.text = text
        }
    }

    /// The box's title.
    package var title: String
    /// The entries, in order.
    package var entries: [Entry]
    /// The keys shown on the last row (scroll, close).
    package var hints: [KeyHint]
    /// The first row shown (clamped to the last page when drawn).
    package var offset: Int
    /// The widest the box gets (the screen's width minus a column each side at most).
    package var maximumWidth: Int

    /// The widest the lead column gets; a longer lead wraps its text under it.
    static let maximumLeadWidth = 20

    /// Creates a panel.
    package init(title: String, entries: [Entry], hints: [KeyHint], offset: Int = 0, maximumWidth: Int = 100) {
        self.title = title
        self.entries = entries
        self.hints = hints
        self.offset = offset
        self.maximumWidth = maximumWidth
    }

    /// Where the panel goes in `area`: its box, its wrapped rows and how many of them show at
    /// once. The reducer calls it too, to clamp scrolling to what the view draws.
    package func layout(in area: Rect) -> (box: Rect, rows: [[StyledCharacter]], visible: Int) {
        let leadWidth = min(Self.maximumLeadWidth, entries.map { DisplayWidth.of($0.lead.plainText) }.max() ?? 0)
        let gap = leadWidth > 0 ? 2 : 0
        let widest = entries.map { DisplayWidth.of($0.text.plainText) }.max() ?? 0
        let hintWidth = hints.reduce(0) { $0 + DisplayWidth.of($1.key) + DisplayWidth.of($1.label) + 4 }
        // Room for the title beside the position it shows when it scrolls (` 476–500 of 500 `,
        // a digit more than the entries have, as wrapped rows may outnumber them).
        let digits = String(entries.count).count + 1
        let wanted = max(leadWidth + gap + widest, hintWidth, DisplayWidth.of(title) + 3 * digits + 12) + 4
        let width = max(1, min(wanted, maximumWidth, Overlay.maximumWidth(in: area)))
        let textWidth = max(1, width - 4 - leadWidth - gap)
        var rows: [[StyledCharacter]] = []
        for entry in entries {
            let lead = Overlay.characters(entry.lead)
            let wrapped = WordWrap.rows(Overlay.characters(entry.text), width: textWidth)
            let leadFits = lead.reduce(0) { $0 + $1.width } <= leadWidth
            if !leadFits { rows += WordWrap.rows(lead, width: max(1, width - 4)) }
            for (index, row) in (wrapped.isEmpty ? [[]] : wrapped).enumerated() {
                var line = index == 0 && leadFits ? lead : []
                let used = line.reduce(0) { $0 + $1.width }
                line += Array(repeating: StyledCharacter(" ", Style(.overlay)), count: max(0, leadWidth + gap - used))
                rows.append(line + row)
            }
        }
        let chrome = 2 + (hints.isEmpty ? 0 : 1)
        let height = min(Overlay.maximumHeight(in: area), rows.count + chrome)
        let box = area.centered(width: width, height: max(height, min(chrome + 1, Overlay.maximumHeight(in: area))))
        return (box, rows, max(0, box.height - chrome))
    }

    /// The largest offset that still fills the box (what scrolling down stops at).
    package func maximumOffset(in area: Rect) -> Int {
        let placed = layout(in: area)
        return max(0, placed.rows.count - placed.visible)
    }

    /// Draws the panel centred in `area`.
    package func render(into grid: inout CellGrid, area: Rect) {
        let placed = layout(in: area)
        let first = max(0, min(offset, placed.rows.count - placed.visible))
        let last = min(placed.rows.count, first + placed.visible)
        let position: [Span] =
            placed.rows.count > placed.visible
            ? [Span(" \(first + 1)–\(last) of \(placed.rows.count) ", role: .dim)] : []
        let inside = Overlay.frame(
            into: &grid, area: area, width: placed.box.width, height: placed.box.height,
            title: title, trailingTitle: position)
        let text = inside.inset(left: 1, right: 1)
        for (index, row) in placed.rows[first..<last].enumerated() where index < placed.visible {
            grid.put(row, x: text.x, y: text.y + index, clip: text)
        }
        if !hints.isEmpty, text.height > 0 {
            Overlay.hints(hints, into: &grid, row: text.row(text.height - 1))
        }
    }
}
