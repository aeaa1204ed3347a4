import Terminal

/// The command palette's keys: typing narrows the rows (fuzzy), ↑/↓ move, Enter jumps to the
/// endpoint, environment or history entry, or runs the command.
extension AppReducer {
    static func openPalette(_ state: inout AppState) {
        state.overlay = .palette(PaletteState())
    }

    static func handlePalette(_ press: KeyPress, _ palette: PaletteState, _ state: inout AppState) -> [AppEffect] {
        var palette = palette
        let count = CommandPalette.ranked(state, palette).count
        switch press.key {
        case .escape:
            state.overlay = nil
            return []
        case .enter:
            state.overlay = nil
            let ranked = CommandPalette.ranked(state, palette)
            guard ranked.indices.contains(palette.list.selected) else { return [] }
            return choose(ranked[palette.list.selected].entry.target, &state)
        case .up:
            palette.list.move(by: -1, count: count)
        case .down:
            palette.list.move(by: 1, count: count)
        case .pageUp:
            palette.list.move(by: -paletteHeight(state), count: count)
        case .pageDown:
            palette.list.move(by: paletteHeight(state), count: count)
        default:
            guard palette.query.handle(press) else { return [] }
            palette.list = ListState()
        }
        state.overlay = .palette(palette)
        return []
    }

    /// Pasted text goes into the palette's query.
    static func pasteIntoPalette(_ text: String, _ state: inout AppState) {
        guard case .palette(var palette) = state.overlay else { return }
        palette.query.insert(text)
        palette.list = ListState()
        state.overlay = .palette(palette)
    }

    /// About how many rows the palette shows (a page for PgUp/PgDn).
    private static func paletteHeight(_ state: AppState) -> Int {
        max(1, min(CommandPalette.maximumRows, state.size.height - 5))
    }

    private static func choose(_ target: PaletteEntry.Target, _ state: inout AppState) -> [AppEffect] {
        switch target {
        case .endpoint(let id):
            select(endpointID: id, &state)
        case .environment(let index):
            switchEnvironment(to: index, &state)
        case .history(let id):
            state.historyList.setFilter("")
            guard let index = state.history.firstIndex(where: { $0.id == id }) else { return [] }
            state.historyList.selected = index
            state.focus = .history
            state.lastList = .history
            return [.openHistory(id: id)]
        case .command(let command):
            return perform(command, &state)
        case .newGRPCCall(let offer):
            newGRPCEndpoint(offer, &state)
        case .newHTTPEndpoint:
            newHTTPEndpoint(&state)
        }
        return []
    }

    /// Selects an endpoint in the endpoints list (its filter cleared) and focuses the list.
    static func select(endpointID id: String, _ state: inout AppState) {
        state.endpointList.setFilter("")
        guard let row = state.endpointRows.firstIndex(where: { $0.endpoint?.id == id }) else { return }
        state.endpointList.selected = row
        state.focus = .endpoints
        state.lastList = .endpoints
    }
}
