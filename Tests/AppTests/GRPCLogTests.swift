import Foundation
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Query
import Testing

@testable import App
@testable import GRPCSupport
@testable import Terminal
@testable import Workspace

/// A gRPC call as the response pane shows it (the status as gRPC names it, headers and
/// trailers, the message as a JSON body or each streamed message as an event), and a gRPC
/// endpoint in the endpoint list and the request pane.
@Suite struct GRPCLogTests {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func message(_ json: NetworkingCore.JSONValue, index: Int, after seconds: Double) -> GRPCReceivedMessage {
        GRPCReceivedMessage(
            index: index, json: json, size: json.serialized().utf8.count,
            receivedAt: start.addingTimeInterval(seconds))
    }

    static func outcome(
        _ messages: [GRPCReceivedMessage], status: GRPCStatus = .ok, details: NetworkingCore.JSONValue? = nil
    ) -> GRPCOutcome {
        var outcome = GRPCOutcome()
        outcome.startedAt = start
        outcome.headers = ["content-type": "application/grpc"]
        outcome.headersAt = start.addingTimeInterval(0.004)
        outcome.messages = messages
        outcome.status = status
        outcome.trailers = ["grpc-status": .text(String(status.code))]
        outcome.statusDetails = details
        outcome.endedAt = start.addingTimeInterval(messages.last.map { $0.receivedAt.timeIntervalSince(start) } ?? 0.01)
        return outcome
    }

    static let ada: NetworkingCore.JSONValue = ["id": 1, "username": "ada", "name": "Ada Lovelace"]

    @Test func aUnaryCallsMessageIsAJSONBodyTheFilterReads() throws {
        var log = GRPCLog(method: "explorer.demo.v1.Directory/GetUser", kind: .unary, startedAt: Self.start)
        log.complete(Self.outcome([Self.message(Self.ada, index: 0, after: 0.01)]))
        let snapshot = log.snapshot()
        #expect(snapshot.isGRPC)
        #expect(snapshot.status == 200)
        #expect(snapshot.reason == "OK")
        #expect(snapshot.httpVersion == "gRPC unary")
        #expect(snapshot.document.kind == .json)
        #expect(snapshot.errorSummary.isEmpty)
        #expect(snapshot.headMilliseconds.map { ($0 * 10).rounded() / 10 } == 4)
        #expect(snapshot.totalMilliseconds.rounded() == 10)
        // The trailers follow the headers, marked as trailers.
        #expect(snapshot.headers.map(\.name) == ["content-type", "[trailer] grpc-status"])
        let filtered = try JSONPath.filter(snapshot.document, "$.name")
        #expect((0..<filtered.lineCount).map { filtered.plainLine($0) }.joined().contains("\"Ada Lovelace\""))
    }

