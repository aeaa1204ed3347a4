import Terminal

/// The three lists of the left column: environments, endpoints (a folder tree) and history.
enum ListPanes {
    static func renderEnvironments(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let items = state.environments.enumerated().map { index, environment -> ListItem in
            let active = index == state.activeEnvironment
            var trailing: [Span] = []
            if environment.isProtected { trailing.append(Span("protected", role: .protectedBadge)) }
            if state.isMockEnvironment(index), let port = state.mock?.port {
                trailing.append(Span("port \(port)", role: .dim))
            }
            return ListItem(
                [
                    Span(active ? "● " : "  ", role: .environment),
                    Span(environment.name, Style(active ? .environment : .text, active ? .bold : [])),
                ],
                trailing: trailing)
        }
        let focused = state.focus == .environments
        let inner = Block(
            title: "Environments", trailingTitle: filterTitle(state.environmentList.filter), focused: focused
        ).render(into: &grid, area: area)
        ListView(
            items: items, state: state.environmentList, focused: focused,
            emptyText: state.collectionIsReading == nil ? "No environments" : "Reading…"
        ).render(into: &grid, area: inner)
    }

    static func renderEndpoints(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let focused = state.focus == .endpoints
        let count = state.endpointCount
        let visible = state.visibleEndpointRows
        // With a filter on, how many it lets through of how many: the count matches the rows.
        let shown =
            state.endpointList.filter.isEmpty ? count : visible.count { state.endpointRows[$0].endpoint != nil }
        let inner = Block(
            title: "Endpoints",
            // While the collection is read there is no count yet (a "0" would say it is empty).
            trailingTitle: state.collectionIsReading != nil
                ? []
                : filterTitle(state.endpointList.filter) + [
                    Span(shown == count ? " \(count) " : " \(shown) of \(count) ", role: .dim)
                ],
            focused: focused
        ).render(into: &grid, area: area)
        let emptyText = state.collectionIsReading.map { "Reading \(Sanitizer.sanitize($0))…" } ?? "No endpoints"
        // Only the rows on screen are made into items: the filter has already chosen them (each
        // item's filter text is the filter itself, which every word of it matches), and the
        // list is given the window with its selection.
        var window = state.endpointList
        let top = window.visibleOffset(height: inner.height, count: visible.count)
        let rows = visible[min(top, visible.count)..<min(visible.count, top + max(0, inner.height))]
        let items = rows.map { index in
            let item = state.endpointItem(state.endpointRows[index])
            return ListItem(item.spans, trailing: item.trailing, filterText: state.endpointList.filter)
        }
        window.offset = 0
        window.selected = min(max(0, window.selected), max(0, visible.count - 1)) - top
        ListView(items: items, state: window, focused: focused, emptyText: emptyText).render(into: &grid, area: inner)
    }

    static func renderHistory(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let focused = state.focus == .history
        let inner = Block(
            title: state.historyOfEveryCollection ? "History (all)" : "History",
            trailingTitle: filterTitle(state.historyList.filter), focused: focused
        ).render(into: &grid, area: area)
        ListView(
            items: state.historyItems(width: inner.width), state: state.historyList, focused: focused,
            emptyText: state.historyIsReading ? "Reading the history…" : "Nothing sent yet"
        ).render(into: &grid, area: inner)
    }

    private static func filterTitle(_ filter: String) -> [Span] {
        filter.isEmpty ? [] : [Span(" /\(Sanitizer.sanitize(filter)) ", role: .searchMatch)]
    }
}
