/// A row of tab titles with one active: ` Body │ Headers │ Timing `; the active title is
/// bold as well as in its role, so it stands out in a theme without colours too.
package struct Tabs: Sendable {
    /// The titles.
    package var titles: [String]
    /// The active tab.
    package var selected: Int
    /// The separator between titles.
    package var separator: String

    /// Creates tabs.
    package init(titles: [String], selected: Int, separator: String = "│") {
        self.titles = titles
        self.selected = selected
        self.separator = separator
    }

    /// Draws the tabs on the first row of `area`.
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        var x = row.x
        for (i, title) in titles.enumerated() {
            if i > 0 { x = grid.put(separator, x: x, y: row.y, style: Style(.border), clip: row) }
            let style = i == selected ? Style(.tabActive, [.bold]) : Style(.tabInactive)
            x = grid.put(" " + title + " ", x: x, y: row.y, style: style, clip: row)
            if x >= row.maxX { break }
        }
    }

    /// The tab under column `x` of a row drawn in `area`, for mouse clicks.
    ///
    /// - Parameters:
    ///   - x: the clicked column.
    ///   - area: where the tabs were drawn.
    /// - Returns: the tab's index, or nil between or after the tabs.
    package func tab(atColumn x: Int, in area: Rect) -> Int? {
        var left = area.x
        let separatorWidth = DisplayWidth.of(separator)
        for (i, title) in titles.enumerated() {
            if i > 0 { left += separatorWidth }
            let width = DisplayWidth.of(title) + 2
            if x >= left, x < left + width { return i }
            left += width
        }
        return nil
    }
}
