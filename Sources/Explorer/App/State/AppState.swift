import Foundation
import History
import NetworkingCore
import Query
import Terminal
import Workspace

/// The panes that can hold the focus, in Tab order.
enum Pane: String, Sendable, CaseIterable {
    case environments = "Environments"
    case endpoints = "Endpoints"
    case history = "History"
    case request = "Request"
    case response = "Response"
}

/// The tabs of the response pane.
enum ResponseTab: String, Sendable, CaseIterable {
    case body = "Body"
    case headers = "Headers"
    case raw = "Raw"
    case timing = "Timing"
    case request = "Request"
    /// Each assertion of the endpoint, what it found and why it failed (only for an exchange
    /// whose endpoint checks something).
    case checks = "Checks"
    /// Each way the response breaks its operation in the collection's `openapi:` document,
    /// by pointer in the body and in the document (only for an exchange that was checked).
    case schema = "Schema"
}

/// A modal overlay over the screen.
enum AppOverlay: Sendable {
    case environmentPicker(ListState)
    /// A question answered by one key before a deed (send to a protected environment, save,
    /// delete, restore or discard drafts): the one confirmation waiting, `AppState.confirmation`.
    case confirmation(Confirmation)
    /// Every key (`?`), scrolled to this row.
    case help(offset: Int)
    case text(title: String, lines: [String])
    /// The collection's problems (`!`), scrolled to this row.
    case problems(offset: Int)
    /// The command palette (`Ctrl-P`).
    case palette(PaletteState)
    /// The active environment's variables, where each comes from (`v`); `x` clears a captured one.
    case variables(ListState)
    /// The active environment's cookie jar (`C`).
    case cookies(CookiesPanel)
    /// The active environment's OAuth2 tokens (`T`).
    case tokens(TokensPanel)
    /// The GraphQL schema browser (`Q`).
    case schema(SchemaPanel)
    /// The session's mock's log (`L`), scrolled to this row (`Int.max` follows the newest).
    case mockLog(offset: Int)
}

/// A one-line text being typed: a list filter, a body search, a JSONPath filter, the
/// request line of an endpoint being edited or the file to save a body to.
struct TextInput: Sendable, Hashable {
    enum Purpose: Sendable, Hashable {
        case listFilter(Pane)
        case bodySearch
        case bodyFilter
        /// `METHOD path?query` of the endpoint with this id.
        case requestLine(endpointID: String)
        /// The path to save the body of this exchange to.
        case savePath(exchange: Int)
        /// The name a new draft is saved under.
        case saveAs(endpointID: String)
        /// A new name for an endpoint.
        case rename(endpointID: String)
        /// The folder (`A/B`, empty for the top level) to move an endpoint to.
        case move(endpointID: String)
        /// A row of a table of an endpoint: the row at `index`, or a new one when nil.
        case row(RowTable, endpointID: String, index: Int?)
        /// A message to send on the WebSocket of this exchange; Tab cycles the saved ones.
        case webSocketMessage(exchange: Int, saved: Int?)
        /// `CODE [REASON]` to close the WebSocket of this exchange with.
        case webSocketClose(exchange: Int)
        /// The answer to a `{{prompt "Label"}}` (typed unseen when the label names a secret).
        case templatePrompt(label: String, secret: Bool)

        /// What the footer says before the text.
        var prompt: String {
            switch self {
            case .listFilter(let pane): return " Filter \(pane.rawValue.lowercased()): "
            case .bodySearch: return " Search body: "
            case .bodyFilter: return " JSONPath: "
            case .requestLine: return " Request: "
            case .savePath: return " Save body to: "
            case .saveAs: return " Save as: "
            case .rename: return " Rename to: "
            case .move: return " Move to folder (A/B, empty: top level): "
            case .webSocketMessage: return " Message (Tab: saved): "
            case .webSocketClose: return " Close with code and reason: "
            case .templatePrompt(let label, _): return " \(Sanitizer.sanitize(label)): "
            case .row(let table, _, let index):
                let what =
                    index == nil
                    ? "New \(table.rowName)" : table.rowName.prefix(1).uppercased() + table.rowName.dropFirst()
                return
                    " \(what) (\(table == .headers ? "Name: value" : "name=value")\(table == .multipart ? ", @file" : "")): "
            }
        }
    }
    var purpose: Purpose
    var field: TextFieldState

    init(purpose: Purpose, text: String = "") {
        self.purpose = purpose
        field = TextFieldState(text)
    }

    var text: String { field.text }
}

