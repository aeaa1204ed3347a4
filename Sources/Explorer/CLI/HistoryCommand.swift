import App
import ArgumentParser
import Foundation
import History
import NetworkingCore
import Query
import Workspace

/// `explorer history ...`: lists, shows, re-sends and clears stored exchanges.
///
/// The history lives in `$XDG_STATE_HOME/explorer/history.sqlite`; `EXPLORER_HISTORY_BODY_CAP`,
/// `EXPLORER_HISTORY_KEEP` and `EXPLORER_HISTORY_KEEP_DAYS` change the body cap and retention
/// (see `HistoryConfiguration.fromEnvironment`). Exit codes: 0 on success,
/// 2 for usage errors and unknown ids, 1 when the history file cannot be read or written;
/// `resend` exits like `explorer send`.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, show, re-send and clear the stored request history.",
        discussion: """
            Every exchange `explorer send` and the TUI make is kept in \
            $XDG_STATE_HOME/explorer/history.sqlite (default ~/.local/state/explorer). Bodies are \
            kept up to EXPLORER_HISTORY_BODY_CAP (default 5M); the newest EXPLORER_HISTORY_KEEP \
            exchanges (default 10000) are kept, or those of the last EXPLORER_HISTORY_KEEP_DAYS \
            days when set.
            """,
        subcommands: [List.self, Show.self, Resend.self, Clear.self],
        defaultSubcommand: List.self
    )

    /// Opens the history file for a command, or ends it with one sentence on stderr.
    ///
    /// - Returns: the store.
    /// - Throws: `ExitCode(1)` when the file cannot be opened.
    static func openStore() throws -> HistoryStore {
        do {
            let store = try HistoryStore(fileURL: HistoryLocation.defaultFile(), configuration: .fromEnvironment())
            store.notices.forEach(printError)
            return store
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(1)
        }
    }

    /// Runs a store operation, turning its failure into one sentence and exit code 1.
    static func attempt<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(1)
        }
    }

    // MARK: - list

    /// `explorer history [--collection FILE | --all] [--endpoint NAME] [--env NAME] [--status CLASS]
    /// [--search TEXT] [--limit N] [--json]`.
    ///
    /// Lists the exchanges of one collection, as the TUI's History pane does: the collection
    /// `explorer send` would use. `--all` lists every collection's (and the requests sent
    /// without one); so does a folder where no collection is found, saying so on stderr.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List stored exchanges, newest first (the default).",
            discussion: """
                Only the exchanges of the collection `explorer send` would use: --collection FILE, \
                else ./explorer.yaml, else $EXPLORER_COLLECTION. --all lists those of every \
                collection, and the requests sent without one.
                """)

        @OptionGroup var collectionFile: CollectionFileOption

        /// `--collection`, as given.
        var collection: String? { collectionFile.collection }

        @Flag(name: .long, help: "List the exchanges of every collection.")
        var all = false

        @Option(name: .long, help: "Only this endpoint (Folder/Name).")
        var endpoint: String?

        @Option(name: .long, help: "Only this environment.")
        var env: String?

        @Option(name: .long, help: ArgumentHelp("Only this outcome: 2xx, 3xx, 4xx, 5xx or error.", valueName: "CLASS"))
        var status: String?

        @Option(
            name: .long,
            help: "Full-text search over URLs and bodies: whole words, all of them; end a word with * for a prefix.")
        var search: String?

        @Option(name: .long, help: "Only exchanges sent at or after this date (YYYY-MM-DD or ISO 8601).")
        var since: String?

        @Option(name: .long, help: "Only exchanges sent before this date (YYYY-MM-DD or ISO 8601).")
        var until: String?

        @Option(name: .long, help: "How many to show.")
        var limit: Int = 20

        @Option(name: .long, help: "How many of the newest matches to skip (for paging).")
        var offset: Int = 0

        @Flag(name: .long, help: "Print a JSON array.")
        var json = false

        func validate() throws {
            if let status, HistoryStatusClass(rawValue: status.lowercased()) == nil {
                throw ExchangeSender.usageError(
                    "--status must be one of 2xx, 3xx, 4xx, 5xx or error, not \"\(status)\".")
            }
            if all, collection != nil {
                throw ExchangeSender.usageError(
                    "--all lists every collection's exchanges: leave out --collection, or --all.")
            }
            if limit < 1 { throw ExchangeSender.usageError("--limit must be at least 1.") }
            if offset < 0 { throw ExchangeSender.usageError("--offset must not be negative.") }
            if let since, HistoryCommand.parseDate(since) == nil {
                throw ExchangeSender.usageError(
                    "--since expects a date such as 2026-11-23 or 2026-11-23T09:30:00Z, not \"\(since)\".")
            }
            if let until, HistoryCommand.parseDate(until) == nil {
                throw ExchangeSender.usageError(
                    "--until expects a date such as 2026-11-23 or 2026-11-23T09:30:00Z, not \"\(until)\".")
            }
        }

        /// Whose exchanges to list.
        enum Scope: Equatable {
            /// The exchanges of the collection kept under this key (`APICollection.storeKey`).
            case collection(key: String)
            /// Every collection's, because `--all` asks for them or because no collection was
            /// found (`asked` false).
            case everyCollection(asked: Bool)
        }

        /// The collection whose exchanges to list, found as `explorer send` finds it.
        ///
        /// - Parameters:
        ///   - environment: the process environment (for `EXPLORER_COLLECTION`).
        ///   - currentDirectory: where `explorer.yaml` is looked for.
        /// - Returns: the scope.
        func scope(
            environment: @autoclosure () -> [String: String] = ProcessInfo.processInfo.environment,
            currentDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath
        ) -> Scope {
            if all { return .everyCollection(asked: true) }
            guard
                let found = CollectionLocation.find(
                    explicit: collection, environment: environment(), currentDirectory: currentDirectory())
            else {
                return .everyCollection(asked: false)
            }
            return .collection(key: APICollection.storeKey(forFileAt: found.url))
        }

        /// The store's query for the options, in `scope`.
        func query(in scope: Scope) -> HistoryQuery {
            var key: String?
            if case .collection(let found) = scope { key = found }
            return HistoryQuery(
                endpoint: endpoint, environment: env, collectionPath: key,
                statusClass: status.flatMap { HistoryStatusClass(rawValue: $0.lowercased()) },
                since: since.flatMap(HistoryCommand.parseDate), until: until.flatMap(HistoryCommand.parseDate),
                search: search, limit: limit, offset: offset)
        }

        func run() throws {
            let scope = scope()
            if scope == .everyCollection(asked: false) {
                printError(
                    "No collection here (no --collection, ./explorer.yaml or EXPLORER_COLLECTION): "
                        + "listing the exchanges of every collection."
                )
            }
            let store = try HistoryCommand.openStore()
            let query = query(in: scope)
            let rows = try HistoryCommand.attempt { try store.summaries(matching: query) }
            if json {
                ExchangeOutput.write(ExchangeOutput.jsonText(rows.map(HistoryCommand.jsonObject)) + "\n")
                return
            }
            if rows.isEmpty {
                if case .collection(let key) = scope {
                    printError("No exchanges of \(key) in the history match; --all lists every collection's.")
                } else {
                    printError("No exchanges in the history match.")
                }
                return
            }
            // Escaped on a terminal and piped alike: a list kept in a file is read on one later.
            for row in rows {
                ExchangeOutput.write(
                    ExchangeOutput.escapingControls(HistoryCommand.line(for: row), keepingLineBreaks: false) + "\n")
            }
        }
    }

    // MARK: - show

    /// `explorer history show ID [--json]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one stored exchange: request, response, headers and bodies.")

        @Argument(help: "The exchange's id, as `explorer history` lists it.")
        var id: Int64

        @Flag(name: .long, help: "Print one JSON object (the `send --json` fields plus the request).")
        var json = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Print what this JSONPath query (RFC 9535) selects in the stored body, as a JSON array.",
                valueName: "JSONPATH"))
        var filter: String?

        func validate() throws {
            if let filter { _ = try ExchangeOutputOptions.parseFilter(filter) }
        }

        func run() throws {
            let store = try HistoryCommand.openStore()
            let entry = try HistoryCommand.requireEntry(id, in: store)
            if let filter, let path = try? JSONPath(filter) {
                if entry.isResponseBodyTruncated {
                    printError(
                        "The stored body was cut at \(entry.responseBody?.count ?? 0) of \(entry.responseBodySize) "
                            + "bytes: the filter reads what was kept."
                    )
                }
                return try ExchangeSender.writeBody(entry, filter: path, terminal: ExchangeOutput.stdoutIsTerminal)
            }
            if json {
                ExchangeOutput.writeJSON(of: entry, historyId: entry.id, includeRequest: true, checks: entry.checks)
                return
            }
            ExchangeOutput.write(HistoryCommand.details(of: entry))
        }
    }

    // MARK: - resend

    /// `explorer history resend ID`: sends the same endpoint again, as a new exchange.
    struct Resend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resend",
            abstract: "Send a stored exchange again (re-resolved from its collection when it has one).",
            discussion: """
                An exchange sent from a collection is re-resolved from that collection in the same \
                environment, so secrets (masked in the history) are filled in again. Exit codes as \
                for `explorer send`.
                """)

        @Argument(help: "The exchange's id, as `explorer history` lists it.")
        var id: Int64

        @OptionGroup var output: ExchangeOutputOptions

        @OptionGroup var confirm: ConfirmOption

        func run() async throws {
            let store = try HistoryCommand.openStore()
            let entry = try HistoryCommand.requireEntry(id, in: store)
            let plan = try HistoryCommand.plan(resending: entry)
            try plan.confirmIfProtected(yes: confirm.yes)
            let recorder = HistoryRecorder(store: store, report: printError)
            if case .resolved(let resolved) = plan.target, resolved.endpoint.isGRPC, let path = plan.collectionPath {
                let collection = try CollectionLoader.load(from: URL(fileURLWithPath: path))
                return try await GRPCSender(options: try GRPCSendOptions.parse([]), output: output)
                    .run(
                        resolved, collection: collection, collectionFile: URL(fileURLWithPath: path), recorder: recorder
                    )
            }
            var sender = ExchangeSender(output)
            if case .resolved(let resolved) = plan.target {
                // As `explorer send` does: the environment's tls: and proxy: apply.
                try sender.useTLS(
                    of: resolved.environment, collectionFile: plan.collectionPath.map { URL(fileURLWithPath: $0) })
                try sender.useProxy(of: resolved.environment, overrides: [:])
            }
            try await sender.run(plan, recorder: recorder, output: output)
        }
    }

    // MARK: - clear

    /// `explorer history clear [--before DATE]`.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Delete stored exchanges: all of them, or those sent before a date.")

        @Option(name: .long, help: "Only delete exchanges sent before this date (YYYY-MM-DD, UTC, or ISO 8601).")
        var before: String?

        func validate() throws {
            if let before, HistoryCommand.parseDate(before) == nil {
                throw ExchangeSender.usageError(
                    "--before expects a date such as 2026-11-23 or 2026-11-23T09:30:00Z, not \"\(before)\".")
            }
        }

        func run() throws {
            let store = try HistoryCommand.openStore()
            let date = before.flatMap(HistoryCommand.parseDate)
            let deleted = try HistoryCommand.attempt { try store.clear(before: date) }
            let what = deleted == 1 ? "1 exchange" : "\(deleted) exchanges"
            ExchangeOutput.write("Deleted \(what)\(before.map { " sent before \($0)" } ?? "").\n")
        }
    }
}

