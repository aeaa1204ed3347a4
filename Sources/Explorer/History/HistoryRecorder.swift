import Foundation
import Synchronization

/// Records exchanges without ever getting in the way of a request.
///
/// Wraps an optional `HistoryStore`: when the store could not be opened, or a write fails, the
/// failure is reported once (through `report`) and every later exchange is still sent and
/// shown; `record` just returns `nil`. The notices from opening (a recovery, a folder that
/// could not be made private) are reported the same way.
/// This is what `explorer send` and the TUI use after each exchange.
package final class HistoryRecorder: Sendable {
    /// The store, or `nil` when history is off or could not be opened.
    package let store: HistoryStore?

    private let report: @Sendable (String) -> Void
    private let hasReportedFailure = Mutex(false)

    /// Opens the history file, reporting (once) a failure or a recovery.
    ///
    /// - Parameters:
    ///   - fileURL: the history file (default: `HistoryLocation.defaultFile()`).
    ///   - configuration: the body cap and retention (default: the defaults with the
    ///     `EXPLORER_HISTORY_*` environment variables applied).
    ///   - report: where the one-sentence messages go (the CLI writes them to stderr; the TUI
    ///     shows them in its status line).
    package init(
        fileURL: URL = HistoryLocation.defaultFile(),
        configuration: HistoryConfiguration = .fromEnvironment(),
        report: @escaping @Sendable (String) -> Void
    ) {
        self.report = report
        do {
            let store = try HistoryStore(fileURL: fileURL, configuration: configuration)
            self.store = store
            store.notices.forEach(report)
        } catch {
            self.store = nil
            hasReportedFailure.withLock { $0 = true }
            report("History is off for this run: \(HistoryStore.reason(error)).")
        }
    }

    /// Wraps a store that is already open (or none, to keep history off silently).
    ///
    /// - Parameters:
    ///   - store: the store, or `nil`.
    ///   - report: where a write failure's sentence goes.
    package init(store: HistoryStore?, report: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.report = report
    }

    /// Records an exchange; a failure is reported the first time only and never thrown.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - secrets: secret values to mask.
    /// - Returns: the new id, or `nil` when history is off or the write failed.
    @discardableResult
    package func record(_ entry: HistoryEntry, secrets: [String] = []) -> Int64? {
        guard let store else { return nil }
        do {
            return try store.record(entry, secrets: secrets)
        } catch {
            let first = hasReportedFailure.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first { report("\(HistoryStore.reason(error)); the request itself was not affected.") }
            return nil
        }
    }
}
