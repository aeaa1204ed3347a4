import History
import NetworkingCore
import Terminal
import Workspace

/// The History pane: the stored exchanges listed, one shown as the response (one preview at a
/// time), two compared line by line, one sent again.
extension AppReducer {
    /// The history list was read again.
    static func historyLoaded(_ entries: [HistorySummary], _ state: inout AppState) {
        state.history = entries
        state.historyList.selected = min(state.historyList.selected, max(0, entries.count - 1))
    }

    /// An exchange was stored: it keeps its row's id, and the list is read again.
    static func recorded(_ id: Int, historyID: Int64, _ state: inout AppState) -> [AppEffect] {
        state.exchanges[id]?.historyID = historyID
        return [.loadHistory(collectionPath: state.historyCollectionFilter)]
    }

    /// `H`: the History pane lists this collection's exchanges (the default) or every
    /// collection's.
    static func toggleHistoryScope(_ state: inout AppState) -> [AppEffect] {
        state.historyOfEveryCollection.toggle()
        state.historyList.selected = 0
        state.message =
            state.historyOfEveryCollection
            ? "History: every collection's exchanges (H: this collection's only)"
            : "History: \(state.collectionFileName)'s exchanges (H: every collection's)"
        return [.loadHistory(collectionPath: state.historyCollectionFilter)]
    }

    // MARK: - Showing history

    /// A stored exchange was read: shown, unless the user has moved to another row since.
    static func historyOpened(_ entry: HistoryEntry, _ snapshot: ResponseSnapshot?, _ state: inout AppState) {
        guard state.selectedHistoryEntry?.id == entry.id || state.focus != .history else { return }
        show(entry, snapshot, &state)
    }

    /// Shows a stored exchange as the response.
    private static func show(_ entry: HistoryEntry, _ snapshot: ResponseSnapshot?, _ state: inout AppState) {
        // A row of an exchange still in memory shows that exchange, whole, not the stored copy.
        if let live = state.exchanges.values.first(where: { $0.historyID == entry.id && !$0.isHistoryPreview }) {
            dropHistoryPreview(keeping: live.id, &state)
            if state.shownExchange != live.id {
                state.shownExchange = live.id
                resetBodyView(&state)
            }
            return
        }
        let id = state.nextExchangeID
        state.nextExchangeID += 1
        let phase: Exchange.Phase
        if let snapshot {
            phase = .received(snapshot)
        } else {
            phase = .failed(
                TransportFailure(category: "transport error", message: entry.transportError ?? "no response", hint: nil)
            )
        }
        state.exchanges[id] = Exchange(
            id: id, endpointID: entry.endpoint, environment: entry.environment, method: entry.method, url: entry.url,
            requestHeaders: entry.requestHeaders,
            requestBody: entry.requestBody.map { String(decoding: $0, as: UTF8.self) },
            startedAt: entry.startedAt, phase: phase, historyID: entry.id, isHistoryPreview: true)
        // What its checks found when it was sent: the Checks tab and "3/4 checks" again.
        state.exchanges[id]?.checks = entry.checks
        state.forgetOldExchanges()
        dropHistoryPreview(keeping: id, &state)
        state.shownExchange = id
        resetBodyView(&state)
    }

    /// Keeps one history preview at a time: drops the one shown before, never an exchange of
    /// this session (a response just received stays whole in memory while rows are previewed).
    private static func dropHistoryPreview(keeping id: Int, _ state: inout AppState) {
        if let previous = state.shownExchange, previous != id, state.exchanges[previous]?.isHistoryPreview == true {
            state.exchanges[previous] = nil
        }
    }

    /// `r`: sends a history entry's endpoint again, in its environment (the picker asks when
    /// that one is gone).
    static func resend(_ entry: HistorySummary, _ state: inout AppState) -> [AppEffect] {
        guard let name = entry.endpoint, let endpoint = state.endpoint(withID: name) else {
            state.message =
                "That exchange did not come from an endpoint of this collection; it cannot be re-sent from here."
            return []
        }
        let environment: Environment
        if let name = entry.environment {
            guard let found = state.environments.first(where: { $0.name == name }) else {
                guard !state.environments.isEmpty else {
                    state.message = "This collection has no environment to send to."
                    state.messageIsError = true
                    return []
                }
                // Never another environment silently: ask which one.
                state.resendPending = entry
                state.overlay = .environmentPicker(ListState(selected: state.activeEnvironment))
                state.message = "Environment \(name) is no longer in the collection; choose one to re-send in."
                return []
            }
            environment = found
        } else {
            guard let active = state.activeEnvironmentValue else { return [] }
            environment = active
        }
        return sendOrConfirm(endpoint, in: environment, &state)
    }

    // MARK: - Comparing history entries

    /// `d`: marks an entry, then compares it with the next one marked.
    static func compare(_ state: inout AppState) -> [AppEffect] {
        guard state.focus == .history else {
            state.message = "d compares history entries: Tab to History, d on one, then d on another."
            return []
        }
        guard let entry = state.selectedHistoryEntry else {
            state.message = "Select a history entry, press d, then d again on another to compare them."
            return []
        }
        guard let base = state.compareBase, base.id != entry.id else {
            state.compareBase = entry
            state.message =
                "Marked #\(entry.id) \(entry.endpoint ?? entry.url) (\(entry.environment ?? "-")); press d on another entry to compare."
            return []
        }
        state.compareBase = nil
        state.message = "Comparing #\(base.id) and #\(entry.id)…"
        return [.compareHistory(base.id, entry.id)]
    }

    /// Two entries were compared: the comparison is shown, and how many lines differ.
    static func comparisonReady(_ comparison: Comparison, _ state: inout AppState) {
        state.comparison = comparison
        state.focus = .response
        let changed = comparison.lines.filter { if case .same = $0 { return false } else { return true } }.count
        state.message =
            changed == 0
            ? "The two exchanges are the same."
            : "\(changed) line\(changed == 1 ? "" : "s") differ; Esc closes the comparison."
    }
}