// MARK: - Helpers

extension HistoryCommand {
    /// The entry with an id, or exit code 2 with one sentence.
    static func requireEntry(_ id: Int64, in store: HistoryStore) throws -> HistoryEntry {
        guard let entry = try attempt({ try store.entry(id: id) }) else {
            printError(HistoryError.notFound(id: id).description)
            throw ExitCode(2)
        }
        return entry
    }

    /// How to send a stored exchange again: from its collection when it has one, else as stored
    /// (without the headers whose values history masked).
    static func plan(resending entry: HistoryEntry) throws -> ExchangeSender.Plan {
        if let path = entry.collectionPath, let endpoint = entry.endpoint {
            return try ExchangeSender.Plan.fromCollection(
                at: URL(fileURLWithPath: path), endpoint: endpoint, environment: entry.environment, overrides: [:])
        }
        guard entry.method != HistoryEntry.grpcMethod else {
            printError(
                "Exchange \(entry.id ?? 0) is a gRPC call, and gRPC calls are sent again from their collection; "
                    + "this one has none.")
            throw ExitCode(2)
        }
        guard let url = URL(string: entry.url), url.scheme != nil else {
            printError("Exchange \(entry.id ?? 0) cannot be sent again: its URL \(entry.url) is not absolute.")
            throw ExitCode(2)
        }
        let headers = HTTPHeaders(entry.requestHeaders.fields.filter { !$0.value.contains(HistorySecretMasking.mask) })
        let request = PreparedRequest(
            method: HTTPMethod(rawValue: entry.method), url: url, headers: headers, body: entry.requestBody)
        return ExchangeSender.Plan(target: .raw(request), collectionPath: nil, secrets: [])
    }

