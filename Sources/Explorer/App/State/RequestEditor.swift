import NetworkingCore
import Terminal
import Workspace

/// The tabs of the request pane: the resolved preview, and the editors of the selected
/// endpoint's parts.
enum RequestTab: String, Sendable, CaseIterable {
    case preview = "Preview"
    case query = "Query"
    case headers = "Headers"
    case body = "Body"
}

/// A table of name/value rows an endpoint has.
enum RowTable: String, Sendable, Hashable {
    case query
    case headers
    /// The fields of a `form:` body.
    case form
    /// The parts of a `multipart:` body (`@path` values are files).
    case multipart

    /// What one row is called, for prompts and messages.
    var rowName: String {
        switch self {
        case .query: return "query item"
        case .headers: return "header"
        case .form: return "form field"
        case .multipart: return "part"
        }
    }

    /// Between name and value when a row is typed on one line.
    var separator: String { self == .headers ? ": " : "=" }
}

/// The body forms the Body tab switches between (`m`).
enum BodyMode: String, Sendable, CaseIterable {
    case none = "none"
    case json = "JSON"
    case form = "form"
    case multipart = "multipart"
    case raw = "raw"

    init(_ body: EndpointBody?) {
        switch body {
        case nil: self = .none
        case .json: self = .json
        case .form: self = .form
        case .multipart: self = .multipart
        // A file body (`body: {file: …}`) is edited as raw text for now.
        case .raw, .file: self = .raw
        }
    }

    /// The table a mode edits, if it is one.
    var table: RowTable? {
        switch self {
        case .form: return .form
        case .multipart: return .multipart
        default: return nil
        }
    }
}

/// What the request pane's editors keep between keys.
struct RequestEditorState: Sendable {
    var tab: RequestTab = .preview
    /// The selected row of the Query, Headers or body table.
    var rows = ListState()
    /// The body text being edited (`Enter` on the Body tab opens it, `Esc` closes it).
    var bodyText: TextEditorState?
    /// Whose body `bodyText` is.
    var bodyEndpointID: String?
    /// The mode `bodyText` is edited in (JSON or raw).
    var bodyMode: BodyMode = .json
    /// Where the JSON being typed does not parse (the draft keeps the last text that did).
    var bodyError: JSONValue.SyntaxError?
    /// The active environment's variables with their values (secrets masked), resolved by
    /// an effect; what the tables show beside `{{variables}}` and completion offers.
    var variables: [Environment.ShownVariable] = []
    /// The environment and collection revision `variables` were resolved for.
    var variablesKey: VariablesKey?
}

/// Which environment (and load of the collection) a list of resolved variables is for.
package struct VariablesKey: Sendable, Hashable {
    var environment: String
    var revision: Int
}

extension AppState {
    /// The rows of a table of an endpoint: those on, then those switched off.
    func tableRows(_ table: RowTable, of endpoint: Endpoint) -> [(row: KeyValue, isEnabled: Bool)] {
        Self.rows(table, of: endpoint).map { (row: $0, isEnabled: true) }
            + endpoint.disabledRows(table).map { (row: $0, isEnabled: false) }
    }

    /// The rows an endpoint sends for a table.
    static func rows(_ table: RowTable, of endpoint: Endpoint) -> [KeyValue] {
        switch table {
        case .query: return endpoint.query
        case .headers: return endpoint.headers
        case .form:
            if case .form(let fields) = endpoint.body { return fields }
            return []
        case .multipart:
            if case .multipart(let parts) = endpoint.body {
                return parts.map { KeyValue($0.name, $0.isFile ? "@" + $0.value : $0.value) }
            }
            return []
        }
    }

    /// The table the request pane shows now, if it shows one.
    var shownTable: RowTable? {
        switch compose.editor.tab {
        case .query: return .query
        case .headers: return .headers
        case .body: return selectedEndpoint.flatMap { BodyMode($0.body).table }
        case .preview: return nil
        }
    }

    /// The value of a variable as the editors show it, or nil when the environment has none.
    func shownVariable(_ name: String) -> Environment.ShownVariable? {
        compose.editor.variables.first { $0.name == name }
    }
}

extension Endpoint {
    /// The endpoint with a table's rows replaced.
    func setting(_ table: RowTable, to rows: [KeyValue]) -> Endpoint {
        var endpoint = self
        switch table {
        case .query: endpoint.query = rows
        case .headers: endpoint.headers = rows
        case .form: endpoint.body = .form(rows)
        case .multipart:
            // A part keeps its file name and type (which the table does not show) by name.
            var previous: [String: MultipartField] = [:]
            if case .multipart(let parts) = body { for part in parts { previous[part.name] = part } }
            endpoint.body = .multipart(
                rows.map { row in
                    var field =
                        row.value.hasPrefix("@")
                        ? MultipartField(name: row.name, value: String(row.value.dropFirst()), isFile: true)
                        : MultipartField(name: row.name, value: row.value)
                    field.filename = previous[row.name]?.filename
                    field.contentType = previous[row.name]?.contentType
                    return field
                })
        }
        return endpoint
    }

    /// The rows of a table that are switched off, as the table shows them (`@path` for a file part).
    func disabledRows(_ table: RowTable) -> [KeyValue] {
        switch table {
        case .query: return disabled.query
        case .headers: return disabled.headers
        case .form: return disabled.form
        case .multipart: return disabled.multipart.map { KeyValue($0.name, $0.isFile ? "@" + $0.value : $0.value) }
        }
    }

    /// Switches the row at `index` of a table's rows that are on off: it moves to `disabled`
    /// (a part keeps its file name and type).
    func switchingOff(_ table: RowTable, at index: Int) -> Endpoint {
        var endpoint = self
        switch table {
        case .query: endpoint.disabled.query.append(endpoint.query.remove(at: index))
        case .headers: endpoint.disabled.headers.append(endpoint.headers.remove(at: index))
        case .form:
            guard case .form(var fields) = body else { return self }
            endpoint.disabled.form.append(fields.remove(at: index))
            endpoint.body = .form(fields)
        case .multipart:
            guard case .multipart(var parts) = body else { return self }
            endpoint.disabled.multipart.append(parts.remove(at: index))
            endpoint.body = .multipart(parts)
        }
        return endpoint
    }

    /// Switches the row at `index` of a table's switched-off rows on again, after the rows
    /// that are on; or deletes it when `deleting`.
    func switchingOn(_ table: RowTable, at index: Int, deleting: Bool = false) -> Endpoint {
        var endpoint = self
        switch table {
        case .query:
            let row = endpoint.disabled.query.remove(at: index)
            if !deleting { endpoint.query.append(row) }
        case .headers:
            let row = endpoint.disabled.headers.remove(at: index)
            if !deleting { endpoint.headers.append(row) }
        case .form:
            let row = endpoint.disabled.form.remove(at: index)
            if !deleting, case .form(let fields) = body { endpoint.body = .form(fields + [row]) }
        case .multipart:
            let part = endpoint.disabled.multipart.remove(at: index)
            if !deleting, case .multipart(let parts) = body { endpoint.body = .multipart(parts + [part]) }
        }
        return endpoint
    }

    /// The body as the text editor shows it: JSON pretty-printed, raw text as written.
    var bodyText: String {
        switch body {
        case .json(let value): return value.serialized(pretty: true)
        case .raw(let text): return text
        default: return ""
        }
    }
}
