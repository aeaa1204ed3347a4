import Dispatch
import Foundation
import History
import NetworkingCore
import Synchronization
import Workspace

/// What the user does to an open WebSocket session from the TUI.
package enum WebSocketCommand: Sendable, Hashable {
    /// Send a text message (a template, resolved in the session's environment).
    case send(String)
    /// Send a ping.
    case ping
    /// Close with a code and a reason.
    case close(code: Int, reason: String)
}

/// The open WebSocket sessions of the TUI, by exchange id, with the request each was opened with.
final class WebSocketSessions: Sendable {
    private let sessions = Mutex<[Int: (session: WebSocketSession, resolved: ResolvedRequest)]>([:])

    func add(_ id: Int, _ session: WebSocketSession, _ resolved: ResolvedRequest) {
        sessions.withLock { $0[id] = (session, resolved) }
    }

    func remove(_ id: Int) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    func session(_ id: Int) -> (session: WebSocketSession, resolved: ResolvedRequest)? {
        sessions.withLock { $0[id] }
    }
}

extension ExchangeSending {
    /// How often the log is laid out again while messages keep arriving.
    static let webSocketPublishInterval: TimeInterval = 0.05

    /// Opens a WebSocket endpoint as exchange `id`: the log is shown as it grows (`streamed`),
    /// the closing completes the exchange (`received`) and the session goes to history.
    func openWebSocket(_ id: Int, _ resolved: ResolvedRequest, send: @escaping @Sendable (AppAction) -> Void) {
        let sessions = webSockets
        let history = self.history
        let collectionPath = self.collectionPath
        let recording = self.recording
        let bodyCap = HistoryConfiguration.fromEnvironment().bodyCap
        Task {
            let started = Date()
            func record(_ entry: HistoryEntry) {
                let secrets = resolved.masker.secretValues
                recording.async {
                    if let historyID = history?.record(entry, secrets: secrets) {
                        send(.recorded(exchange: id, historyID: historyID))
                    }
                }
            }
            guard let url = URL(string: resolved.url) else {
                send(
                    .failed(
                        exchange: id,
                        TransportFailure(
                            category: "invalid URL", message: "\(resolved.maskedURL) is not a valid URL.", hint: nil)))
                return
            }
            let session: WebSocketSession
            do {
                // Through the dispatcher a request goes through: auth (OAuth2 too), cookies and tls: apply.
                let dispatcher = resolved.dispatcher(
                    transport: try transports.transport(for: resolved.environment),
                    cookieJar: cookies.jar(for: resolved, report: Self.error(send)),
                    prompt: OAuth2Tokens.prompt(send: send))
                session = try await dispatcher.webSocket(
                    PreparedRequest(method: .get, url: url, headers: resolved.request.headers))
            } catch {
                let failure = TransportFailure(webSocket: error)
                send(.failed(exchange: id, failure))
                record(
                    HistoryEntry(
                        webSocket: resolved, startedAt: started, collectionPath: collectionPath, transcript: nil,
                        closing: nil, failure: failure.message))
                return
            }
            sessions.add(id, session, resolved)
            send(.webSocketOpened(exchange: id))
            send(
                .progress(
                    exchange: id, bytes: 0,
                    head: ResponseHead(status: HTTPStatus(code: 101), headers: [:], httpVersion: "HTTP/1.1")))
            var log = WebSocketLog(url: resolved.maskedURL, capBytes: bodyCap, openedAt: session.openedAt)
            send(.streamed(exchange: id, log.snapshot(started: started)))
            var published = Date()
            for await event in session.events {
                log.append(event)
                let now = Date()
                // A burst is laid out once: when nothing more waits, or every interval.
                if session.waitingEvents == 0 || now.timeIntervalSince(published) >= Self.webSocketPublishInterval {
                    published = now
                    send(.streamed(exchange: id, log.snapshot(started: started, now: now)))
                }
            }
            sessions.remove(id)
            let closing = log.closing ?? WebSocketClosing(code: 1006, initiator: .connection)
            send(.received(exchange: id, log.snapshot(started: started)))
            send(.message(closing.description, isError: !closing.isNormal))
            record(
                HistoryEntry(
                    webSocket: resolved, startedAt: started, collectionPath: collectionPath, transcript: log.transcript,
                    closing: closing))
        }
    }

    /// Sends a message, a ping or a close on the session of exchange `id`.
    func performWebSocket(_ id: Int, _ command: WebSocketCommand, send: @escaping @Sendable (AppAction) -> Void) {
        guard let (session, resolved) = webSockets.session(id) else {
            send(.message("The WebSocket is not open; Enter on the endpoint connects again.", isError: true))
            return
        }
        Task {
            do {
                switch command {
                case .send(let template):
                    try await session.send(text: try resolved.expand(template))
                case .ping:
                    try await session.ping(Data("explorer".utf8))
                case .close(let code, let reason):
                    try await session.close(code: code, reason: reason)
                }
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
        }
    }
}

extension TransportFailure {
    /// Reads a failure to open a WebSocket.
    init(webSocket error: any Error) {
        if let error = error as? WebSocketError {
            switch error {
            case .transport(let transport):
                self.init(transport)
                return
            case .upgradeFailed:
                self.init(
                    category: "upgrade failed", message: error.description,
                    hint:
                        "the server answered without switching to WebSocket — "
                        + "check the path, the headers and the credentials."
                )
                return
            case .upgradeRefused:
                self.init(category: "upgrade refused", message: error.description, hint: nil)
                return
            default:
                self.init(category: "WebSocket", message: error.description, hint: nil)
                return
            }
        }
        self.init(error)
    }
}