    @Test func aStreamsMessagesAreEventsWithTheirNumberSizeAndTime() throws {
        var log = GRPCLog(
            method: "explorer.demo.v1.Directory/StreamPosts", kind: .serverStreaming, startedAt: Self.start,
            timeZone: .gmt)
        log.append(Self.message(["id": 1, "title": "First"], index: 0, after: 0.5))
        // While the stream is live: the message so far, no status.
        let live = log.snapshot(now: Self.start.addingTimeInterval(0.6))
        #expect(live.document.kind == .events)
        #expect(live.reason == "streaming")
        let liveLines = (0..<live.document.lineCount).map { live.document.plainLine($0) }
        #expect(liveLines.first == "▸ 06:13:20.500  #1 · 24 bytes · +0.500 s")
        #expect(!liveLines.contains { $0.contains("■") })

        let messages = [
            Self.message(["id": 1, "title": "First"], index: 0, after: 0.5),
            Self.message(["id": 2, "title": "Second"], index: 1, after: 1.0),
        ]
        log.complete(Self.outcome(messages))
        let done = log.snapshot()
        let lines = (0..<done.document.lineCount).map { done.document.plainLine($0) }
        #expect(lines.last == "▸ 06:13:21.000  ■ OK")
        #expect(lines.contains("▸ 06:13:21.000  #2 · 25 bytes · +1.000 s"))
        // The Raw tab: the messages as JSON lines.
        #expect(
            String(decoding: done.document.raw, as: UTF8.self)
                == "{\"id\":1,\"title\":\"First\"}\n{\"id\":2,\"title\":\"Second\"}\n")
        let filtered = try JSONPath.filter(done.document, "$.title")
        let filteredLines = (0..<filtered.lineCount).map { filtered.plainLine($0) }
        #expect(filteredLines.first == "2 of 3 events match $.title")
        #expect(filteredLines.contains("    \"Second\""))
    }

    @Test func aStreamThatNeverEndsIsShownInFlatMemory() {
        var log = GRPCLog(
            method: "explorer.demo.v1.Directory/Heartbeat", kind: .serverStreaming, startedAt: Self.start,
            timeZone: .gmt, capBytes: 1000)
        let count = GRPCLog.limit + 250
        for index in 0..<count {
            log.append(
                Self.message(["tick": NetworkingCore.JSONValue(index)], index: index, after: Double(index) / 1000))
        }
        #expect(log.entries.count == GRPCLog.limit)
        #expect(log.dropped == 250)
        #expect(log.receivedCount == count)
        #expect(log.entries.first?.index == 250)
        let snapshot = log.snapshot(now: Self.start.addingTimeInterval(10))
        #expect(snapshot.document.plainLine(0) == "(250 older messages are in the Raw tab and history)")
        #expect(snapshot.document.plainLine(1).contains("#251 ·"))
        // The Raw tab keeps the first messages up to its cap, whole lines only.
        let raw = String(decoding: snapshot.document.raw, as: UTF8.self)
        #expect(raw.utf8.count <= 1000 && raw.hasPrefix("{\"tick\":0}\n") && raw.hasSuffix("}\n"))
    }

    @Test func largeMessagesAreShownWithinTheByteLimitTheNewestAlways() {
        var log = GRPCLog(
            method: "explorer.demo.v1.Directory/StreamPosts", kind: .serverStreaming, startedAt: Self.start,
            timeZone: .gmt, capBytes: 1000, shownByteLimit: 50_000)
        let body = String(repeating: "x", count: 10_000)
        for index in 0..<40 {
            log.append(Self.message(["body": .string(body)], index: index, after: Double(index)))
        }
        // About four 10 KB blocks fit in 50 KB; the older ones are counted as dropped.
        #expect((3...5).contains(log.entries.count), "\(log.entries.count)")
        #expect(log.dropped == 40 - log.entries.count)
        #expect(log.entries.last?.index == 39)
        #expect(log.receivedCount == 40)
        // One message larger than the limit is still shown: the newest always is.
        log.append(Self.message(["body": .string(String(repeating: "y", count: 80_000))], index: 40, after: 41))
        #expect(log.entries.count == 1)
        #expect(log.entries.first?.index == 40)
        let snapshot = log.snapshot(now: Self.start.addingTimeInterval(60))
        #expect(snapshot.document.plainLine(0) == "(40 older messages are in the Raw tab and history)")
    }

    static let refusal: NetworkingCore.JSONValue = [
        "code": 3, "message": "The user cannot be created.",
        "details": [
            [
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [["field": "username", "description": "A username is required."]],
            ],
            ["@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "READ_ONLY", "domain": "demo.local"],
            ["@type": "type.googleapis.com/google.rpc.Help", "links": [["url": "https://example.com"]]],
        ],
    ]

    @Test func aRefusalIsSummarisedAboveTheDecodedStatus() {
        var log = GRPCLog(method: "explorer.demo.v1.Directory/CreateUser", kind: .unary, startedAt: Self.start)
        let status = GRPCStatus(code: 3, message: "The user cannot be created.")
        log.complete(Self.outcome([], status: status, details: Self.refusal))
        let snapshot = log.snapshot()
        #expect(snapshot.status == 400)
        #expect(snapshot.reason == "INVALID_ARGUMENT (3): The user cannot be created.")
        #expect(
            snapshot.errorSummary == [
                "INVALID_ARGUMENT (3): The user cannot be created.",
                "• BadRequest username: A username is required.",
                "• ErrorInfo READ_ONLY (demo.local)",
                "• Help {\"links\":[{\"url\":\"https://example.com\"}]}",
            ])
        // No message came: the body is the decoded google.rpc.Status.
        #expect(snapshot.document.kind == .json)
        #expect(String(decoding: snapshot.document.raw, as: UTF8.self) == Self.refusal.serialized())
    }

    @Test func statusesAreColouredAsTheirHTTPCodes() {
        #expect(GRPCLog.httpCode(of: .ok) == 200)
        #expect(GRPCLog.httpCode(of: GRPCStatus(code: 5)) == 404)
        #expect(GRPCLog.httpCode(of: GRPCStatus(code: 14)) == 503)
        #expect(GRPCLog.httpCode(of: GRPCStatus(code: 16)) == 401)
        #expect(GRPCLog.httpCode(of: GRPCStatus(code: 42)) == 500)
    }

    // MARK: - On screen

    static let yaml = """
        name: Directory
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
            variables: { grpc_url: "grpc://127.0.0.1:50051", token: s3cret-token }
            secrets: [token]
        endpoints:
          - name: Get user
            grpc: explorer.demo.v1.Directory/GetUser
            server: "{{grpc_url}}"
            metadata: { authorization: "Bearer {{token}}" }
            message: { id: "1" }
          - name: List posts
            path: /posts
        """

    static func state() throws -> AppState {
        let collection = try CollectionLoader.parse(yaml, file: "directory.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/directory.yaml", environment: nil)
        state.size = Size(width: 120, height: 36)
        tuiReduce(&state, .input(.tick, at: tuiNow))
        return state
    }

    @Test func theListAndTheRequestPaneShowAGRPCEndpoint() throws {
        let state = try Self.state()
        let screen = screenText(state)
        #expect(screen.contains("gRPC   Get user"), "\(screen)")
        #expect(screen.contains("GET    List posts"), "\(screen)")
        #expect(screen.contains("gRPC explorer.demo.v1.Directory / GetUser"), "\(screen)")
        #expect(screen.contains("server  grpc://127.0.0.1:50051"), "\(screen)")
        #expect(screen.contains("authorization"), "\(screen)")
        #expect(!screen.contains("s3cret-token"), "\(screen)")
        #expect(screen.contains("\"id\": \"1\""), "\(screen)")
    }

    @Test func theResponseShowsTheStatusAsGRPCNamesItAndTheKindOnceCalled() throws {
        var state = try Self.state()
        var log = GRPCLog(method: "explorer.demo.v1.Directory/GetUser", kind: .unary, startedAt: Self.start)
        log.complete(Self.outcome([Self.message(Self.ada, index: 0, after: 0.01)]))
        tuiReceive(&state, log.snapshot())
        let screen = screenText(state)
        let statusLine = try #require(screen.split(separator: "\n").first { $0.contains("gRPC unary ·") })
        #expect(statusLine.contains(" OK "), "\(screen)")
        #expect(!statusLine.contains("200"), "\(screen)")
        #expect(screen.contains("\"name\": \"Ada Lovelace\""), "\(screen)")
        // The request pane names the call's kind, as the schema said it.
        #expect(screen.contains("gRPC unary explorer.demo.v1.Directory / GetUser"), "\(screen)")
    }
}
