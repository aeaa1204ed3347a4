import Foundation
import GRPCSupport
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Terminal

/// A gRPC call as the response pane shows it, built on the effect side as the call goes.
///
/// The body keeps the JSON tools working on what the call gave:
/// - a method that answers with one message (unary, client streaming) shows that message as
///   a JSON body, so pretty printing, `/` search, `z` folding and the `f` JSONPath filter work
///   on it as on an HTTP JSON body;
/// - a method that streams its answers shows an event view, one block per message
///   (`▸ 20:15:02.120  #1 · 42 B · +0.512 s`, then the message pretty-printed), as server-sent
///   events and WebSocket messages are: each message shows as it arrives, the view follows
///   the tail, and the JSONPath filter applies to each message; the Raw tab has the messages
///   as JSON lines.
///
/// A call that ends with a status other than OK is summarised above the body (its status,
/// then the `google.rpc.Status` details: each field a `BadRequest` names, an `ErrorInfo`'s
/// reason), as a problem+json body is; with no message, the body is the decoded status.
struct GRPCLog: Sendable {
    /// What a gRPC response's `httpVersion` starts with: how the pane knows one.
    static let protocolName = "gRPC"

    /// A message of the call, either way.
    struct Entry: Sendable {
        /// Whether the explorer sent it (an open bidirectional call's message line).
        let isSent: Bool
        /// Its position among the messages its way, from 0.
        let index: Int
        let json: NetworkingCore.JSONValue
        /// Its size on the wire, in bytes.
        let size: Int
        let time: Date
    }

    /// The newest this many messages are shown (all of them go to the Raw tab, up to `capBytes`).
    static let limit = 5_000
    /// The most text the shown messages' blocks hold together, by default: fewer than `limit`
    /// are shown when they are large (always the newest one), so a stream of megabyte
    /// messages is shown in flat memory too.
    static let shownByteLimit = 16 << 20

    /// The method called, `package.Service/Method`.
    let method: String
    /// How it streams.
    let kind: ProtoCallKind
    /// When the call started.
    let startedAt: Date
    /// The response headers, when they came.
    private(set) var headers = GRPCMetadata()
    private(set) var headersAt: Date?
    /// The newest messages, both ways, in order, each with its block of the event view: at most
    /// `limit`, so that a stream that never ends is shown in flat memory.
    private(set) var entries: [Entry] = []
    private var blocks: [String] = []
    /// The UTF-8 size of `blocks`, and the most it may be.
    private var shownBytes = 0
    private let shownByteLimit: Int
    /// How many older messages are no longer shown.
    private(set) var dropped = 0
    /// How many messages came, and the newest of them (the body of a call with one answer).
    private(set) var receivedCount = 0
    private(set) var lastReceived: Entry?
    private var receivedBytes = 0
    private var sentCount = 0
    /// The received messages as JSON lines, the Raw tab: the first `capBytes` of them.
    private var raw = Data()
    private let capBytes: Int
    /// The status, once the call ended.
    private(set) var status: GRPCStatus?
    private(set) var trailers = GRPCMetadata()
    private(set) var statusDetails: NetworkingCore.JSONValue?
    private(set) var endedAt: Date?
    /// Whether the call stays open for messages typed in (a bidirectional call): the view
    /// says how to send one.
    var isInteractive = false
    private let formatter: DateFormatter

    /// Creates the log of a call.
    ///
    /// - Parameters:
    ///   - capBytes: how much of the received messages the Raw tab keeps (history's body cap).
    ///   - shownByteLimit: how much text the shown messages hold together (`shownByteLimit`).
    init(
        method: String, kind: ProtoCallKind, startedAt: Date, timeZone: TimeZone = .current,
        capBytes: Int = GRPCExchange.keptBytes, shownByteLimit: Int = Self.shownByteLimit
    ) {
        self.method = method
        self.kind = kind
        self.startedAt = startedAt
        self.capBytes = capBytes
        self.shownByteLimit = shownByteLimit
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.timeZone = timeZone
        self.formatter = formatter
    }

