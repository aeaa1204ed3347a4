import Dispatch
import Foundation
import History

/// The history as the TUI reads it: the rows the History pane lists, one exchange opened,
/// two compared. Reads run on the caller's queue (never the main one).
package struct SessionHistory: Sendable {
    /// The history; `nil` when it is off (tests), and then nothing is read.
    package let recorder: HistoryRecorder?

    package init(recorder: HistoryRecorder?) {
        self.recorder = recorder
    }

    /// The stored exchanges the History list shows: the newest 500 of the collection (of
    /// every collection when nil), without bodies.
    package static func shown(collectionPath: String?) -> HistoryQuery {
        HistoryQuery(collectionPath: collectionPath, limit: 500)
    }

    /// What the History pane lists, or why it could not be read.
    package func listed(collectionPath: String?) -> AppAction? {
        guard let store = recorder?.store else { return nil }
        do {
            return .historyLoaded(try store.summaries(matching: Self.shown(collectionPath: collectionPath)))
        } catch {
            return .message("History could not be read: \(error)", isError: true)
        }
    }

    /// One stored exchange, opened.
    package func opened(_ id: Int64) -> AppAction? {
        guard let store = recorder?.store else { return nil }
        do {
            guard let entry = try store.entry(id: id) else { return nil }
            return .historyOpened(entry, entry.status.map { ResponseSnapshot.make(entry: entry, status: $0) })
        } catch {
            return .message("History entry #\(id) could not be read: \(error)", isError: true)
        }
    }

    /// Two stored exchanges, compared.
    package func compared(_ first: Int64, _ second: Int64) -> AppAction? {
        guard let store = recorder?.store else { return nil }
        do {
            guard let a = try store.entry(id: first), let b = try store.entry(id: second) else { return nil }
            return .comparisonReady(Comparison(a, b))
        } catch {
            return .message("History could not be read: \(error)", isError: true)
        }
    }
}
