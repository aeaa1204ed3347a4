import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The request pane's editors: Query and Headers tables, the Body (a text editor for JSON and
/// raw bodies, a table for form fields and multipart parts), completion of header names and
/// `{{variables}}`. Every edit makes a draft (undone with `Ctrl-Z`, kept on disk until saved).
extension AppReducer {
    // MARK: - Tabs and rows

    static func cycleRequestTab(_ step: Int, _ state: inout AppState) {
        let tabs = RequestTab.allCases
        let index = tabs.firstIndex(of: state.compose.editor.tab)!
        state.compose.editor.tab = tabs[(index + step + tabs.count) % tabs.count]
        state.compose.editor.rows = ListState()
    }

    static func moveRow(_ delta: Int, _ state: inout AppState) {
        guard let table = state.shownTable, let endpoint = state.selectedEndpoint else { return }
        state.compose.editor.rows.move(by: delta, count: state.tableRows(table, of: endpoint).count)
    }

    /// Enter in the request pane: edits the selected row, or opens the body editor. Nil on
    /// the Preview tab (Enter sends there, as everywhere).
    static func requestEnter(_ state: inout AppState) -> [AppEffect]? {
        guard state.compose.editor.tab != .preview else { return nil }
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to edit."
            return []
        }
        if let table = state.shownTable {
            let rows = state.tableRows(table, of: endpoint)
            let index = state.compose.editor.rows.selected
            guard rows.indices.contains(index) else {
                startRow(table, endpoint, index: nil, &state)
                return []
            }
            guard rows[index].isEnabled else {
                state.message = "This \(table.rowName) is off; Space switches it on to edit it."
                return []
            }
            startRow(table, endpoint, index: index, &state)
            return []
        }
        let mode = BodyMode(endpoint.body)
        guard mode == .json || mode == .raw else {
            state.message = "This endpoint has no body; m chooses one (JSON, form, multipart, raw)."
            return []
        }
        openBodyEditor(endpoint, mode: mode, &state)
        return []
    }

    /// `a`: a new row in the shown table.
    static func addRow(_ state: inout AppState) {
        guard state.focus == .request, let table = state.shownTable, let endpoint = state.selectedEndpoint else {
            state.message = "a adds a row in the Request pane's Query, Headers or form/multipart Body tab."
            return
        }
        startRow(table, endpoint, index: nil, &state)
    }

    private static func startRow(_ table: RowTable, _ endpoint: Endpoint, index: Int?, _ state: inout AppState) {
        let text =
            index.map { i -> String in
                let row = AppState.rows(table, of: endpoint)[i]
                return row.name + table.separator + row.value
            } ?? ""
        state.input = TextInput(purpose: .row(table, endpointID: endpoint.id, index: index), text: text)
    }

    /// Reads a typed row (`Name: value` for headers, `name=value` otherwise) into the draft.
    static func applyRow(_ text: String, _ table: RowTable, endpointID id: String, index: Int?, _ state: inout AppState)
    {
        guard let endpoint = state.endpoint(withID: id) else { return }
        let separator = table == .headers ? ":" : "="
        let parts = text.split(separator: Character(separator), maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        guard !name.isEmpty else {
            state.message =
                "A \(table.rowName) needs a name, as in \(table == .headers ? "Accept: application/json" : "page=1")."
            state.messageIsError = true
            return
        }
        if table == .headers, name.contains(where: { $0 == " " || $0 == ":" }) {
            state.message = "A header name has no spaces: \"\(name)\"."
            state.messageIsError = true
            return
        }
        var rows = AppState.rows(table, of: endpoint)
        if let index, rows.indices.contains(index) {
            rows[index] = KeyValue(name, value)
        } else {
            rows.append(KeyValue(name, value))
            state.compose.editor.rows.selected = rows.count - 1
        }
        setDraft(endpoint.setting(table, to: rows), &state)
    }

    /// `x` in a table: deletes the selected row (`Ctrl-Z` brings it back).
    static func deleteRow(_ state: inout AppState) {
        guard let table = state.shownTable, let endpoint = state.selectedEndpoint else { return }
        let rows = state.tableRows(table, of: endpoint)
        let index = state.compose.editor.rows.selected
        guard rows.indices.contains(index) else { return }
        if rows[index].isEnabled {
            var enabled = AppState.rows(table, of: endpoint)
            enabled.remove(at: index)
            setDraft(endpoint.setting(table, to: enabled), &state)
        } else {
            setDraft(
                endpoint.switchingOn(table, at: index - AppState.rows(table, of: endpoint).count, deleting: true),
                &state)
        }
        state.compose.editor.rows.move(by: 0, count: rows.count - 1)
        state.message = "Deleted the \(table.rowName) \(rows[index].row.name); Ctrl-Z brings it back."
        state.messageIsError = false
    }

    /// Space in a table: switches the selected row off (kept under `disabled:`, not sent) or
    /// back on, after the rows that are on.
    static func toggleRow(_ state: inout AppState) {
        guard state.focus == .request, let table = state.shownTable, let endpoint = state.selectedEndpoint else {
            return
        }
        let rows = state.tableRows(table, of: endpoint)
        let index = state.compose.editor.rows.selected
        guard rows.indices.contains(index) else { return }
        let enabledCount = AppState.rows(table, of: endpoint).count
        let row = rows[index].row
        if rows[index].isEnabled {
            setDraft(endpoint.switchingOff(table, at: index), &state)
            state.compose.editor.rows.selected = rows.count - 1
            state.message = "\(row.name) is off: kept here, not sent. Space switches it on."
        } else {
            setDraft(endpoint.switchingOn(table, at: index - enabledCount), &state)
            state.compose.editor.rows.selected = enabledCount
            state.message = "\(row.name) is on again."
        }
        state.messageIsError = false
    }

    /// The draft of an endpoint becomes `endpoint`, or no draft when it equals the file's.
    static func setDraft(_ endpoint: Endpoint, _ state: inout AppState) {
        let original = state.collection?.endpoint(withID: endpoint.id)
        state.drafts[endpoint.id] = endpoint == original ? nil : endpoint
    }

    // MARK: - Body

    /// `m` on the Body tab: the next body form, converting what can be kept (text between
    /// JSON and raw, rows between form and multipart).
    static func cycleBodyMode(_ state: inout AppState) {
        guard state.focus == .request, state.compose.editor.tab == .body, var endpoint = state.selectedEndpoint else {
            state.message = "m switches the body form on the Request pane's Body tab."
            return
        }
        let modes = BodyMode.allCases
        let next = modes[(modes.firstIndex(of: BodyMode(endpoint.body))! + 1) % modes.count]
        let text = endpoint.bodyText
        let rows = AppState.rows(.form, of: endpoint) + AppState.rows(.multipart, of: endpoint)
        switch next {
        case .none: endpoint.body = nil
        case .json: endpoint.body = .json(JSONValue.container(parsing: text) ?? .object([]))
        case .form: endpoint.body = .form(rows)
        case .multipart: endpoint = endpoint.setting(.multipart, to: rows)
        case .raw: endpoint.body = .raw(text)
        }
        state.compose.editor.rows = ListState()
        setDraft(endpoint, &state)
        state.message =
            "Body: \(next.rawValue)"
            + (next == .none ? "" : next.table == nil ? " (Enter edits it)" : " (a adds a row)")
        state.messageIsError = false
    }

    private static func openBodyEditor(_ endpoint: Endpoint, mode: BodyMode, _ state: inout AppState) {
        state.compose.editor.bodyText = TextEditorState(endpoint.bodyText)
        state.compose.editor.bodyEndpointID = endpoint.id
        state.compose.editor.bodyMode = mode
        state.compose.editor.bodyError = nil
    }

    /// Keys while the body editor is open: editing keys change the text (and the draft, once
    /// JSON parses); `Esc` closes it; `Ctrl-Z`/`Ctrl-Y` undo and redo; `Tab` completes a
    /// `{{variable}}` (else indents).
    static func handleBodyEditor(_ press: KeyPress, _ state: inout AppState) -> [AppEffect] {
        guard var editor = state.compose.editor.bodyText else { return [] }
        let command = state.keymap.command(for: press)
        if press.key == .escape {
            state.compose.editor.bodyText = nil
            state.message = state.compose.editor.bodyError.map {
                "The JSON does not parse (\($0)); the draft keeps the last text that did."
            }
            state.messageIsError = state.compose.editor.bodyError != nil
            return []
        }
        if command == .undo || command == .redo {
            undoDraft(redo: command == .redo, &state)
            if let id = state.compose.editor.bodyEndpointID, let endpoint = state.endpoint(withID: id) {
                var reopened = TextEditorState(endpoint.bodyText)
                reopened.moveTo(line: editor.line, column: editor.column)
                state.compose.editor.bodyText = reopened
                state.compose.editor.bodyError = nil
            }
            return []
        }
        if press == KeyPress(.tab),
            let completion = variableCompletion(before: String(editor.lines[editor.line].prefix(editor.column)), &state)
        {
            editor.insert(completion)
        } else {
            guard editor.handle(press, pageHeight: max(1, AppLayout(size: state.size, state: state).request.height - 3))
            else { return [] }
        }
        state.compose.editor.bodyText = editor
        applyBodyText(&state)
        return []
    }

    /// Pasted text goes into the open body editor.
    static func pasteIntoBody(_ text: String, _ state: inout AppState) {
        state.compose.editor.bodyText?.insert(text)
        applyBodyText(&state)
    }

    /// The body text into the draft: raw as it is; JSON once it parses (where it does not, the
    /// line and column are shown and the draft keeps the last text that did).
    private static func applyBodyText(_ state: inout AppState) {
        guard let editor = state.compose.editor.bodyText, let id = state.compose.editor.bodyEndpointID,
            var endpoint = state.endpoint(withID: id)
        else { return }
        let text = editor.text
        if state.compose.editor.bodyMode == .raw {
            endpoint.body = .raw(text)
        } else {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: text)
            } catch {
                state.compose.editor.bodyError = error
                return
            }
            guard !value.isScalar else {
                // A scalar on its own (`42`, `"text"`) is valid JSON but not a body object.
                state.compose.editor.bodyError = JSONValue.SyntaxError(
                    line: 1, column: 1, message: "a JSON body is an object or an array")
                return
            }
            state.compose.editor.bodyError = nil
            endpoint.body = .json(value)
        }
        setDraft(endpoint, &state)
    }

    // MARK: - Completion

    /// Common request header names, offered when a header's name is typed.
    static let headerNames = [
        "Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control", "Connection",
        "Content-Encoding",
        "Content-Length", "Content-Type", "Cookie", "Forwarded", "Host", "If-Match", "If-Modified-Since",
        "If-None-Match",
        "Origin", "Pragma", "Prefer", "Range", "Referer", "User-Agent", "X-API-Key", "X-Correlation-ID",
        "X-Forwarded-For",
        "X-Request-ID",
    ]

    /// Tab in a row being typed: completes the header name (before `:`) or the `{{variable`
    /// before the cursor. Several candidates: their common start, and the list in the footer.
    static func completeRow(_ state: inout AppState) {
        guard var input = state.input, case .row(let table, _, _) = input.purpose else { return }
        let before = String(input.text.prefix(input.field.cursor))
        if let completion = variableCompletion(before: before, &state) {
            input.field.insert(completion)
        } else if table == .headers, !before.contains(":") {
            let used = Set(state.collection?.endpoints.flatMap { $0.headers.map(\.name) } ?? [])
            let names = (headerNames + used.sorted()).reduce(into: [String]()) { names, name in
                if !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
            }
            let typed = before.trimmingCharacters(in: .whitespaces)
            let candidates = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
            guard let completed = complete(typed, candidates, suffix: ": ", &state) else { return }
            input.field.setText(completed + input.text.dropFirst(before.count))
            input.field.moveToStart()
            input.field.moveCursor(by: completed.count)
        } else {
            return
        }
        state.input = input
    }

    /// What to insert after `{{partial` at the end of `before`: the rest of the one variable
    /// that starts so (and `}}`), or the candidates' common start; nil when the text before the
    /// cursor is not inside `{{`.
    private static func variableCompletion(before: String, _ state: inout AppState) -> String? {
        guard let open = before.range(of: "{{", options: .backwards), !before[open.upperBound...].contains("}") else {
            return nil
        }
        let partial = String(before[open.upperBound...]).trimmingCharacters(in: .whitespaces)
        let names = state.compose.editor.variables.map(\.name)
        let candidates = names.filter { $0.hasPrefix(partial) }
        guard let completed = complete(partial, candidates, suffix: "}}", &state) else { return "" }
        return String(completed.dropFirst(partial.count))
    }

    /// The completion of `typed` among `candidates`: the one candidate and `suffix`, or their
    /// longest common start (the candidates shown in the footer); nil when none.
    private static func complete(_ typed: String, _ candidates: [String], suffix: String, _ state: inout AppState)
        -> String?
    {
        guard let first = candidates.first else {
            state.message = "Nothing to complete \"\(typed)\" with."
            return nil
        }
        if candidates.count == 1 { return first + suffix }
        var common = first
        for candidate in candidates.dropFirst() {
            while !candidate.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        state.message = candidates.prefix(8).joined(separator: "  ") + (candidates.count > 8 ? "  …" : "")
        state.messageIsError = false
        return common.count >= typed.count ? common : typed
    }

    // MARK: - Variables

    /// Asks for the active environment's variables when the environment or the collection
    /// changed since they were last resolved.
    static func refreshVariables(_ state: inout AppState) -> [AppEffect] {
        guard let environment = state.activeEnvironmentValue else { return [] }
        let key = VariablesKey(environment: environment.name, revision: state.collectionRevision)
        guard key != state.compose.editor.variablesKey else { return [] }
        state.compose.editor.variablesKey = key
        return [.resolveVariables(environment, key)]
    }

    /// The active environment's variables were resolved: shown when they are still the ones
    /// asked for.
    static func variablesResolved(
        _ key: VariablesKey, _ variables: [Environment.ShownVariable], _ state: inout AppState
    ) {
        guard key == state.compose.editor.variablesKey else { return }
        state.compose.editor.variables = variables
    }
}
