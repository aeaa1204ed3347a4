import Foundation
import NetworkingCore
import Terminal
import Workspace

/// Sending: the selected endpoint in the active environment (a protected one asks first),
/// cancelling what is under way, the request pane's preview, and copy as curl.
extension AppReducer {
    /// Enter: sends the selected endpoint, switches to the selected environment, or shows the
    /// selected history entry.
    static func sendFromFocus(_ state: inout AppState) -> [AppEffect] {
        switch state.focus {
        case .environments:
            let visible = state.environmentList.visibleIndices(environmentItems(state))
            if visible.indices.contains(state.environmentList.selected) {
                switchEnvironment(to: visible[state.environmentList.selected], &state)
            }
            return []
        case .history:
            state.focus = .response
            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
            return []
        default:
            guard let endpoint = state.selectedEndpoint else {
                state.message =
                    state.endpointRows.isEmpty ? "This collection has no endpoints." : "Select an endpoint to send."
                return []
            }
            guard let environment = state.activeEnvironmentValue else {
                state.message = "This collection has no environment to send to."
                state.messageIsError = true
                return []
            }
            return sendOrConfirm(endpoint, in: environment, &state)
        }
    }

    /// Sends the endpoint with this id (its draft when it has one) in the active environment,
    /// selecting it: what the request line just edited sends.
    static func sendEndpoint(_ id: String, _ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.endpoint(withID: id) else { return [] }
        state.rebuildRows(selecting: id)
        guard let environment = state.activeEnvironmentValue else {
            state.message = "This collection has no environment to send to."
            state.messageIsError = true
            return []
        }
        return sendOrConfirm(endpoint, in: environment, &state)
    }

    /// Sends, or first asks when the environment is protected (the confirmation then sends).
    static func sendOrConfirm(_ endpoint: Endpoint, in environment: Environment, _ state: inout AppState) -> [AppEffect]
    {
        if environment.isProtected {
            state.confirmation = state.confirmationToSend(endpoint.id, in: environment.name)
            return []
        }
        return send(endpoint, in: environment, &state)
    }

    /// The confirmation before sending to a protected environment was confirmed: sends.
    static func sendConfirmed(_ endpointID: String, in environment: String, _ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.endpoint(withID: endpointID),
            let environment = state.environments.first(where: { $0.name == environment })
        else { return [] }
        return send(endpoint, in: environment, &state)
    }

    /// Starts an exchange: shown at once, sent by the effect.
    private static func send(_ endpoint: Endpoint, in environment: Environment, _ state: inout AppState) -> [AppEffect]
    {
        guard let plan = state.plan(for: endpoint, in: environment) else { return [] }
        let id = state.nextExchangeID
        state.nextExchangeID += 1
        var exchange = Exchange(
            id: id, endpointID: endpoint.id, environment: environment.name,
            method: endpoint.method.rawValue, url: endpoint.path, requestHeaders: HTTPHeaders(), requestBody: nil,
            startedAt: state.now, phase: .inFlight(bytes: 0))
        // Until the effect reports what it resolved, show the pane's preview of the same plan.
        if let preview = state.preview, preview.key == plan.key { exchange.show(preview) }
        state.exchanges[id] = exchange
        state.shownExchange = id
        state.forgetOldExchanges()
        resetBodyView(&state)
        return [.send(exchange: id, plan)]
    }

    /// Esc: closes a comparison, stops a run, closes a WebSocket, cancels the exchange in
    /// flight, or clears the focused list's filter, the body's filter or its search, the
    /// first that applies.
    static func cancel(_ state: inout AppState) -> [AppEffect] {
        if state.comparison != nil {
            state.comparison = nil
            return []
        }
        if state.compareBase != nil {
            state.compareBase = nil
            state.message = "Comparison cancelled."
            return []
        }
        if let stop = stopRun(&state) { return stop }
        if let exchange = state.shown, exchange.isInFlight, state.webSocketExchanges.contains(exchange.id) {
            state.message = "Closing the WebSocket…"
            return [.webSocket(exchange: exchange.id, .close(code: 1000, reason: "closed by the user"))]
        }
        if let exchange = state.shown, exchange.isInFlight {
            state.exchanges[exchange.id]?.phase = .cancelled
            state.message = "Cancelled \(exchange.method) \(exchange.endpointID ?? exchange.url)"
            return [.cancel(exchange: exchange.id)]
        }
        // Then what narrows the focused pane: a list's filter, the body's filter or search.
        if [.environments, .endpoints, .history].contains(state.focus), !state.listFilter(of: state.focus).isEmpty {
            setListFilter("", state.focus, &state)
            return []
        }
        if !state.body.filter.isEmpty {
            clearBodyFilter(&state)
            return []
        }
        if !state.body.search.isEmpty {
            state.body.search = ""
            state.body.matches = []
        }
        return []
    }

    // MARK: - Preview and copy as curl

    /// Asks for the request pane's preview when the selected endpoint, the environment or the
    /// collection changed since the last one.
    static func refreshPreview(_ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.selectedEndpoint, let environment = state.activeEnvironmentValue,
            let plan = state.plan(for: endpoint, in: environment)
        else {
            state.previewKey = nil
            state.preview = nil
            return []
        }
        guard plan.key != state.previewKey else { return [] }
        state.previewKey = plan.key
        state.preview = nil
        return [.preview(plan)]
    }

    /// The request pane's preview arrived: kept when it is still the one asked for.
    static func previewResolved(_ preview: RequestPreview, _ state: inout AppState) {
        guard preview.key == state.previewKey else { return }
        state.preview = preview
    }

    /// `c`: in History, the exchange shown, as it was sent; elsewhere the selected endpoint
    /// (or the shown exchange's) resolved in the active environment, as a curl command line.
    static func copyAsCurl(_ state: inout AppState) -> [AppEffect] {
        if state.focus == .history {
            guard let entry = state.selectedHistoryEntry,
                let exchange = state.shown, exchange.historyID == entry.id
            else {
                state.message =
                    state.selectedHistoryEntry == nil
                    ? "Select a history entry to copy as curl." : "Opening the entry; press c again once it shows."
                return state.selectedHistoryEntry.map { [.openHistory(id: $0.id)] } ?? []
            }
            let command = CurlCommand(
                method: HTTPMethod(rawValue: exchange.method), url: exchange.url, headers: exchange.requestHeaders,
                body: exchange.requestBody.map { .data(Data($0.utf8)) }
            ).text
            state.overlay = .text(
                title: "curl · #\(entry.id) as sent, secrets masked as stored (copied to the clipboard)",
                lines: command.components(separatedBy: "\n"))
            return [.copyToClipboard(command)]
        }
        guard let endpoint = state.selectedEndpoint ?? state.shown?.endpointID.flatMap({ state.endpoint(withID: $0) }),
            let environment = state.activeEnvironmentValue
        else {
            state.message = "Select an endpoint to copy as curl."
            return []
        }
        guard let plan = state.plan(for: endpoint, in: environment) else { return [] }
        return [.copyAsCurl(plan)]
    }
}
