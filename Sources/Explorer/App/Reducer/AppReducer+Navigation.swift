import Terminal

/// Moving around: the focus from pane to pane, the selection of the lists, scrolling and the
/// tabs of the response, the list filters, and the mouse.
extension AppReducer {
    // MARK: - Focus and tabs

    /// Tab and Shift-Tab: the focus moves to the next pane (or the previous one).
    static func cycleFocus(forward: Bool, _ state: inout AppState) {
        let panes = Pane.allCases
        let index = panes.firstIndex(of: state.focus)!
        state.focus = panes[(index + (forward ? 1 : panes.count - 1)) % panes.count]
        if [.environments, .endpoints, .history].contains(state.focus) { state.lastList = state.focus }
    }

    /// The response tab `step` tabs away, from the top of its text.
    static func cycleTab(_ step: Int, _ state: inout AppState) {
        let tabs = state.responseTabs
        let index = tabs.firstIndex(of: state.responseTab) ?? 0
        state.responseTab = tabs[(index + step + tabs.count) % tabs.count]
        state.body.text.scrollToTop()
    }

    /// ← and → on the response pane: the tabs when the body wraps or another tab is shown,
    /// else the body scrolls sideways.
    static func moveSideways(_ command: AppCommand, _ state: inout AppState) {
        guard state.focus == .response else { return }
        if state.body.text.wrap || state.responseTab != .body {
            cycleTab(command == .right ? 1 : -1, &state)
        } else {
            state.body.text.scrollHorizontally(by: command == .right ? 8 : -8)
        }
    }

    // MARK: - Moving and scrolling

    /// ↑ ↓, Page Up/Down, Home and End in the pane with the focus: the selection of a list or
    /// of the request editor's rows, or the response's text.
    static func move(_ command: AppCommand, _ state: inout AppState) -> [AppEffect] {
        let page = max(1, state.size.height - 8)
        let delta: Int
        switch command {
        case .up: delta = -1
        case .down: delta = 1
        case .pageUp: delta = -page
        case .pageDown: delta = page
        case .top: delta = Int.min / 2
        default: delta = Int.max / 2
        }
        switch state.focus {
        case .environments:
            let count = state.environmentList.visibleIndices(environmentItems(state)).count
            state.environmentList.move(by: delta, count: count)
        case .endpoints:
            let count = state.visibleEndpointRows.count
            state.endpointList.move(by: delta, count: count)
        case .history:
            let count = state.historyList.visibleIndices(count: state.history.count) { state.historyFilterTexts }.count
            state.historyList.move(by: delta, count: count)
            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
        case .request:
            moveRow(delta, &state)
        case .response where state.comparison != nil:
            let source = ResponseContent.comparisonSource(state.comparison!)
            state.comparison!.text.scroll(by: delta, source: source, width: state.size.width)
        case .response:
            let source = ResponseContent.source(for: state)
            let width = AppLayout(size: state.size, state: state).responseTextWidth(state: state, source: source)
            if command == .top {
                state.body.text.scrollToTop()
            } else if command == .bottom {
                state.body.text.scrollToBottom(
                    source: source, height: AppLayout(size: state.size, state: state).responseTextHeight)
            } else {
                state.body.text.scroll(by: delta, source: source, width: width)
            }
        }
        return []
    }

    // MARK: - List filters

    /// `/`: searches the body on the response pane, else filters the list with the focus (the
    /// endpoints when no list has it).
    static func startSearch(_ state: inout AppState) {
        if state.focus == .response {
            // A new search starts empty; ↑ brings back the earlier ones.
            state.input = TextInput(purpose: .bodySearch)
        } else {
            let pane = [.environments, .endpoints, .history].contains(state.focus) ? state.focus : .endpoints
            state.focus = pane
            state.lastList = pane
            state.input = TextInput(purpose: .listFilter(pane))
            setListFilter("", pane, &state)
        }
    }

    /// Narrows a list to the rows the text matches.
    static func setListFilter(_ text: String, _ pane: Pane, _ state: inout AppState) {
        switch pane {
        case .environments: state.environmentList.setFilter(text)
        case .history: state.historyList.setFilter(text)
        default:
            state.endpointList.setFilter(text)
            // Land on the best match: the endpoint named exactly so, else one whose name
            // starts with the text, else the first endpoint (never a folder heading).
            let visible = state.visibleEndpointRows
            let names = visible.map { state.endpointRows[$0].endpoint?.name.lowercased() }
            let wanted = text.lowercased()
            let best =
                names.firstIndex { $0 == wanted }
                ?? names.firstIndex { $0?.hasPrefix(wanted) == true }
                ?? names.firstIndex { $0?.contains(wanted) == true }
                ?? names.firstIndex { $0 != nil }
            if let best { state.endpointList.selected = best }
        }
    }

    // MARK: - Mouse

    /// A click focuses a pane (and selects a list's row); the wheel scrolls the pane under it.
    static func handleMouse(_ mouse: MouseEvent, _ state: inout AppState) -> [AppEffect] {
        guard state.overlay == nil, state.input == nil, state.compose.editor.bodyText == nil else { return [] }
        let layout = AppLayout(size: state.size, state: state)
        switch mouse.kind {
        case .press(.left):
            if let pane = layout.pane(at: mouse.position) {
                state.focus = pane
                if [.environments, .endpoints, .history].contains(pane) {
                    state.lastList = pane
                    if let row = layout.listRow(at: mouse.position, pane: pane, state: state) {
                        switch pane {
                        case .environments: state.environmentList.selected = row
                        case .endpoints: state.endpointList.selected = row
                        default:
                            state.historyList.selected = row
                            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
                        }
                    }
                }
            }
        case .wheelUp:
            if let pane = layout.pane(at: mouse.position) { state.focus = pane }
            return move(.up, &state) + move(.up, &state) + move(.up, &state)
        case .wheelDown:
            if let pane = layout.pane(at: mouse.position) { state.focus = pane }
            return move(.down, &state) + move(.down, &state) + move(.down, &state)
        default:
            break
        }
        return []
    }
}
