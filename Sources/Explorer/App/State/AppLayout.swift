import Terminal

/// Where each pane goes for a terminal size: wide (lists on the left, request and response on
/// the right) or narrow (one list, the request line and the response stacked).
///
/// Views draw into these rectangles and the reducer hit-tests mouse clicks against them, so
/// both always agree. Geometry, not a view: it lives beside the state, and the reducer never
/// calls into `Views/`.
struct AppLayout: Sendable {
    /// Below this width or height the panes stack.
    static let wideMinimum = Size(width: 80, height: 18)

    let header: Rect
    /// The line above the footer that keeps the collection's first problem in view (empty
    /// when the file has none).
    let problems: Rect
    let footer: Rect
    let environments: Rect
    let endpoints: Rect
    let history: Rect
    let request: Rect
    let response: Rect
    let isNarrow: Bool

    init(size: Size, state: AppState) {
        let screen = Rect(size: size)
        let rows = Layout.rows(screen, [.fixed(1), .fill, .fixed(state.problems.isEmpty ? 0 : 1), .fixed(1)])
        header = rows[0]
        problems = rows[2]
        footer = rows[3]
        let body = rows[1]
        isNarrow = size.width < Self.wideMinimum.width || size.height < Self.wideMinimum.height
        // An editor tab in use gets room: most of the right column, or of a narrow screen.
        let editing = state.focus == .request && state.compose.editor.tab != .preview
        if isNarrow, editing {
            let parts = Layout.rows(body, [.fill, .percent(30)])
            let empty = Rect(x: 0, y: 0, width: 0, height: 0)
            environments = empty
            endpoints = empty
            history = empty
            request = parts[0]
            response = parts[1]
        } else if isNarrow {
            let requestHeight = size.height >= 14 ? 3 : 0
            let parts = Layout.rows(body, [.percent(38), .fixed(requestHeight), .fill])
            let empty = Rect(x: 0, y: 0, width: 0, height: 0)
            environments = state.lastList == .environments ? parts[0] : empty
            endpoints = state.lastList == .endpoints ? parts[0] : empty
            history = state.lastList == .history ? parts[0] : empty
            request = parts[1]
            response = parts[2]
        } else {
            let leftWidth = max(28, min(44, size.width * 32 / 100))
            let columns = Layout.columns(body, [.fixed(leftWidth), .fill])
            let environmentHeight = min(max(state.environments.count, 1), 5) + 2
            let left = Layout.rows(columns[0], [.fixed(environmentHeight), .fill(3), .fill(2)])
            environments = left[0]
            endpoints = left[1]
            history = left[2]
            let requestHeight = editing ? max(5, body.height * 3 / 5) : min(10, max(5, body.height / 4))
            let right = Layout.rows(columns[1], [.fixed(requestHeight), .fill])
            request = right[0]
            response = right[1]
        }
    }

    /// The pane under a cell, if any.
    func pane(at point: Point) -> Pane? {
        let panes: [(Pane, Rect)] = [
            (.environments, environments), (.endpoints, endpoints), (.history, history),
            (.request, request), (.response, response),
        ]
        return panes.first { !$0.1.isEmpty && $0.1.contains(point) }?.0
    }

    /// The list row (index among visible items) under a click inside a list pane.
    func listRow(at point: Point, pane: Pane, state: AppState) -> Int? {
        let area: Rect
        let list: ListState
        let count: Int
        switch pane {
        case .environments:
            area = environments
            list = state.environmentList
            count = state.environments.count
        case .endpoints:
            area = endpoints
            list = state.endpointList
            count = state.visibleEndpointRows.count
        case .history:
            area = history
            list = state.historyList
            count = state.historyList.visibleIndices(count: state.history.count) { state.historyFilterTexts }.count
        default: return nil
        }
        let inner = Block.inner(area)
        guard inner.contains(point) else { return nil }
        let row = list.visibleOffset(height: inner.height, count: count) + point.y - inner.y
        return row < count ? row : nil
    }

    /// The rows the response pane's text gets (inside the border, below status and tabs).
    var responseTextHeight: Int { max(1, response.height - 4) }

    /// The columns the response pane's text gets, the line-number gutter excluded.
    func responseTextWidth(state: AppState, source: any TextSource) -> Int {
        let gutter = ScrollText.gutterWidth(
            lineCount: source.lineCount, visible: state.body.text.showLineNumbers && state.responseTab == .body)
        return max(1, response.width - 2 - gutter)
    }
}
