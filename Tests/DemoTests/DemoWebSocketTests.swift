import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo

/// The demo's WebSocket endpoints, through the explorer's WebSocket client, against the real
/// demo server on 127.0.0.1.
@Suite struct DemoWebSocketTests {
    /// Every event until the session ends, or `nil` when 15 s pass without one (the session
    /// is then dropped, so a hang fails the test instead of the whole run).
    private func events(_ session: WebSocketSession) async -> [WebSocketEvent]? {
        var all: [WebSocketEvent] = []
        while true {
            switch await session.events.next(within: .seconds(15)) {
            case .event(let event?): all.append(event)
            case .event(nil): return all
            case .timedOut:
                session.cancel()
                return nil
            }
        }
    }

    private func texts(_ events: [WebSocketEvent]) -> [String] {
        events.compactMap { if case .entry(let entry) = $0, entry.direction == .received { entry.text } else { nil } }
    }

    @Test func ticksArriveInOrderAndTheServerClosesNormally() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: URL(string: base + "/ws/ticks?interval_ms=20&count=3")!))
        guard let all = await events(session) else {
            // Seen about once in ten full runs of the suite on 2 busy cores: the three ticks
            // arrive, the server closes, and the client's run (swift-websocket's WSClient)
            // never returns, so the session never ends. Not found yet; recorded, not hidden.
            withKnownIssue("the session did not end after the server's close", isIntermittent: true) {
                Issue.record("no event for 15 s and no closing")
            }
            return
        }
        let ticks = texts(all).compactMap { try? JSONValue(parsing: $0)["tick"]?.intValue }
        #expect(ticks == [1, 2, 3])
        guard case .closed(let closing) = all.last else {
            Issue.record("no closing")
            return
        }
        #expect(closing.isNormal)
        #expect(closing.reason == "3 ticks sent")
    }

    @Test func theEchoGreetsWithTheUpgradeHeadersAndEchoes() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: URL(string: base + "/ws/echo")!, headers: ["X-Client": "tests"]))
        try await session.send(text: "hi")
        try await session.send(text: "close 4000 enough")
        let all = try #require(await events(session), "the session did not end")
        let greeting = try JSONValue(parsing: texts(all)[0])
        #expect(greeting["headers"]?["x-client"]?.stringValue == "tests")
        #expect(greeting["environment"]?.stringValue == "local")
        #expect(texts(all)[1] == "hi")
        guard case .closed(let closing) = all.last else {
            Issue.record("no closing")
            return
        }
        #expect(closing.code == 4000)
    }

    @Test func theSecureEchoRefusesAnUpgradeWithoutTheToken() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let url = URL(
            string: server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
                + "/ws/secure")!
        await #expect(throws: WebSocketError.upgradeFailed(url: url.absoluteString)) {
            _ = try await WebSocketSession.connect(PreparedRequest(url: url))
        }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: url, headers: ["Authorization": "Bearer demo-token"]))
        var iterator = session.events.makeAsyncIterator()
        guard case .entry(let greeting)? = await iterator.next() else {
            Issue.record("no greeting")
            return
        }
        #expect(try JSONValue(parsing: greeting.text ?? "")["user"]?.stringValue == "ada")
        try await session.close()
    }

    /// What curl answers for a request line: the status, then the body.
    private func curl(_ arguments: String, server: DemoServer) async throws -> (status: String, body: String) {
        let port = server.environments[0].port
        let command = "curl -s --max-time 10 -w '\\n%{http_code}' \(arguments) http://127.0.0.1:\(port)/v1/echo"
        let output = String(
            decoding: try await runWithBash(command, in: FileManager.default.temporaryDirectory), as: UTF8.self)
        let status = String(output.split(separator: "\n").last ?? "")
        return (status, String(output.dropLast(status.count)))
    }

    @Test func aRequestToUpgradeToAnotherProtocolIsServedAsHTTP11() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        // curl --http2 on http:// asks for h2c; the upgrade pipeline used to swallow the request.
        let answer = try await curl("--http2", server: server)
        #expect(answer.status == "200")
        let echoed = try JSONValue(parsing: answer.body)
        #expect(echoed["headers"]?["Upgrade"]?.stringValue == "h2c")
    }

    @Test func aMethodTheParserDoesNotKnowIsABadRequest() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        #expect(try await curl("-X WHAT", server: server).status == "400")
        // The connection after it is served as before.
        #expect(try await curl("", server: server).status == "200")
    }
}
