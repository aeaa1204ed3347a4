import Foundation
import Workspace

/// The keys of an open WebSocket: a message line (Tab fills in the saved messages), ping, and
/// close with a code. Enter on the endpoint connects again; Esc closes with 1000.
extension AppReducer {
    /// The shown exchange when it is an open WebSocket.
    static func openWebSocket(_ state: AppState) -> Exchange? {
        guard let exchange = state.shown, exchange.isInFlight, state.webSocketExchanges.contains(exchange.id) else {
            return nil
        }
        return exchange
    }

    static func webSocketCommand(_ command: AppCommand, _ state: inout AppState) -> [AppEffect] {
        guard let exchange = openWebSocket(state) else {
            state.message = "No WebSocket is open: select a WebSocket endpoint and press Enter to connect."
            state.messageIsError = true
            return []
        }
        switch command {
        case .webSocketMessage:
            state.input = TextInput(purpose: .webSocketMessage(exchange: exchange.id, saved: nil))
        case .webSocketPing:
            return [.webSocket(exchange: exchange.id, .ping)]
        case .webSocketClose:
            state.input = TextInput(purpose: .webSocketClose(exchange: exchange.id), text: "1000 ")
        default:
            break
        }
        return []
    }

    /// Enter on the message line or the close line.
    static func webSocketInput(_ input: TextInput, _ state: inout AppState) -> [AppEffect] {
        switch input.purpose {
        case .webSocketMessage(let id, _):
            // The line stays open for the next message (Esc closes it).
            state.input = TextInput(purpose: .webSocketMessage(exchange: id, saved: nil))
            guard !input.text.isEmpty else { return [] }
            return [.webSocket(exchange: id, .send(input.text))]
        case .webSocketClose(let id):
            let words = input.text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard let first = words.first, let code = Int(first),
                code == 1000 || (3000...4999).contains(code) || (1001...1003).contains(code)
            else {
                state.message =
                    "A close code is 1000 (normal closure), 1001–1003, or 3000–4999 (the application's), then an optional reason."
                state.messageIsError = true
                return []
            }
            return [.webSocket(exchange: id, .close(code: code, reason: words.count > 1 ? String(words[1]) : ""))]
        default:
            return []
        }
    }

    /// Tab on the message line: the next saved message of the endpoint (its template, resolved
    /// when sent).
    static func cycleSavedMessage(_ state: inout AppState) -> [AppEffect] {
        guard let input = state.input, case .webSocketMessage(let id, let saved) = input.purpose else { return [] }
        let messages = state.exchanges[id]?.endpointID.flatMap { state.endpoint(withID: $0) }?.savedMessages ?? []
        guard !messages.isEmpty else {
            state.message = "This endpoint has no saved messages (add messages: to it in the collection)."
            return []
        }
        let next = saved.map { ($0 + 1) % messages.count } ?? 0
        state.input = TextInput(purpose: .webSocketMessage(exchange: id, saved: next), text: messages[next].text)
        state.message = "Saved message \(next + 1)/\(messages.count): \(messages[next].name)"
        return []
    }
}
