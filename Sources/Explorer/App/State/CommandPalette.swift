import Foundation
import History
import Terminal
import Workspace

/// What the command palette (`Ctrl-P`) is showing: the text typed and the selected row.
struct PaletteState: Sendable, Hashable {
    var query = TextFieldState()
    var list = ListState()
    /// Rows offered in place of the usual ones, under their own title (the methods `Ctrl-N`
    /// found on a gRPC server); nil: endpoints, environments, commands and history.
    var offer: PaletteOffer?
}

/// A choice the palette offers in place of its usual rows.
struct PaletteOffer: Sendable, Hashable {
    /// What the palette's title says it is.
    var title: String
    /// The rows.
    var entries: [PaletteEntry]
    /// What the palette says while the rows are being found (a server is asked); nil once
    /// they are.
    var waiting: String?
    /// The gRPC server whose methods are awaited (an endpoint's `server:`; nil: the
    /// environment's base URL): the answer of an earlier `Ctrl-N` on another server is not these rows.
    var grpcServer: String?
}

/// One row of the command palette: something to jump to or run.
struct PaletteEntry: Sendable, Hashable {
    enum Target: Sendable, Hashable {
        /// Select the endpoint with this id.
        case endpoint(id: String)
        /// Switch to the environment at this index.
        case environment(index: Int)
        /// Open the stored exchange with this id.
        case history(id: Int64)
        /// Run a command of the keymap.
        case command(AppCommand)
        /// A new endpoint calling this gRPC method, its message a skeleton of the input type.
        case newGRPCCall(GRPCMethodOffer)
        /// A new HTTP endpoint, its request line open (what `Ctrl-N` makes elsewhere).
        case newHTTPEndpoint
    }

    var target: Target
    /// What the fuzzy search matches and the row shows.
    var text: String
    /// Shown dim on the right: the keys of a command, the time of a history entry.
    var detail: String

    /// The kind, as the row's first column says it.
    var kind: String {
        switch target {
        case .endpoint: return "endpoint"
        case .environment: return "env"
        case .history: return "history"
        case .command: return "command"
        case .newGRPCCall: return "rpc"
        case .newHTTPEndpoint: return "http"
        }
    }
}

/// The palette's rows for a state, and how a query ranks them.
///
/// Commands come from the same keymap the footer and the help are generated from, with the
/// keys bound to them, so the palette never offers a key that does something else.
enum CommandPalette {
    /// Every row, in the order an empty query shows them: endpoints (drafts included),
    /// environments, commands, then history (newest first).
    static func entries(_ state: AppState) -> [PaletteEntry] {
        var entries: [PaletteEntry] = []
        for row in state.endpointRows {
            guard let stored = row.endpoint else { continue }
            let endpoint = state.drafts[stored.id] ?? stored
            entries.append(
                PaletteEntry(
                    target: .endpoint(id: stored.id),
                    text: "\(endpoint.method.rawValue) \(endpoint.id)  \(endpoint.path)", detail: ""))
        }
        for (index, environment) in state.environments.enumerated() {
            entries.append(
                PaletteEntry(
                    target: .environment(index: index), text: "\(environment.name)  \(environment.baseURLTemplate)",
                    detail: index == state.activeEnvironment ? "active" : ""))
        }
        for binding in state.keymap.bindings where binding.command != .palette {
            guard let label = binding.help ?? binding.hint else { continue }
            entries.append(
                PaletteEntry(
                    target: .command(binding.command), text: label,
                    detail: binding.keys.map(\.description).joined(separator: "/")))
        }
        for entry in state.history {
            let status = entry.status.map(String.init) ?? "ERR"
            entries.append(
                PaletteEntry(
                    target: .history(id: entry.id), text: "\(entry.method) \(status) \(entry.url)",
                    detail: "#\(entry.id) " + ClockText.hourMinute(entry.startedAt, in: state.timeZone)))
        }
        return entries
    }

    /// The rows a palette shows before its query narrows them: its offer's, else every row.
    static func entries(_ state: AppState, _ palette: PaletteState) -> [PaletteEntry] {
        palette.offer?.entries ?? entries(state)
    }

    /// The rows of a palette matching its query, best first, with the matched characters.
    static func ranked(_ state: AppState, _ palette: PaletteState) -> [(entry: PaletteEntry, match: FuzzyMatch.Match)] {
        let all = entries(state, palette)
        return FuzzyMatch.rank(palette.query.text, all.map(\.text)).map { (entry: all[$0.index], match: $0.match) }
    }

    /// The most rows the palette shows at once.
    static let maximumRows = 14

    /// How wide the kind column is.
    static let kindWidth = 9

    /// The rows as list items: the kind, then the text with matched characters underlined.
    static func items(_ ranked: [(entry: PaletteEntry, match: FuzzyMatch.Match)]) -> [ListItem] {
        ranked.map { entry, match in
            let matched = Set(match.positions)
            var spans = [Span(entry.kind.padding(toLength: kindWidth, withPad: " ", startingAt: 0), role: .dim)]
            // One span per run of matched or unmatched characters.
            var run = ""
            var runMatched = false
            for (index, character) in entry.text.enumerated() {
                if matched.contains(index) != runMatched, !run.isEmpty {
                    spans.append(Span(run, runMatched ? Style(.searchMatch, [.bold, .underline]) : Style(.overlay)))
                    run = ""
                }
                runMatched = matched.contains(index)
                run.append(character)
            }
            if !run.isEmpty {
                spans.append(Span(run, runMatched ? Style(.searchMatch, [.bold, .underline]) : Style(.overlay)))
            }
            return ListItem(spans, trailing: entry.detail.isEmpty ? [] : [Span(entry.detail, role: .dim)])
        }
    }
}
