import Foundation
import NetworkingCore
import Yams

/// What makes an endpoint a WebSocket (`websocket: true`, or a ws:// or wss:// URL): it opens a
/// connection instead of sending a request, and keeps the messages a user sends often.
///
/// ```yaml
/// - name: Echo
///   path: /ws/echo
///   websocket: true
///   messages:
///     - hello                      # a message named by its text
///     - name: Subscribe
///       text: '{"op": "subscribe", "channel": "{{channel}}"}'
///     - name: Ping as JSON
///       json: {op: ping}
/// ```
package struct WebSocketSettings: Sendable, Codable, Hashable {
    /// The saved messages, in file order; their text may hold `{{variables}}`.
    package var messages: [SavedMessage]

    /// Creates settings.
    package init(messages: [SavedMessage] = []) {
        self.messages = messages
    }
}

/// A message kept with a WebSocket endpoint (`messages:`), sent with one key in the TUI or by
/// name with `explorer send --message @NAME`.
package struct SavedMessage: Sendable, Codable, Hashable {
    /// The name shown in the list (the text itself when the file gives none).
    package var name: String
    /// The text sent, a template.
    package var text: String
    /// Whether the file wrote it as `json:` (written back the same way).
    package var isJSON: Bool

    /// Creates a saved message.
    package init(name: String, text: String, isJSON: Bool = false) {
        self.name = name
        self.text = text
        self.isJSON = isJSON
    }
}

extension Endpoint {
    /// Whether the endpoint opens a WebSocket: `websocket: true`, or a path that is a ws:// or
    /// wss:// URL, or (`resolvedURL`) an environment whose base URL is one.
    ///
    /// - Parameter resolvedURL: the URL the endpoint resolved to, when known.
    package func isWebSocket(resolvedURL: String? = nil) -> Bool {
        if webSocket != nil || Self.isWebSocketURL(path) { return true }
        return resolvedURL.map(Self.isWebSocketURL) ?? false
    }

    /// Whether a URL's scheme is ws or wss.
    package static func isWebSocketURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://")
    }

    /// The saved messages (none for an endpoint that is not a WebSocket).
    package var savedMessages: [SavedMessage] { webSocket?.messages ?? [] }
}

extension Reader {
    /// Reads an endpoint's `websocket:` and `messages:`.
    ///
    /// - Throws: `CollectionError.wrongType` or `.invalidCheck` at the line and column of the
    ///   value at fault.
    mutating func readWebSocket(_ mapping: Node.Mapping, into endpoint: inout Endpoint) throws {
        let name = endpoint.name
        var isWebSocket = Endpoint.isWebSocketURL(endpoint.path)
        if let flag = mapping.value("websocket") {
            guard let value = flag.flag else {
                throw CollectionError.wrongType(location(flag), key: "websocket", expected: "true or false")
            }
            isWebSocket = value || isWebSocket
        }
        guard let messagesNode = mapping.value("messages") else {
            endpoint.webSocket = isWebSocket ? WebSocketSettings() : nil
            return
        }
        guard isWebSocket else {
            throw CollectionError.invalidCheck(
                location(messagesNode), key: "messages", endpoint: name,
                problem: "messages are for WebSocket endpoints: add websocket: true (or use a ws:// URL).")
        }
        guard case .sequence(let sequence) = messagesNode else {
            throw CollectionError.wrongType(
                location(messagesNode), key: "messages",
                expected: "a list of texts or of mappings with name and text (or json)")
        }
        var messages: [SavedMessage] = []
        for element in sequence {
            switch element {
            case .scalar(let scalar):
                messages.append(SavedMessage(name: scalar.string, text: scalar.string))
            case .mapping(let message):
                checkKeys(
                    message, known: CollectionLoader.webSocketMessageKeys, in: "a message of endpoint \"\(name)\"")
                let text: String
                var isJSON = false
                if let json = message["json"] {
                    guard message["text"] == nil else {
                        throw CollectionError.wrongType(
                            location(json), key: "messages.json",
                            expected: "either text or json in one message, not both")
                    }
                    text = JSONValue(yaml: json).serialized()
                    isJSON = true
                } else if let textNode = message["text"] {
                    text = try string(textNode, key: "messages.text")
                } else {
                    throw CollectionError.missingKey(
                        location(element), key: "text", in: "this message of endpoint \"\(name)\" (or json)")
                }
                let title = try message["name"].map { try string($0, key: "messages.name") } ?? text
                messages.append(SavedMessage(name: title, text: text, isJSON: isJSON))
            default:
                throw CollectionError.wrongType(
                    location(element), key: "messages", expected: "a text, or a mapping with name and text (or json)")
            }
        }
        endpoint.webSocket = WebSocketSettings(messages: messages)
    }
}

extension CollectionWriter {
    /// `websocket:` and `messages:` of an endpoint, as the loader reads them.
    static func webSocketPairs(_ endpoint: Endpoint) -> [(Node, Node)] {
        guard let settings = endpoint.webSocket else { return [] }
        var pairs: [(Node, Node)] = []
        if !Endpoint.isWebSocketURL(endpoint.path) { pairs.append(("websocket", Node("true", .implicit, .plain))) }
        guard !settings.messages.isEmpty else { return pairs }
        let messages: [Node] = settings.messages.map { message in
            if message.isJSON, let json = try? JSONValue(parsing: message.text) {
                return Node([(scalar("name"), scalar(message.name)), (scalar("json"), jsonNode(json))], .implicit)
            }
            if message.name == message.text { return scalar(message.text) }
            return Node([(scalar("name"), scalar(message.name)), (scalar("text"), scalar(message.text))], .implicit)
        }
        pairs.append(("messages", Node(messages, .implicit)))
        return pairs
    }
}
