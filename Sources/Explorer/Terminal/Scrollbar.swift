/// A vertical scroll indicator: a thumb on a track, sized by how much of the content shows.
struct Scrollbar: Sendable {
    /// Total rows (or lines) of content.
    package var total: Int
    /// Rows visible at once.
    package var visible: Int
    /// The first visible row.
    package var offset: Int

    /// Creates a scrollbar.
    package init(total: Int, visible: Int, offset: Int) {
        self.total = total
        self.visible = visible
        self.offset = offset
    }

    /// The thumb's first row and height within a track of `height` rows, or nil when all
    /// the content fits (no bar is drawn then).
    package func thumb(height: Int) -> (start: Int, length: Int)? {
        guard height > 0, total > visible, visible > 0 else { return nil }
        let length = max(1, min(height, height * visible / total))
        let maxOffset = max(1, total - visible)
        let start = min(height - length, (height - length) * min(max(0, offset), maxOffset) / maxOffset)
        return (start, length)
    }

    /// Draws the bar down the first column of `area` (usually a pane's right border).
    package func render(into grid: inout CellGrid, area: Rect) {
        guard let (start, length) = thumb(height: area.height) else { return }
        for row in 0..<area.height {
            let isThumb = row >= start && row < start + length
            grid.set(
                area.x, area.y + row, Cell(isThumb ? "┃" : "│", style: Style(isThumb ? .focusBorder : .border)))
        }
    }
}
