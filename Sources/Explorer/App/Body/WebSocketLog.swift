import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The live message log of a WebSocket session, as the response pane shows it: one block per
/// message (`▸ 20:15:02.120  ← received text · 5 B`, then the text, JSON pretty-printed, or
/// binary as hex), laid out like the event view so that search, the JSONPath filter and
/// following the tail work on it. Built on the effect side, one event at a time.
struct WebSocketLog: Sendable {
    /// The newest this many messages are shown (all of them stay in the Raw tab, up to the
    /// history's cap).
    static let limit = 5_000

    private let formatter: DateFormatter
    private var blocks: [String] = []
    private var dropped = 0
    /// The messages as JSON lines, capped like a body: the Raw tab and the history copy.
    private(set) var transcript: WebSocketTranscript
    /// How the session ended, once it did.
    private(set) var closing: WebSocketClosing?

    init(url: String, capBytes: Int, timeZone: TimeZone = .current, openedAt: Date) {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.timeZone = timeZone
        self.formatter = formatter
        transcript = WebSocketTranscript(limit: capBytes)
        blocks.append(
            "▸ \(formatter.string(from: openedAt))  connected to \(url)\n  t types a message (Tab: saved ones), P pings, K closes with a code, Enter reconnects"
        )
    }

    /// Adds an event.
    mutating func append(_ event: WebSocketEvent) {
        transcript.append(event)
        switch event {
        case .entry(let entry):
            let arrow = entry.direction == .sent ? "→ sent" : "← received"
            let size = ByteCountText.binary(entry.size)
            var header = "▸ \(formatter.string(from: entry.time))  \(arrow) \(entry.kind.rawValue) · \(size)"
            let body: String
            switch entry.kind {
            case .binary, .ping:
                body = Self.hexDump(entry.data)
            case .close:
                header += entry.data.isEmpty ? "" : " · reason"
                body = entry.text ?? ""
            case .text:
                body = Self.pretty(entry.text ?? "")
            }
            add(header, body)
        case .closed(let end):
            closing = end
            add("▸ \(formatter.string(from: Date()))  ■ closed \(end.code)", end.description)
        }
    }

    private mutating func add(_ header: String, _ body: String) {
        let indented =
            body.isEmpty
            ? ""
            : "\n"
                + body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                    separator: "\n")
        blocks.append(header + indented)
        if blocks.count > Self.limit {
            dropped += blocks.count - Self.limit
            blocks.removeFirst(blocks.count - Self.limit)
        }
    }

    /// The log as text, oldest first.
    var text: String {
        let note = dropped > 0 ? "(\(dropped) older messages are in the Raw tab and history)\n" : ""
        return note + blocks.joined(separator: "\n")
    }

    /// The log as the response the pane shows: 101, the log as an event view, the JSON lines
    /// as the raw body.
    func snapshot(started: Date, now: Date = Date()) -> ResponseSnapshot {
        let raw = transcript.data
        let document = BodyDocument.events(
            text, contentType: "application/x-ndjson", byteCount: transcript.totalSize, raw: raw)
        var summary: [String] = []
        if let closing, !closing.isNormal { summary.append(closing.description) }
        return ResponseSnapshot(
            status: 101, reason: "Switching Protocols", headers: [:], httpVersion: "HTTP/1.1", document: document,
            headMilliseconds: nil, totalMilliseconds: now.timeIntervalSince(started) * 1000, redirects: [],
            errorSummary: summary)
    }

    /// A text message, pretty-printed when it is JSON.
    static func pretty(_ text: String) -> String {
        let bytes = Array(text.utf8)
        if let first = bytes.first(where: { !$0.isJSONWhitespace }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let pretty = bytes.withUnsafeBytes({ JSONPrettyPrinter.prettyPrint($0) })
        {
            return String(decoding: pretty, as: UTF8.self)
        }
        return text
    }

    /// Binary as hex-dump lines (offset, hex, ASCII), the first 4 KiB.
    static func hexDump(_ data: Data) -> String {
        guard !data.isEmpty else { return "" }
        let shown = data.prefix(4096)
        let lines = (0..<((shown.count + BodyDocument.hexBytesPerLine - 1) / BodyDocument.hexBytesPerLine)).map {
            BodyDocument.hexLine(Data(shown), line: $0)
        }
        return lines.joined(separator: "\n")
            + (data.count > shown.count ? "\n… \(data.count - shown.count) more bytes" : "")
    }
}