/// A line in the endpoints list: a folder heading or an endpoint.
struct EndpointRow: Sendable, Hashable {
    let depth: Int
    let folder: String?
    let endpoint: Endpoint?
    /// The folders the row is in, outermost first; a folder heading's own path ends with it.
    var folderPath: [String] = []
}

/// How the body of the shown exchange is being viewed.
struct BodyViewState: Sendable {
    /// Scroll position, wrap, line numbers and the search highlight of the response pane.
    var text = ScrollTextState(wrap: false, showLineNumbers: true)
    var search: String {
        get { text.search }
        set { text.search = newValue }
    }
    var matches: [Int] = []
    var currentMatch = 0
    /// A JSONPath expression and what it selected, shown instead of the body.
    var filter = ""
    var filtered: BodyDocument?
    var filterError: String?
    /// JSON folding: lines deeper than this many levels are folded away (nil: unfolded).
    var foldDepth: Int?
    var folded: FoldedDocument?
}

/// Two history entries compared line by line.
package struct Comparison: Sendable {
    let title: String
    let lines: [LineDiff.Line]
    var text = ScrollTextState(wrap: false, showLineNumbers: false)

    /// A comparison already made.
    init(title: String, lines: [LineDiff.Line]) {
        self.title = title
        self.lines = lines
    }

    /// Compares two stored exchanges (reads and diffs their bodies: run it off the main queue).
    init(_ first: HistoryEntry, _ second: HistoryEntry) {
        title = "#\(first.id ?? 0) \(first.environment ?? "") ↔ #\(second.id ?? 0) \(second.environment ?? "")"
        lines = LineDiff.diff(LineDiff.comparableLines(first), LineDiff.comparableLines(second))
    }
}

