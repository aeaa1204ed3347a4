import Terminal
import Workspace

/// The request pane's editor tabs: the Query and Headers tables (each `{{variable}}`
/// highlighted, its value beside it, secrets masked; rows that are off drawn dim), and the
/// Body (a text editor with JSON colours and the first mistake marked, or a table of form
/// fields and multipart parts).
enum RequestEditorView {
    static func renderTable(
        _ table: RowTable, _ state: AppState, endpoint: Endpoint, into grid: inout CellGrid, area: Rect
    ) {
        guard !area.isEmpty else { return }
        let rows = state.tableRows(table, of: endpoint).map { row, isEnabled in
            TableView.Row(
                [
                    [Span(isEnabled ? "✓" : "○", role: isEnabled ? .success : .dim)],
                    [Span(row.name, role: .headerName)],
                    valueSpans(row.value, table: table),
                    resolvedSpans(row.value, state),
                ], isEnabled: isEnabled)
        }
        let nameWidth = min(22, max(8, area.width / 4))
        let valueWidth = max(8, (area.width - nameWidth - 4) / 2)
        let focused = state.focus == .request && state.input == nil
        let what = table.rowName
        TableView(
            headers: ["", "Name", "Value", "Resolved"], widths: [1, nameWidth, valueWidth], rows: rows,
            state: state.compose.editor.rows, focused: focused,
            emptyText: "No \(what)s. a adds one."
        ).render(into: &grid, area: area)
    }

    /// A value with its `{{variables}}` highlighted (a multipart file in its own colour).
    private static func valueSpans(_ value: String, table: RowTable) -> [Span] {
        if table == .multipart, value.hasPrefix("@") {
            return [Span("file ", role: .dim), Span(String(value.dropFirst()), role: .jsonString)]
        }
        return TemplateText.pieces(value).map { Span($0.text, role: $0.isVariable ? .jsonKey : .headerValue) }
    }

    /// The value with each variable replaced by its value now (secrets masked), or nothing
    /// when the value holds no variable.
    private static func resolvedSpans(_ value: String, _ state: AppState) -> [Span] {
        let pieces = TemplateText.pieces(value)
        guard pieces.contains(where: \.isVariable) else { return [] }
        return [Span("→ ", role: .dim)]
            + pieces.map { piece -> Span in
                guard let name = piece.name else { return Span(piece.text, role: .dim) }
                if name.hasPrefix("env.") || name.hasPrefix("$") { return Span(piece.text, role: .dim) }
                guard let variable = state.shownVariable(name) else {
                    return Span("\(piece.text) undefined", role: .error)
                }
                return Span(variable.value, role: variable.isSecret ? .warning : .text)
            }
    }

    static func renderBody(_ state: AppState, endpoint: Endpoint, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let editor = state.compose.editor
        let isEditing = editor.bodyText != nil && editor.bodyEndpointID == endpoint.id
        let mode = isEditing ? editor.bodyMode : BodyMode(endpoint.body)
        var status: [Span] = [Span("Body: ", role: .dim), Span(mode.rawValue, Style(.title, .bold))]
        let failure = isEditing ? editor.bodyError : nil
        if isEditing {
            status.append(
                Span(
                    failure == nil && mode == .json ? "  ✓ valid · Esc closes · Tab completes {{" : "  Esc closes",
                    role: .dim))
        } else {
            status.append(
                Span(
                    mode == .none
                        ? "  m chooses a form"
                        : mode.table == nil ? "  Enter edits · m switches" : "  a adds · m switches", role: .dim))
        }
        var rows = [Sanitizer.characters(status)]
        // Where the JSON does not parse, whole: line, column and what was expected.
        if let failure {
            rows += WordWrap.rows(
                Sanitizer.characters([Span("✗ " + failure.description, role: .error)]), width: area.width
            ).prefix(2)
        }
        for (offset, row) in rows.prefix(area.height).enumerated() {
            grid.put(row, x: area.x, y: area.y + offset, clip: area.row(offset))
        }
        let rest = Rect(x: area.x, y: area.y + rows.count, width: area.width, height: area.height - rows.count)
        guard !rest.isEmpty else { return }
        if let table = mode.table {
            renderTable(table, state, endpoint: endpoint, into: &grid, area: rest)
            return
        }
        guard mode != .none else { return }
        let text = isEditing ? editor.bodyText! : TextEditorState(endpoint.bodyText)
        let marked = isEditing ? editor.bodyError.map { $0.line - 1 } : nil
        TextEditor(state: text, focused: isEditing, markedLine: marked).render(into: &grid, area: rest) { _, line in
            mode == .json
                ? JSONSyntax.highlight(line)
                : TemplateText.pieces(line).map { Span($0.text, role: $0.isVariable ? .jsonKey : .text) }
        }
    }
}
