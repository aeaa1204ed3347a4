import Foundation

/// One line of a WebSocket session's message log: a message, a ping or a close, sent or
/// received, with when it happened and how big it was.
public struct WebSocketEntry: Sendable, Hashable {
    /// Which way the entry went.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// From the client to the server.
        case sent
        /// From the server to the client.
        case received
    }

    /// What the entry is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A text message (UTF-8).
        case text
        /// A binary message.
        case binary
        /// A ping control frame.
        case ping
        /// A close frame.
        case close
    }

    /// Which way it went.
    public var direction: Direction
    /// What it is.
    public var kind: Kind
    /// Its payload.
    public var data: Data
    /// When it was sent or received.
    public var time: Date

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - direction: sent or received.
    ///   - kind: text, binary, ping or close.
    ///   - data: the payload.
    ///   - time: when it happened.
    public init(direction: Direction, kind: Kind, data: Data, time: Date = Date()) {
        self.direction = direction
        self.kind = kind
        self.data = data
        self.time = time
    }

    /// Creates a text entry.
    public static func text(_ text: String, _ direction: Direction, time: Date = Date()) -> WebSocketEntry {
        WebSocketEntry(direction: direction, kind: .text, data: Data(text.utf8), time: time)
    }

    /// The payload size in bytes.
    public var size: Int { data.count }

    /// The payload as text, for a text entry (invalid UTF-8 repaired), `nil` otherwise.
    public var text: String? {
        kind == .text || kind == .close ? String(decoding: data, as: UTF8.self) : nil
    }
}

/// How a WebSocket session ended: the close code and reason, who closed, and a sentence for it.
public struct WebSocketClosing: Sendable, Hashable, CustomStringConvertible {
    /// Who ended the session.
    public enum Initiator: String, Sendable, Hashable, Codable {
        /// The client sent the close frame (the server answered it).
        case client
        /// The server sent the close frame.
        case server
        /// The connection ended without a close frame.
        case connection
    }

    /// The close code (1006 when the connection ended without one).
    public var code: Int
    /// The close reason, possibly empty.
    public var reason: String
    /// Who ended the session.
    public var initiator: Initiator
    /// What went wrong, when the session ended on an error.
    public var failure: String?

    /// Creates a closing.
    public init(code: Int, reason: String = "", initiator: Initiator, failure: String? = nil) {
        self.code = code
        self.reason = reason
        self.initiator = initiator
        self.failure = failure
    }

    /// Whether this is a normal end: 1000 (normal closure) or 1001 (going away).
    public var isNormal: Bool { failure == nil && (code == 1000 || code == 1001) }

    /// One sentence: who closed, the code, what it means and the reason.
    public var description: String {
        let who: String
        switch initiator {
        case .client: who = "Closed by the client"
        case .server: who = "Closed by the server"
        case .connection: who = "The connection ended without a close frame"
        }
        var sentence = "\(who) with \(code) (\(Self.meaning(of: code)))"
        if !reason.isEmpty { sentence += ": \(reason)" }
        if let failure { sentence += " — \(failure)" }
        return sentence + "."
    }

    /// What a close code means, per RFC 6455 section 7.4 and the IANA registry.
    ///
    /// - Parameter code: the close code.
    /// - Returns: a short phrase (`normal closure`, `policy violation` …).
    public static func meaning(of code: Int) -> String {
        switch code {
        case 1000: return "normal closure"
        case 1001: return "going away"
        case 1002: return "protocol error"
        case 1003: return "unsupported data"
        case 1005: return "no status code"
        case 1006: return "abnormal closure"
        case 1007: return "invalid payload data"
        case 1008: return "policy violation"
        case 1009: return "message too big"
        case 1010: return "mandatory extension missing"
        case 1011: return "internal server error"
        case 1012: return "service restart"
        case 1013: return "try again later"
        case 1014: return "bad gateway"
        case 1015: return "TLS handshake failure"
        case 3000...3999: return "registered application code"
        case 4000...4999: return "private application code"
        default: return "unassigned code"
        }
    }
}

/// What a WebSocket session reports, in order.
public enum WebSocketEvent: Sendable, Hashable {
    /// A message, ping or close frame sent or received.
    case entry(WebSocketEntry)
    /// The session ended; always the last event.
    case closed(WebSocketClosing)
}