/// Everything the explorer shows: one value, changed only by `reduce`.
package struct AppState: Sendable {
    var collection: APICollection? { didSet { endpointFilterVersion = EndpointFilter.nextVersion() } }
    var collectionPath: String
    /// What is wrong in the collection file, shown (count in the title bar, the first on a
    /// line of its own, all with `!`) until the file is fixed.
    var problems = CollectionProblems(nil)
    /// The newest read of the collection file shown (a late reload of an older one is dropped).
    var collectionReads = CollectionReads()
    var activeEnvironment = 0
    var focus: Pane = .endpoints
    /// The list shown in the narrow layout's single list slot.
    var lastList: Pane = .endpoints
    var environmentList = ListState()
    var endpointList = ListState()
    var historyList = ListState()
    var endpointRows: [EndpointRow] = [] { didSet { endpointFilterVersion = EndpointFilter.nextVersion() } }
    /// Endpoints edited in this session, by id: sent and shown instead of the file's, until
    /// saved to the file (`S`) or the file changes them.
    var drafts: [String: Endpoint] = [:] { didSet { endpointFilterVersion = EndpointFilter.nextVersion() } }
    /// The version of what the endpoints list's rows say (the rows, the drafts, the
    /// collection): the filter's kept texts and result belong to one.
    private(set) var endpointFilterVersion = EndpointFilter.nextVersion()
    /// The endpoints list's texts and last filter result, kept between frames.
    let endpointFilter = EndpointFilter()
    /// Undo, redo, the last deletion and the drafts a previous session left.
    var compose = ComposeState()
    /// The newest stored exchanges, without their bodies (an entry is read when opened).
    package var history: [HistorySummary] = []
    /// Whether the history is still being read at start-up: the first frame is drawn before
    /// it is, and the History pane says so rather than "Nothing sent yet".
    package var historyIsReading = false
    /// What is being read while a large collection loads behind the first frame ("api.yaml,
    /// 895 KB"): the Environments and Endpoints panes say so rather than that there are none.
    package var collectionIsReading: String?
    /// Whether History lists every collection's exchanges (`H`), not only this one's.
    var historyOfEveryCollection = false
    /// The collection the History list is kept to (nil: every collection).
    package var historyCollectionFilter: String? { historyOfEveryCollection ? nil : collectionPath }
    /// The zone times are shown in (the machine's, set at start-up; UTC in tests).
    package var timeZone = TimeZone(identifier: "UTC")!
    /// The exchanges of this session the screen can still show: the newest
    /// `exchangeLimit`, the shown one and those in flight (older ones are in the history).
    var exchanges: [Int: Exchange] = [:]
    /// How many finished exchanges are kept in memory (`exchanges_in_memory` in the config).
    package var exchangeLimit = AppState.defaultExchangeLimit
    var nextExchangeID = 1
    /// Bumped each time the collection is loaded, so a preview of an older load is not kept.
    var collectionRevision = 0
    /// What the request pane shows of the selected endpoint, once an effect resolved it.
    var preview: RequestPreview?
    /// The answers given to `{{prompt "Label"}}` in this session, by label (each label is
    /// asked once; never written anywhere).
    var promptAnswers: [String: String] = [:]
    /// A send or a run waiting for prompts to be answered.
    var pendingPrompts: PendingPrompts?
    /// The plan the preview was (or is being) resolved for.
    var previewKey: RequestPreview.Key?
    /// The exchange the response pane shows.
    var shownExchange: Int?
    /// The exchanges that are WebSocket sessions (open while they are in flight).
    var webSocketExchanges: Set<Int> = []
    var responseTab: ResponseTab = .body
    var body = BodyViewState()
    /// The history entry marked with `d`, waiting for a second one to compare with.
    var compareBase: HistorySummary?
    /// A comparison of two history entries, shown in the response pane until Esc.
    var comparison: Comparison?
    var overlay: AppOverlay?
    /// The history entry to re-send once the environment picker's choice is made: its own
    /// environment is no longer in the collection, and another is never chosen silently.
    var resendPending: HistorySummary?
    /// The endpoint `=` compares in the active environment and the one the picker chooses.
    var comparePending: String?
    var input: TextInput?
    /// The body searches typed before, oldest first (`↑` in the search line brings them back).
    var searchHistory: [String] = []
    /// Which of `searchHistory` the search line shows, while stepping through it.
    var searchRecall: Int?
    package var message: String?
    package var messageIsError = false
    var size = Size(width: 80, height: 24)
    /// The time of the latest input (the reducer reads no clock).
    var now = Date(timeIntervalSinceReferenceDate: 0)
    package var keymap = AppCommand.defaultKeymap
    /// The folder `s` proposes to save bodies in (the download folder, else the working
    /// directory), found at start-up.
    package var saveFolder = "."
    /// Set by the quit command; the runtime then restores the terminal and returns.
    var quitting = false
    /// What the variables view lists, once an effect read them (nil while loading).
    var variableRows: [Environment.ShownVariable]?
    /// The folder run (`Ctrl-R`) in progress, or the last one.
    var folderRun: FolderRun?
    /// The next folder run's id.
    var nextRunID = 1
    /// The mock server the session started (`O`), starting or serving.
    var mock: MockSession?

    package init(collection: APICollection?, collectionPath: String, environment: String? = nil) {
        self.collectionPath = collectionPath
        setCollection(collection)
        if let environment, let index = collection?.environments.firstIndex(where: { $0.name == environment }) {
            activeEnvironment = index
            environmentList.selected = index
        }
        if let firstEndpoint = endpointRows.firstIndex(where: { $0.endpoint != nil }) {
            endpointList.selected = firstEndpoint
        }
    }

    /// Replaces the collection (on load or reload), keeping the selection by endpoint id.
    mutating func setCollection(_ collection: APICollection?) {
        let selectedID = selectedEndpoint?.id
        let environmentName = activeEnvironmentValue?.name
        self.collection = collection
        problems = CollectionProblems(collection)
        collectionRevision += 1
        rebuildRows(selecting: selectedID)
        if let environmentName, let index = environments.firstIndex(where: { $0.name == environmentName }) {
            activeEnvironment = index
        } else {
            activeEnvironment = 0
        }
    }

    static func rows(_ items: [CollectionItem], depth: Int, folderPath: [String] = []) -> [EndpointRow] {
        var rows: [EndpointRow] = []
        appendRows(items, depth: depth, folderPath: folderPath, to: &rows)
        return rows
    }

    /// Appends the rows of `items` to one array: ten thousand endpoints make no array each.
    private static func appendRows(
        _ items: [CollectionItem], depth: Int, folderPath: [String], to rows: inout [EndpointRow]
    ) {
        for item in items {
            switch item {
            case .endpoint(let endpoint):
                rows.append(EndpointRow(depth: depth, folder: nil, endpoint: endpoint, folderPath: folderPath))
            case .folder(let folder):
                let path = folderPath + [folder.name]
                rows.append(EndpointRow(depth: depth, folder: folder.name, endpoint: nil, folderPath: path))
                appendRows(folder.items, depth: depth + 1, folderPath: path, to: &rows)
            }
        }
    }

    /// Rebuilds the endpoint rows from the collection and the new drafts (each in its
    /// folder), selecting the endpoint `id` when it has a row, else keeping the selection.
    mutating func rebuildRows(selecting id: String? = nil) {
        let wanted = id ?? selectedEndpoint?.id
        var tree = collection ?? APICollection(name: "")
        for (draftID, draft) in drafts.sorted(by: { $0.key < $1.key }) where isNewDraft(draftID) {
            tree.insert(draft)
        }
        endpointRows = Self.rows(tree.items, depth: 0)
        if let wanted {
            let visible = visibleEndpointRows
            if let index = visible.firstIndex(where: { endpointRows[$0].endpoint?.id == wanted }) {
                endpointList.selected = index
            }
        }
    }

    /// Whether the draft with this id is an endpoint the collection file does not have yet.
    func isNewDraft(_ id: String) -> Bool {
        drafts[id] != nil && collection?.endpoint(withID: id) == nil
    }

    /// Finished exchanges kept in memory by default.
    package static let defaultExchangeLimit = 20

    /// Drops the oldest finished exchanges beyond `exchangeLimit`; the shown one and those in
    /// flight stay.
    mutating func forgetOldExchanges() {
        let finished = exchanges.values.filter { !$0.isInFlight && $0.id != shownExchange }.map(\.id).sorted()
        let keep = max(0, exchangeLimit - (shownExchange == nil ? 0 : 1))
        for id in finished.dropLast(keep) { exchanges[id] = nil }
    }

    /// The plan to resolve an endpoint in an environment of the loaded collection.
    func plan(for endpoint: Endpoint, in environment: Environment) -> RequestPlan? {
        collection.map {
            RequestPlan(
                endpoint: endpoint, collection: $0, environment: environment, revision: collectionRevision,
                answers: PromptAnswers(promptAnswers))
        }
    }

    // MARK: - Derived

    /// The collection's environments, then the mock's when the session serves one.
    var environments: [Environment] {
        guard let mocking = mock?.environment else { return collection?.environments ?? [] }
        return (collection?.environments ?? []) + [mocking]
    }

    /// Whether the environment at `index` is the session's mock.
    func isMockEnvironment(_ index: Int) -> Bool {
        mock?.environment != nil && index == environments.count - 1
    }

    /// The collection file's name, for messages (no file-system call: the path is a string).
    var collectionFileName: String {
        collectionPath.split(separator: "/").last.map(String.init) ?? collectionPath
    }

    var activeEnvironmentValue: Environment? {
        environments.indices.contains(activeEnvironment) ? environments[activeEnvironment] : nil
    }

    /// The row under the endpoints list's selection (a folder heading or an endpoint).
    var selectedRow: EndpointRow? {
        let visible = visibleEndpointRows
        guard visible.indices.contains(endpointList.selected) else { return nil }
        return endpointRows[visible[endpointList.selected]]
    }

    /// The endpoint under the selection of the endpoints list (nil on a folder), with its
    /// edits when it has some.
    var selectedEndpoint: Endpoint? {
        let visible = visibleEndpointRows
        guard visible.indices.contains(endpointList.selected),
            let endpoint = endpointRows[visible[endpointList.selected]].endpoint
        else { return nil }
        return drafts[endpoint.id] ?? endpoint
    }

    /// An endpoint by id, with its edits when it has some.
    func endpoint(withID id: String) -> Endpoint? {
        drafts[id] ?? collection?.endpoint(withID: id)
    }

    /// The rows of `endpointRows` the endpoints list shows (its filter lets through), in order.
    ///
    /// Read for every frame and most actions (the selection is an index into these): the
    /// filter matches each row's words, made without laying the rows out as list items.
    var visibleEndpointRows: [Int] {
        endpointFilter.visibleRows(
            endpointList.filter, version: endpointFilterVersion, count: endpointRows.count,
            rows: endpointFilterRows)
    }

    /// How many endpoints the list has (folder headings left out): counted, not kept, since
    /// the filter's texts are made only once a filter is typed.
    var endpointCount: Int {
        endpointRows.count { $0.endpoint != nil }
    }

    /// Each endpoints row's text as the filter reads it.
    private func endpointFilterRows() -> [String] {
        // The indentation is spaces: no word of a filter matches in it.
        endpointRows.map { row in
            let parts = endpointRowParts(row, indented: false)
            guard let method = parts.method else { return parts.name }
            return method + " " + parts.name + (parts.marker.map { " " + $0 } ?? "")
        }
    }

    /// The list items of the endpoints list.
    var endpointItems: [ListItem] {
        endpointRows.map(endpointItem)
    }

    /// The list item of one endpoints row.
    func endpointItem(_ row: EndpointRow) -> ListItem {
        let parts = endpointRowParts(row)
        guard let method = parts.method, let endpoint = row.endpoint else {
            return ListItem([Span(parts.indent + parts.name, role: .title)])
        }
        return ListItem(
            [
                Span(parts.indent),
                Span(Self.methodColumn(method), role: Self.role(for: endpoint.method)),
                Span(parts.name),
            ] + (parts.marker.map { [Span(" " + $0, role: .warning)] } ?? []),
            trailing: folderRun?.resultSpans(for: endpoint.id) ?? [])
    }

    /// A method as the lists' column shows it: padded to 7 columns, and always one space
    /// before what follows (`OPTIONS `, `PROPFIND `). Written for every row at every frame:
    /// Foundation's `padding(toLength:)` costs ten times as much.
    static func methodColumn(_ method: String) -> String {
        method + String(repeating: " ", count: max(1, 7 - method.count))
    }

    /// The words of an endpoints row: a folder's `▾ name`, or an endpoint's method and name
    /// (with its edits), marked `new` or `*` when it has a draft.
    private func endpointRowParts(_ row: EndpointRow, indented: Bool = true) -> (
        indent: String, method: String?, name: String, marker: String?
    ) {
        let indent = indented ? String(repeating: "  ", count: row.depth) : ""
        guard let listed = row.endpoint else { return (indent, nil, "▾ " + (row.folder ?? ""), nil) }
        // Most of the time there is no draft: an endpoint's id is a string built when asked for.
        guard !drafts.isEmpty, let draft = drafts[listed.id] else {
            return (indent, listed.listLabel, listed.name, nil)
        }
        return (indent, draft.listLabel, draft.name, isNewDraft(draft.id) ? "new" : "*")
    }

    var selectedHistoryEntry: HistorySummary? {
        let visible = historyList.visibleIndices(count: history.count) { historyFilterTexts }
        guard visible.indices.contains(historyList.selected) else { return nil }
        return history[visible[historyList.selected]]
    }

    var shown: Exchange? { shownExchange.flatMap { exchanges[$0] } }

    /// The response tabs the shown exchange has: Checks only when its endpoint checks something.
    var responseTabs: [ResponseTab] {
        ResponseTab.allCases.filter { tab in
            switch tab {
            case .checks: shown?.checks != nil
            case .schema: shown?.checks?.schema != nil
            default: true
            }
        }
    }

    /// The document the body tab shows: the JSONPath result when a filter is set.
    var shownDocument: BodyDocument? { body.filtered ?? shown?.response?.document }

    /// What the body tab draws: the shown document, folded when folding is on.
    var shownBodySource: (any TextSource)? {
        if let folded = body.folded { return folded }
        return shownDocument
    }

    var inFlightCount: Int { exchanges.values.filter(\.isInFlight).count }

    // MARK: - Formatting shared by views

    static func role(for method: HTTPMethod) -> Role {
        switch method {
        case .get: return .methodGet
        case .post: return .methodPost
        case .put: return .methodPut
        case .patch: return .methodPatch
        case .delete: return .methodDelete
        default: return .methodOther
        }
    }

    static func role(forStatus status: Int?) -> Role {
        guard let status else { return .error }
        switch status {
        case ..<200: return .status1xx
        case ..<300: return .status2xx
        case ..<400: return .status3xx
        case ..<500: return .status4xx
        default: return .status5xx
        }
    }

    /// A duration right-aligned in 6 columns, one space before it (`  10ms`, ` 1.25s`), so
    /// the rows of a list keep their columns.
    /// A duration in a column of six: a space and at most five characters (`  42ms`,
    /// ` 1.23s`, ` 30.0s`, `  123s`), so the columns of a list do not shift.
    static func durationColumn(_ milliseconds: Double) -> String {
        let text: String
        switch milliseconds {
        case ..<999.5: text = "\(Int(milliseconds.rounded()))ms"
        case ..<9995: text = String(format: "%.2fs", milliseconds / 1000)
        case ..<99950: text = String(format: "%.1fs", milliseconds / 1000)
        default: text = "\(Int((milliseconds / 1000).rounded()))s"
        }
        return String(repeating: " ", count: max(1, 6 - text.count)) + text
    }

    static func duration(_ milliseconds: Double) -> String {
        milliseconds < 1000 ? "\(Int(milliseconds.rounded())) ms" : String(format: "%.2f s", milliseconds / 1000)
    }
}
