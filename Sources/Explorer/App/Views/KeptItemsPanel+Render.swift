import Terminal

extension KeptItemsPanel {
    /// Draws the panel: a note while the entries are read, the problem, a note when there are
    /// none, else the list.
    ///
    /// - Parameters:
    ///   - title: the panel's title, with its keys.
    ///   - reading: the note while the entries are read.
    ///   - empty: the note when there are none.
    ///   - row: one entry's row.
    func render(title: String, reading: String, empty: String, into grid: inout CellGrid, row: (Item) -> ListItem) {
        guard let items else {
            ConfirmDialog(title: title, message: [[Span(reading, role: .dim)]], hints: []).render(
                into: &grid, area: grid.bounds)
            return
        }
        let closes = [KeyHint(key: "Esc", label: "closes")]
        if let problem {
            ConfirmDialog(
                title: title, message: [[Span(problem, role: .warning)]], hints: closes, maximumWidth: grid.bounds.width
            )
            .render(into: &grid, area: grid.bounds)
        } else if items.isEmpty {
            ConfirmDialog(title: title, message: [[Span(empty, role: .dim)]], hints: closes).render(
                into: &grid, area: grid.bounds)
        } else {
            Picker(title: title, items: items.map(row), state: list, filterable: false, minimumWidth: 60).render(
                into: &grid, area: grid.bounds)
        }
    }
}