    /// Adds a message as it arrives.
    mutating func append(_ message: GRPCReceivedMessage) {
        add(
            Entry(isSent: false, index: message.index, json: message.json, size: message.size, time: message.receivedAt)
        )
    }

    /// Adds a message received on an open call.
    mutating func appendReceived(_ json: NetworkingCore.JSONValue, size: Int, at time: Date) {
        add(Entry(isSent: false, index: receivedCount, json: json, size: size, time: time))
    }

    /// Adds a message the explorer sent.
    mutating func appendSent(_ json: NetworkingCore.JSONValue, size: Int, at time: Date) {
        add(Entry(isSent: true, index: sentCount, json: json, size: size, time: time))
    }

    private mutating func add(_ entry: Entry) {
        if entry.isSent {
            sentCount += 1
        } else {
            receivedCount += 1
            receivedBytes += entry.size
            lastReceived = entry
            let line = Data((entry.json.serialized() + "\n").utf8)
            if raw.count + line.count <= capBytes { raw.append(line) }
        }
        entries.append(entry)
        let text = block(entry)
        blocks.append(text)
        shownBytes += text.utf8.count
        var excess = 0
        while entries.count - excess > 1,
            entries.count - excess > Self.limit || shownBytes > shownByteLimit
        {
            shownBytes -= blocks[excess].utf8.count
            excess += 1
        }
        if excess > 0 {
            dropped += excess
            entries.removeFirst(excess)
            blocks.removeFirst(excess)
        }
    }

    /// Keeps the response headers (HTTP/2's pseudo-headers left out).
    mutating func receivedHeaders(_ metadata: GRPCMetadata, at time: Date) {
        headers = GRPCMetadata(metadata.entries.filter { !$0.name.hasPrefix(":") })
        headersAt = time
    }

    /// Ends the log with the call's status.
    mutating func end(
        _ status: GRPCStatus, trailers: GRPCMetadata, details: NetworkingCore.JSONValue?, at time: Date
    ) {
        self.status = status
        self.trailers = trailers
        statusDetails = details
        endedAt = time
        isInteractive = false
    }

    /// Completes the log with the call's outcome: its headers, status and trailers, and the
    /// messages it kept that were not added as they came.
    mutating func complete(_ outcome: GRPCOutcome) {
        headers = outcome.headers
        headersAt = outcome.headersAt
        for message in outcome.messages where message.index >= receivedCount { append(message) }
        end(outcome.status, trailers: outcome.trailers, details: outcome.statusDetails, at: outcome.endedAt ?? Date())
    }

    /// Whether the body is an event view (the method streams its answers).
    var showsEvents: Bool { kind.serverStreams }

    // MARK: - The snapshot

    /// The call as a response: the status as gRPC names it (`OK`,
    /// `INVALID_ARGUMENT (3): message`) with an HTTP-like code that colours it, the headers
    /// and the trailers (named `[trailer] name`), the body, the times to the headers and in all.
    func snapshot(now: Date = Date()) -> ResponseSnapshot {
        let shownStatus = status ?? .ok
        let reason = status.map(\.description) ?? "streaming"
        var fields = HTTPHeaders()
        for entry in headers { fields.add(name: entry.name, value: entry.value.description) }
        for entry in trailers { fields.add(name: Self.trailerPrefix + entry.name, value: entry.value.description) }
        return ResponseSnapshot(
            status: Self.httpCode(of: shownStatus), reason: reason, headers: fields,
            httpVersion: "\(Self.protocolName) \(kind.rawValue)", document: document(),
            headMilliseconds: headersAt.map { $0.timeIntervalSince(startedAt) * 1000 },
            totalMilliseconds: (endedAt ?? now).timeIntervalSince(startedAt) * 1000, redirects: [],
            errorSummary: summary())
    }

    /// What the Headers tab puts before a trailer's name.
    static let trailerPrefix = "[trailer] "

