import Terminal

/// The command palette: a query line over the fuzzy-ranked rows, each with its kind, the
/// matched characters underlined, and the keys of a command on the right.
enum CommandPaletteView {
    static func render(_ palette: PaletteState, state: AppState, into grid: inout CellGrid) {
        let screen = grid.bounds
        let ranked = CommandPalette.ranked(state, palette)
        let total = CommandPalette.entries(state, palette).count
        let title =
            palette.offer.map { offer in
                offer.waiting.map { "\(offer.title) · \($0)" } ?? "\(offer.title) · \(ranked.count) of \(total)"
            }
            ?? "Command palette · \(ranked.count) of \(total)"
        var picker = Picker(
            title: title,
            items: CommandPalette.items(ranked), state: palette.list, filterable: true,
            width: min(96, screen.width - 2), height: CommandPalette.maximumRows + 3)
        picker.query = palette.query.text
        picker.render(into: &grid, area: screen)
    }
}
