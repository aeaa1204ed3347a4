import Dispatch
import Foundation
import History
import Networking
import Terminal
import Workspace

/// The explorer as a `TerminalProgram`: the reducer and view, plus the effects that reach the
/// network, the history store and the clipboard.
///
/// Every request goes through a `NetworkDispatcher` whose server provider is the environment it
/// was resolved in and whose callback queue is the runtime's (main) queue; bodies are decoded
/// and indexed off the main queue before they reach the state.
package final class ExplorerProgram: TerminalProgram, @unchecked Sendable {
    package typealias State = AppState
    package typealias Action = AppAction
    package typealias Effect = AppEffect

    private let transport: AsyncHTTPClientTransport
    private let history: HistoryRecorder?
    private let collectionPath: String?
    private let preparation = DispatchQueue(label: "explorer.body-preparation", qos: .userInitiated, attributes: .concurrent)
    private let lock = NSLock()
    private var inFlight: [Int: ResponseFuture<Response<Data?>>] = [:]
    /// Where OSC 52 clipboard sequences are written (the terminal); nil in tests.
    private let clipboardWriter: (@Sendable (String) -> Void)?
    /// Lets the user edit a text in their editor, the UI suspended meanwhile; nil when there
    /// is no terminal to hand over. Returns the saved text, or nil when it was not changed.
    private let externalEditor: (@Sendable (_ text: String, _ fileName: String) -> String?)?

    package init(
        transport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(),
        history: HistoryRecorder?,
        collectionPath: String?,
        clipboardWriter: (@Sendable (String) -> Void)?,
        externalEditor: (@Sendable (String, String) -> String?)? = nil
    ) {
        self.externalEditor = externalEditor
        self.transport = transport
        self.history = history
        self.collectionPath = collectionPath
        self.clipboardWriter = clipboardWriter
    }

    /// The stored exchanges the History list shows: the newest 500, without bodies.
    package static let historyShown = HistoryQuery(limit: 500)

    package func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        AppReducer.reduce(&state, action)
    }

    package func view(_ state: AppState, size: Size) -> CellGrid {
        AppView.render(state, size: size)
    }

    package func action(for event: InputEvent, in state: AppState) -> AppAction? {
        .input(event)
    }

    package func shouldQuit(_ state: AppState) -> Bool { state.quitting }

    package func tickInterval(_ state: AppState) -> DispatchTimeInterval? {
        state.inFlightCount > 0 ? .milliseconds(100) : nil
    }

    package func perform(_ effect: AppEffect, send: @escaping @Sendable (AppAction) -> Void) {
        switch effect {
        case .send(let id, let resolved):
            sendRequest(id, resolved, send: send)
        case .cancel(let id):
            let future = lock.withLock { inFlight.removeValue(forKey: id) }
            future?.cancel()
        case .loadHistory:
            guard let store = history?.store else { return }
            do {
                send(.historyLoaded(try store.summaries(matching: Self.historyShown)))
            } catch {
                send(.message("History could not be read: \(error)", isError: true))
            }
        case .openHistory(let id):
            guard let store = history?.store else { return }
            do {
                guard let entry = try store.entry(id: id) else { return }
                send(.historyOpened(entry, entry.status.map { ResponseSnapshot.make(entry: entry, status: $0) }))
            } catch {
                send(.message("History entry #\(id) could not be read: \(error)", isError: true))
            }
        case .compareHistory(let first, let second):
            guard let store = history?.store else { return }
            do {
                guard let a = try store.entry(id: first), let b = try store.entry(id: second) else { return }
                send(.comparisonReady(Comparison(a, b)))
            } catch {
                send(.message("History could not be read: \(error)", isError: true))
            }
        case .copyToClipboard(let text):
            clipboardWriter?(OSC52.sequence(copying: text))
        case .search(let id, let query, let document):
            send(.searchFinished(exchange: id, query: query, lines: document.linesMatching(query)))
        case .filter(let id, let expression, let document):
            send(.filterFinished(exchange: id, expression: expression,
                                 Result { try JSONPath.filter(document, expression) }.mapError(JSONPath.failure)))
        case .editInEditor(let endpoint):
            guard let externalEditor else {
                send(.message("There is no terminal to run an editor in.", isError: true))
                return
            }
            do {
                let fileName = "explorer-" + endpoint.id.map { $0.isLetter || $0.isNumber ? $0 : "-" } + ".yaml"
                guard let edited = externalEditor(try EndpointEditing.document(for: endpoint), String(fileName)) else {
                    send(.message("Not changed.", isError: false))
                    return
                }
                send(.endpointEdited(try EndpointEditing.endpoint(from: edited, original: endpoint, file: String(fileName))))
            } catch {
                send(.message(String(describing: error), isError: true))
            }
        case .saveEndpoint(let endpoint, let collectionPath):
            let url = URL(fileURLWithPath: collectionPath)
            do {
                let current = try CollectionLoader.load(from: url)
                var single = current
                single.items = [.endpoint(endpoint)]
                let (merged, _) = CollectionMerger.merge(single, into: current) { _ in true }
                try CollectionMerger.writeAtomically(try CollectionWriter.yaml(for: merged), to: url)
                send(.endpointSaved(id: endpoint.id))
            } catch {
                send(.message("Could not save \(endpoint.id) to \(url.path): \(sentence(describing: error))", isError: true))
            }
        case .saveBody(let bytes, let path):
            do {
                try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
                send(.message("Saved \(bytes.count) bytes to \(path)", isError: false))
            } catch {
                send(.message("Could not save the body to \(path): \(error.localizedDescription)", isError: true))
            }
        }
    }

    private func sendRequest(_ id: Int, _ resolved: ResolvedRequest, send: @escaping @Sendable (AppAction) -> Void) {
        let started = Date()
        let dispatcher = NetworkDispatcher(serverProvider: resolved.environment, transport: transport, callbackQueue: .main)
        let future = dispatcher.future(from: resolved.request)
        let environment = resolved.environment
        let collectionPath = self.collectionPath
        let history = self.history
        let secrets = resolved.masker.secretValues
        lock.withLock { inFlight[id] = future }
        future
            .progress { progress in send(.progress(exchange: id, bytes: Int(progress.completedBytes), head: progress.head)) }
            .response { [preparation] response in
                preparation.async {
                    let snapshot = ResponseSnapshot.make(response)
                    send(.received(exchange: id, snapshot))
                    var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                    entry.fill(response)
                    if let historyID = history?.record(entry, secrets: secrets) {
                        send(.recorded(exchange: id, historyID: historyID))
                    }
                }
            }
            .error { error in
                if let transportError = error as? TransportError, transportError == .cancelled { return }
                send(.failed(exchange: id, TransportFailure(error)))
                var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                entry.fail(String(describing: error), started: started)
                if let historyID = history?.record(entry, secrets: secrets) {
                    send(.recorded(exchange: id, historyID: historyID))
                }
            }
            .completion { [weak self] in
                withExtendedLifetime(environment) {}
                self?.lock.withLock { _ = self?.inFlight.removeValue(forKey: id) }
            }
            .send()
    }

    /// Closes the HTTP client; call once the runtime has returned.
    package func shutdown() async {
        try? await transport.shutdown()
    }
}

/// The OSC 52 escape sequence that asks the terminal to put text on the clipboard.
package enum OSC52 {
    static func sequence(copying text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
