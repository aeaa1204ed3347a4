import Foundation
import Networking
import Testing
@testable import Demo

/// The demo's WebSocket endpoints, through the explorer's WebSocket client, against the real
/// demo server on 127.0.0.1.
@Suite struct DemoWebSocketTests {
    private func events(_ session: WebSocketSession) async -> [WebSocketEvent] {
        var all: [WebSocketEvent] = []
        for await event in session.events { all.append(event) }
        return all
    }

    private func texts(_ events: [WebSocketEvent]) -> [String] {
        events.compactMap { if case .entry(let entry) = $0, entry.direction == .received { entry.text } else { nil } }
    }

    @Test func ticksArriveInOrderAndTheServerClosesNormally() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
        let session = try await WebSocketSession.connect(PreparedRequest(url: URL(string: base + "/ws/ticks?interval_ms=20&count=3")!))
        let all = await events(session)
        let ticks = texts(all).compactMap { try? JSONValue(parsing: $0)["tick"]?.intValue }
        #expect(ticks == [1, 2, 3])
        guard case .closed(let closing) = all.last else { Issue.record("no closing"); return }
        #expect(closing.isNormal)
        #expect(closing.reason == "3 ticks sent")
    }

    @Test func theEchoGreetsWithTheUpgradeHeadersAndEchoes() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let base = server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
        let session = try await WebSocketSession.connect(PreparedRequest(url: URL(string: base + "/ws/echo")!, headers: ["X-Client": "tests"]))
        try await session.send(text: "hi")
        try await session.send(text: "close 4000 enough")
        let all = await events(session)
        let greeting = try JSONValue(parsing: texts(all)[0])
        #expect(greeting["headers"]?["x-client"]?.stringValue == "tests")
        #expect(greeting["environment"]?.stringValue == "local")
        #expect(texts(all)[1] == "hi")
        guard case .closed(let closing) = all.last else { Issue.record("no closing"); return }
        #expect(closing.code == 4000)
    }

    @Test func theSecureEchoRefusesAnUpgradeWithoutTheToken() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let url = URL(string: server.environments[0].baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "/ws/secure")!
        await #expect(throws: WebSocketError.upgradeFailed(url: url.absoluteString)) {
            _ = try await WebSocketSession.connect(PreparedRequest(url: url))
        }
        let session = try await WebSocketSession.connect(PreparedRequest(url: url, headers: ["Authorization": "Bearer demo-token"]))
        var iterator = session.events.makeAsyncIterator()
        guard case .entry(let greeting)? = await iterator.next() else { Issue.record("no greeting"); return }
        #expect(try JSONValue(parsing: greeting.text ?? "")["user"]?.stringValue == "ada")
        try await session.close()
    }
}
