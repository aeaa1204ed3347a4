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

    /// The method called, `package.Service/Method`.
    let method: String
    /// How it streams.
    let kind: ProtoCallKind
    /// When the call started.
    let startedAt: Date
    /// The response headers, when they came.
    private(set) var headers = GRPCMetadata()
    private(set) var headersAt: Date?
    /// The messages so far, both ways, in order.
    private(set) var entries: [Entry] = []
    /// The status, once the call ended.
    private(set) var status: GRPCStatus?
    private(set) var trailers = GRPCMetadata()
    private(set) var statusDetails: NetworkingCore.JSONValue?
    private(set) var endedAt: Date?
    /// Whether the call stays open for messages typed in (a bidirectional call): the view
    /// says how to send one.
    var isInteractive = false
    private let formatter: DateFormatter

    init(method: String, kind: ProtoCallKind, startedAt: Date, timeZone: TimeZone = .current) {
        self.method = method
        self.kind = kind
        self.startedAt = startedAt
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.timeZone = timeZone
        self.formatter = formatter
    }

    /// The messages received so far.
    var received: [Entry] { entries.filter { !$0.isSent } }

    /// Adds a message as it arrives.
    mutating func append(_ message: GRPCReceivedMessage) {
        entries.append(
            Entry(isSent: false, index: message.index, json: message.json, size: message.size, time: message.receivedAt)
        )
    }

    /// Adds a message received on an open call.
    mutating func appendReceived(_ json: NetworkingCore.JSONValue, size: Int, at time: Date) {
        entries.append(Entry(isSent: false, index: received.count, json: json, size: size, time: time))
    }

    /// Adds a message the explorer sent.
    mutating func appendSent(_ json: NetworkingCore.JSONValue, size: Int, at time: Date) {
        entries.append(Entry(isSent: true, index: entries.count(where: \.isSent), json: json, size: size, time: time))
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

    /// Completes the log with the call's outcome (its headers, messages, status, trailers).
    mutating func complete(_ outcome: GRPCOutcome) {
        headers = outcome.headers
        headersAt = outcome.headersAt
        entries = outcome.messages.map {
            Entry(isSent: false, index: $0.index, json: $0.json, size: $0.size, time: $0.receivedAt)
        }
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
            let raw = Data(received.map { $0.json.serialized() + "\n" }.joined().utf8)
            return BodyDocument.events(
                eventText(), contentType: "application/x-ndjson", byteCount: received.reduce(0) { $0 + $1.size },
                raw: raw)
        }
        if let message = received.last {
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
        var blocks: [String] = []
        if isInteractive {
            blocks.append(
                "▸ \(formatter.string(from: startedAt))  \(kind.rawValue) call open: t types a message (JSON), "
                    + "Esc ends the messages sent (the server then ends the call)")
        }
        for entry in entries {
            let offset = String(format: "+%.3f s", entry.time.timeIntervalSince(startedAt))
            let header =
                "▸ \(formatter.string(from: entry.time))  \(entry.isSent ? "→ sent " : "")#\(entry.index + 1) · "
                + "\(ByteCountText.binary(entry.size)) · \(offset)"
            let body = entry.json.serialized(pretty: true).split(separator: "\n", omittingEmptySubsequences: false)
                .map { "  " + $0 }.joined(separator: "\n")
            blocks.append(header + "\n" + body)
        }
        if let status, let endedAt {
            blocks.append("▸ \(formatter.string(from: endedAt))  ■ \(status)")
        }
        return blocks.joined(separator: "\n")
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