    /// The body: the message (one answer), the event view (streamed answers), or the decoded
    /// status when no message came and the status has details.
    func document() -> BodyDocument {
        if showsEvents {
            return BodyDocument.events(
                eventText(), contentType: "application/x-ndjson", byteCount: receivedBytes, raw: raw)
        }
        if let message = lastReceived {
            return BodyDocument.make(Data(message.json.serialized().utf8), contentType: "application/json")
        }
        if let statusDetails {
            return BodyDocument.make(Data(statusDetails.serialized().utf8), contentType: "application/json")
        }
        return BodyDocument.make(Data(), contentType: "application/json")
    }

    /// The event view's text: a block per message (those sent marked `→ sent`), then the
    /// status once the call ended.
    func eventText() -> String {
        var lines: [String] = []
        if isInteractive {
            lines.append(
                "▸ \(formatter.string(from: startedAt))  \(kind.rawValue) call open: t types a message (JSON), "
                    + "Esc ends the messages sent (the server then ends the call)")
        }
        if dropped > 0 { lines.append("(\(dropped) older messages are in the Raw tab and history)") }
        lines += blocks
        if let status, let endedAt {
            lines.append("▸ \(formatter.string(from: endedAt))  ■ \(status)")
        }
        return lines.joined(separator: "\n")
    }

    /// A message's block: `▸ time  #n · size · +offset`, then the message pretty-printed.
    private func block(_ entry: Entry) -> String {
        let offset = String(format: "+%.3f s", entry.time.timeIntervalSince(startedAt))
        let header =
            "▸ \(formatter.string(from: entry.time))  \(entry.isSent ? "→ sent " : "")#\(entry.index + 1) · "
            + "\(ByteCountText.binary(entry.size)) · \(offset)"
        let body = entry.json.serialized(pretty: true).split(separator: "\n", omittingEmptySubsequences: false)
            .map { "  " + $0 }.joined(separator: "\n")
        return header + "\n" + body
    }

    /// The lines above the body when the status is not OK: the status, then what its details say.
    func summary() -> [String] {
        guard let status, !status.isOK else { return [] }
        return [status.description] + Self.detailLines(statusDetails)
    }

    /// A decoded `google.rpc.Status`'s details, a line each (a `BadRequest` a line per field).
    static func detailLines(_ details: NetworkingCore.JSONValue?) -> [String] {
        guard let items = details?["details"]?.arrayValue else { return [] }
        var lines: [String] = []
        for item in items.prefix(8) {
            let type = (item["@type"]?.stringValue ?? "").split(separator: ".").last.map(String.init) ?? "detail"
            switch type {
            case "BadRequest":
                for violation in item["fieldViolations"]?.arrayValue ?? [] {
                    let field = violation["field"]?.stringValue ?? "?"
                    let description = violation["description"]?.stringValue ?? ""
                    lines.append("• BadRequest \(field): \(description)")
                }
            case "ErrorInfo":
                let reason = item["reason"]?.stringValue ?? ""
                let domain = item["domain"]?.stringValue.map { " (\($0))" } ?? ""
                lines.append("• ErrorInfo \(reason)\(domain)")
            default:
                let members = (item.members ?? []).filter { $0.key != "@type" }
                let text = NetworkingCore.JSONValue.object(members).serialized()
                lines.append("• \(type) \(text.prefix(200))")
            }
        }
        return lines
    }

    /// The HTTP status gRPC's documentation maps a code to (statuscodes.md), for the colour of
    /// the status: OK is 200, INVALID_ARGUMENT 400, UNAVAILABLE 503.
    static func httpCode(of status: GRPCStatus) -> Int {
        switch status.name {
        case "OK": 200
        case "CANCELLED": 499
        case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE": 400
        case "DEADLINE_EXCEEDED": 504
        case "NOT_FOUND": 404
        case "ALREADY_EXISTS", "ABORTED": 409
        case "PERMISSION_DENIED": 403
        case "RESOURCE_EXHAUSTED": 429
        case "UNIMPLEMENTED": 501
        case "UNAVAILABLE": 503
        case "UNAUTHENTICATED": 401
        default: 500
        }
    }
}

extension ResponseSnapshot {
    /// Whether it is a gRPC call's: the status line shows the status as gRPC names it.
    var isGRPC: Bool { httpVersion.hasPrefix(GRPCLog.protocolName + " ") }
}
