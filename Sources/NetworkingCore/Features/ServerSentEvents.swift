import Foundation

/// One server-sent event, as the WHATWG event-stream parser dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `id` this event set, if it set one.
    public var id: String?
    /// The last event ID in force when the event was dispatched (ids persist across events).
    public var lastEventID: String
    /// The event's type: its `event` field, or `message` when it named none.
    public var event: String
    /// The `data` lines, joined by newlines.
    public var data: String
    /// The reconnection time in milliseconds, when this event set one.
    public var retry: Int?

    /// Creates an event.
    public init(
        id: String? = nil, lastEventID: String? = nil, event: String = "message", data: String, retry: Int? = nil
    ) {
        self.id = id
        self.lastEventID = lastEventID ?? id ?? ""
        self.event = event
        self.data = data
        self.retry = retry
    }
}

/// Parses the bytes of a `text/event-stream` into events as they arrive, per the WHATWG HTML
/// spec (§ 9.2.6): lines end in CRLF, LF or CR (also across chunks); a leading BOM is skipped;
/// `:` starts a comment; `data` lines are joined with newlines; `id` persists (unless it holds
/// NUL); `retry` takes ASCII digits only; a blank line dispatches (an event without data is
/// not dispatched); an event the stream ends before its blank line is dropped.
///
/// (mattt/EventSource 1.1.1's parser would fit, but that package does not build on Linux:
/// it calls `URLSession.bytes`, which swift-corelibs-foundation lacks.)
package struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    /// How many bytes of a leading BOM have been seen, or -1 once past the start.
    private var bomMatched = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var eventID: String?
    private var retry: Int?
    /// The last event ID in force.
    package private(set) var lastEventID = ""
    /// The reconnection time the stream asked for, in milliseconds, if it did.
    package private(set) var reconnectionTime: Int?

    /// Creates a parser at the start of a stream.
    package init() {}

    /// Takes the next bytes of the stream.
    ///
    /// - Parameter bytes: the bytes, cut anywhere.
    /// - Returns: the events completed by these bytes, in order.
    package mutating func consume<Bytes: Sequence>(_ bytes: Bytes) -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if bomMatched >= 0 {
                // The BOM is skipped only as the stream's very first bytes.
                if byte == Self.byteOrderMark[bomMatched] {
                    bomMatched = bomMatched == 2 ? -1 : bomMatched + 1
                    continue
                }
                line.append(contentsOf: Self.byteOrderMark[..<bomMatched])
                bomMatched = -1
            }
            switch byte {
            case 0x0A:
                if afterCR {
                    afterCR = false
                    continue
                }
                if let event = endLine() { events.append(event) }
            case 0x0D:
                afterCR = true
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// The event the stream ended in the middle of: its last line read as if it had ended,
    /// and the event made of the fields read since the last blank line, if it has data.
    ///
    /// The spec drops such an event (an `EventSource` never dispatches it); a client that shows
    /// a stream can show it, saying that it was not complete. The parser is at the start of an
    /// event afterwards.
    ///
    /// - Returns: the unfinished event, or `nil` when the stream ended between events.
    package mutating func finish() -> ServerSentEvent? {
        afterCR = false
        if !line.isEmpty { _ = endLine() }
        return dispatch()
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch name {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) {
                let id = String(decoding: value, as: UTF8.self)
                eventID = id
                lastEventID = id
            }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
            eventID = nil
            retry = nil
        }
        guard hasData else { return nil }
        if data.last == 0x0A { data.removeLast() }
        return ServerSentEvent(
            id: eventID, lastEventID: lastEventID, event: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self), retry: retry)
    }
}

/// The events of a `text/event-stream` body, parsed as its bytes arrive.
///
/// ```swift
/// for try await event in streamed.body.serverSentEvents { print(event.event, event.data) }
/// ```
public struct ServerSentEventSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == Data {
    public typealias Element = ServerSentEvent

    let base: Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Reads the next event.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var parser = ServerSentEventParser()
        var ready: [ServerSentEvent] = []

        /// The next event, or `nil` when the body ends.
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard let chunk = try await base.next() else { return nil }
                ready = parser.consume(chunk)
            }
            return ready.removeFirst()
        }
    }
}

extension AsyncSequence where Self: Sendable, Element == Data {
    /// The body's server-sent events, parsed as bytes arrive.
    public var serverSentEvents: ServerSentEventSequence<Self> {
        ServerSentEventSequence(base: self)
    }
}