    /// Parses `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time.
    static func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let full = ISO8601DateFormatter()
        if let date = full.date(from: trimmed) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: trimmed) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: trimmed)
    }

    /// One line of the list: id, time, environment, method, status, duration, size, endpoint, URL.
    static func line(for row: HistorySummary) -> String {
        // A gRPC call's outcome is its status's name (`OK`, `NOT_FOUND`), kept as the reason.
        let outcome =
            row.method == HistoryEntry.grpcMethod ? (row.reason ?? "ERR") : (row.status.map { "\($0)" } ?? "ERR")
        let columns = [
            pad("#\(row.id)", 6),
            shortTime(row.startedAt),
            pad(row.environment ?? "-", 10),
            pad(row.method, 6),
            pad(outcome, 3),
            pad(String(format: "%.0f ms", row.totalMilliseconds), 8, left: true),
            pad(byteCount(row.responseBodySize), 9, left: true),
            row.endpoint ?? "-",
            row.url,
        ]
        return columns.joined(separator: "  ")
    }

    /// The full exchange, as `history show` prints it: bodies as a terminal shows them, and
    /// every control character escaped, on a terminal and piped alike (names, URLs and headers
    /// came from a file or a server).
    static func details(of entry: HistoryEntry) -> String {
        var text = "Exchange #\(entry.id ?? 0), sent \(ExchangeOutput.iso8601(entry.startedAt))"
        if let environment = entry.environment { text += " to \(environment)" }
        if let endpoint = entry.endpoint { text += " (\(endpoint))" }
        text += "\n"
        if let collection = entry.collectionPath { text += "Collection: \(collection)\n" }
        text += "\n> \(entry.method) \(entry.url)\n"
        for field in entry.requestHeaders { text += "> \(field.name): \(field.value)\n" }
        if let body = entry.requestBody, !body.isEmpty {
            text +=
                "\n"
                + String(
                    decoding: ExchangeOutput.printableBody(
                        body, contentType: entry.requestHeaders["Content-Type"], terminal: true), as: UTF8.self)
            if entry.isRequestBodyTruncated {
                text +=
                    "(request body truncated: \(byteCount(body.count)) of \(byteCount(entry.requestBodySize)) kept)\n"
            }
        }
        text += "\n"
        if let failure = entry.transportError {
            text += "Failed after \(String(format: "%.0f", entry.timings.totalMilliseconds)) ms: \(failure)\n"
            return ExchangeOutput.escapingControls(text)
        }
        text += "< \(entry.httpVersion ?? "HTTP/1.1") \(entry.status.map(String.init) ?? "") \(entry.reason ?? "")"
        text +=
            "  (\(String(format: "%.1f", entry.timings.totalMilliseconds)) ms, \(byteCount(entry.responseBodySize)))\n"
        for field in entry.responseHeaders { text += "< \(field.name): \(field.value)\n" }
        if let body = entry.responseBody, !body.isEmpty {
            text +=
                "\n"
                + String(
                    decoding: ExchangeOutput.printableBody(body, contentType: entry.contentType, terminal: true),
                    as: UTF8.self)
            if entry.isResponseBodyTruncated {
                text +=
                    "(response body truncated: \(byteCount(body.count)) of \(byteCount(entry.responseBodySize)) kept)\n"
            }
        }
        return ExchangeOutput.escapingControls(text)
    }

    /// A summary as a JSON-compatible dictionary.
    static func jsonObject(_ row: HistorySummary) -> [String: Any] {
        [
            "id": row.id,
            "time": ExchangeOutput.iso8601(row.startedAt),
            "environment": row.environment ?? NSNull(),
            "endpoint": row.endpoint ?? NSNull(),
            "method": row.method,
            "url": row.url,
            "status": row.status ?? NSNull(),
            "reason": row.reason ?? NSNull(),
            "bodySize": row.responseBodySize,
            "contentType": row.contentType ?? NSNull(),
            "timings": ["total": (row.totalMilliseconds * 1000).rounded() / 1000],
            "error": row.transportError ?? NSNull(),
        ]
    }

    private static func shortTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    private static func byteCount(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: "\(bytes) B"
        case ..<(1024 * 1024): String(format: "%.1f KB", Double(bytes) / 1024)
        default: String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return left ? padding + text : text + padding
    }
}
