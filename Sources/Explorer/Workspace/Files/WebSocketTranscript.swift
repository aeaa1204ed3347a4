import Foundation
import NetworkingCore

/// The messages of a WebSocket session as JSON lines (one object per message, ping or close),
/// kept up to a byte limit like a response body: what `send --json` prints and what history
/// stores as the session's body.
///
/// A line: `{"direction":"received","kind":"text","time":"2026-11-23T20:15:02.120Z","size":5,"text":"hello"}`;
/// a binary message has `"hex"` instead of `"text"`; the closing is
/// `{"kind":"closed","code":1000,"reason":"…","initiator":"server","normal":true,"sentence":"…"}`.
package struct WebSocketTranscript: Sendable {
    /// The most bytes kept; lines past it are counted, not kept.
    package let limit: Int
    /// The lines kept, each ending in a newline.
    package private(set) var data = Data()
    /// The bytes of every line, kept or not.
    package private(set) var totalSize = 0
    /// How many entries were seen.
    package private(set) var entryCount = 0

    /// Creates an empty transcript.
    ///
    /// - Parameter limit: the byte limit (the history's body cap).
    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether lines were left out for the limit.
    package var isTruncated: Bool { data.count < totalSize }

    /// Adds an event's line.
    package mutating func append(_ event: WebSocketEvent) {
        if case .entry = event { entryCount += 1 }
        let line = Data((Self.jsonLine(event) + "\n").utf8)
        totalSize += line.count
        if data.count + line.count <= limit { data.append(line) }
    }

    /// One event as one line of JSON (without the newline).
    package static func jsonLine(_ event: WebSocketEvent) -> String {
        switch event {
        case .entry(let entry):
            var pairs: [(key: String, value: JSONValue)] = [
                ("direction", .string(entry.direction.rawValue)),
                ("kind", .string(entry.kind.rawValue)),
                ("time", .string(timestamp(entry.time))),
                ("size", .number(String(entry.size))),
            ]
            if entry.kind == .binary || entry.kind == .ping {
                pairs.append(("hex", .string(hex(entry.data))))
            } else {
                pairs.append(("text", .string(entry.text ?? "")))
            }
            return JSONValue.object(pairs).serialized()
        case .closed(let closing):
            return JSONValue.object([
                ("kind", .string("closed")),
                ("code", .number(String(closing.code))),
                ("reason", .string(closing.reason)),
                ("initiator", .string(closing.initiator.rawValue)),
                ("normal", .bool(closing.isNormal)),
                ("sentence", .string(closing.description)),
            ]).serialized()
        }
    }

    /// Bytes as lowercase hex pairs separated by spaces (`00 ff 1a`).
    package static func hex(_ data: Data) -> String {
        data.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }

    /// A time as ISO 8601 with milliseconds, in UTC.
    package static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
