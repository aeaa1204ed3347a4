import Foundation
import TestSupport
import Testing

@testable import App
@testable import Demo
@testable import Workspace

/// The TUI's gRPC calls against the demo's gRPC server (real, on 127.0.0.1, with reflection):
/// what the effects report for a unary call, a stream, a refusal, a call that cannot be made,
/// and a stream stopped by a cancel.
@Suite struct GRPCExchangeSendingTests {
    static func collection(grpcURL: URL) throws -> APICollection {
        try CollectionLoader.parse(
            """
            name: Directory
            environments:
              - name: local
                base_url: http://127.0.0.1:9
                variables: { grpc_url: "\(grpcURL.absoluteString)" }
            endpoints:
              - name: Get user
                grpc: explorer.demo.v1.Directory/GetUser
                server: "{{grpc_url}}"
                message: { id: "1" }
              - name: Stream posts
                grpc: explorer.demo.v1.Directory/StreamPosts
                server: "{{grpc_url}}"
                message: { limit: 2, interval: 0.3s }
              - name: Create user
                grpc: explorer.demo.v1.Directory/CreateUser
                server: "{{grpc_url}}"
                message: { username: grace }
              - name: Heartbeat
                grpc: explorer.demo.v1.Directory/Heartbeat
                server: "{{grpc_url}}"
                message: { label: beat }
              - name: Chat
                grpc: explorer.demo.v1.Directory/Chat
                server: "{{grpc_url}}"
                messages: [{ text: hello, author: ada }]
              - name: Wrong field
                grpc: explorer.demo.v1.Directory/GetUser
                server: "{{grpc_url}}"
                message: { identifier: "1" }
              - name: Unknown method
                grpc: explorer.demo.v1.Directory/GetUsr
                server: "{{grpc_url}}"
            """, file: "directory.yaml")
    }

    /// Sends endpoints of the demo collection through a program, and what they reported.
    struct Session {
        let program: ExplorerProgram
        let collection: APICollection
        /// The demo's access log: a line per call when it ends (`gRPC /pkg.Service/Method → OK`).
        let served: Collected<String>
        let reported = Collected<AppAction>()

        func send(_ name: String, as id: Int) throws {
            let endpoint = try #require(collection.endpoint(withID: name))
            let plan = RequestPlan(
                endpoint: endpoint, collection: collection, environment: try #require(collection.environments.first),
                revision: 1)
            program.perform(.send(exchange: id, plan), send: { reported.append($0) })
        }

        func wait(for id: Int, _ what: @escaping @Sendable (AppAction) -> Bool) async -> AppAction? {
            guard await reported.wait(for: what) else { return nil }
            return reported.all.first(where: what)
        }
    }

    static func withDemo(_ body: (Session) async throws -> Void) async throws {
        let served = Collected<String>()
        let server = try await DemoServer.start(port: 0, accessLog: { served.append($0) })
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let session = Session(
            program: program, collection: try collection(grpcURL: try #require(server.environments.first).grpcURL),
            served: served)
        do {
            try await body(session)
        } catch {
            await program.shutdown()
            await server.stop()
            throw error
        }
        await program.shutdown()
        await server.stop()
    }

    static func received(_ id: Int) -> @Sendable (AppAction) -> Bool {
        { if case .received(exchange: id, _) = $0 { true } else { false } }
    }

    static func streamed(_ id: Int) -> @Sendable (AppAction) -> Bool {
        { if case .streamed(exchange: id, _) = $0 { true } else { false } }
    }

    static func resolveFailed(_ id: Int) -> @Sendable (AppAction) -> Bool {
        { if case .resolveFailed(exchange: id, _) = $0 { true } else { false } }
    }

    @Test func aUnaryCallShowsOKAndItsMessageAsJSON() async throws {
        try await Self.withDemo { session in
            try session.send("Get user", as: 1)
            guard case .received(_, let response)? = await session.wait(for: 1, Self.received(1)) else {
                Issue.record("no response: \(session.reported.all)")
                return
            }
            #expect(response.reason == "OK")
            #expect(response.httpVersion == "gRPC unary")
            #expect(response.document.kind == .json)
            #expect(String(decoding: response.document.raw, as: UTF8.self).contains("\"username\":\"ada\""))
            #expect(response.headers["content-type"] == "application/grpc")
            #expect(response.headMilliseconds != nil)
            // A second call reads the kept schema and answers the same.
            try session.send("Get user", as: 2)
            guard case .received(_, let second)? = await session.wait(for: 2, Self.received(2)) else {
                Issue.record("no second response: \(session.reported.all)")
                return
            }
            #expect(second.reason == "OK")
            // The schema was asked of the server's reflection once, for both calls.
            #expect(await session.served.wait { _ in session.served.all.filter { $0.contains("/GetUser") }.count == 2 })
            #expect(session.served.all.filter { $0.contains("ServerReflectionInfo") }.count == 1)
            #expect(String(decoding: second.document.raw, as: UTF8.self).contains("\"username\":\"ada\""))
        }
    }

    @Test func aStreamShowsItsFirstMessageBeforeItEnds() async throws {
        try await Self.withDemo { session in
            try session.send("Stream posts", as: 1)
            let first: @Sendable (AppAction) -> Bool = {
                if case .streamed(exchange: 1, let snapshot) = $0 {
                    return String(decoding: snapshot.document.raw, as: UTF8.self).contains("\"id\":1")
                }
                return false
            }
            #expect(await session.reported.wait(for: first))
            // The first message came while the call was live: nothing ended it yet.
            let firstIndex = try #require(session.reported.all.firstIndex(where: first))
            #expect(await session.reported.wait(for: Self.received(1)))
            let all = session.reported.all
            let endIndex = try #require(all.firstIndex(where: Self.received(1)))
            #expect(firstIndex < endIndex)
            guard case .received(_, let response) = all[endIndex] else { return }
            #expect(response.reason == "OK")
            #expect(response.document.kind == .events)
            let lines = (0..<response.document.lineCount).map { response.document.plainLine($0) }
            #expect(lines.filter { $0.hasPrefix("▸ ") }.count == 3)
            #expect(lines.last?.hasSuffix("■ OK") == true)
        }
    }

    @Test func aRefusalShowsItsStatusAndDetails() async throws {
        try await Self.withDemo { session in
            try session.send("Create user", as: 1)
            guard case .received(_, let response)? = await session.wait(for: 1, Self.received(1)) else {
                Issue.record("no response: \(session.reported.all)")
                return
            }
            #expect(response.reason.hasPrefix("INVALID_ARGUMENT (3): "))
            #expect(response.status == 400)
            #expect(response.errorSummary.contains { $0.hasPrefix("• BadRequest username: ") })
            #expect(response.errorSummary.contains("• ErrorInfo DIRECTORY_READ_ONLY (demo.explorer.local)"))
            #expect(String(decoding: response.document.raw, as: UTF8.self).contains("google.rpc.BadRequest"))
        }
    }

    @Test func aMessageThatDoesNotMatchItsTypeOrAnUnknownMethodIsOneLineAndNothingIsSent() async throws {
        try await Self.withDemo { session in
            try session.send("Wrong field", as: 1)
            guard case .resolveFailed(_, let sentence)? = await session.wait(for: 1, Self.resolveFailed(1)) else {
                Issue.record("not refused: \(session.reported.all)")
                return
            }
            #expect(sentence.hasPrefix("Not sent: "))
            #expect(sentence.contains("identifier"), "\(sentence)")
            #expect(!sentence.contains("\n"))

            try session.send("Unknown method", as: 2)
            guard case .resolveFailed(_, let unknown)? = await session.wait(for: 2, Self.resolveFailed(2)) else {
                Issue.record("not refused: \(session.reported.all)")
                return
            }
            #expect(unknown.contains("explorer.demo.v1.Directory/GetUsr is not in the schema"), "\(unknown)")
            #expect(unknown.contains("GetUser"), "\(unknown)")
            // Neither went out: the server saw no call of either, and no stream, response or
            // failure came for them.
            #expect(!session.served.all.contains { $0.contains("/GetUser") || $0.contains("/GetUsr") })
            #expect(
                !session.reported.all.contains {
                    switch $0 {
                    case .received, .streamed, .failed: true
                    default: false
                    }
                })
        }
    }

    @Test func aCancelStopsAStreamThatNeverEnds() async throws {
        try await Self.withDemo { session in
            try session.send("Heartbeat", as: 1)
            #expect(await session.reported.wait(for: Self.streamed(1)))
            let beats: @Sendable (AppAction) -> Bool = {
                if case .streamed(exchange: 1, let snapshot) = $0 { return snapshot.document.raw.count > 0 }
                return false
            }
            #expect(await session.reported.wait(for: beats))
            session.program.perform(.cancel(exchange: 1), send: { session.reported.append($0) })
            // The stream stops: the count of updates stays put, and the call never completes.
            let settled = await steadyCount(of: session.reported)
            #expect(settled != nil)
            #expect(!session.reported.all.contains(where: Self.received(1)))
        }
    }

    @Test func aBidirectionalCallStaysOpenForTypedMessagesUntilItsMessagesEnd() async throws {
        try await Self.withDemo { session in
            try session.send("Chat", as: 1)
            #expect(await session.reported.wait { if case .webSocketOpened(exchange: 1) = $0 { true } else { false } })
            let answered: (String) -> @Sendable (AppAction) -> Bool = { text in
                { action in
                    guard case .streamed(exchange: 1, let snapshot) = action else { return false }
                    let lines = (0..<snapshot.document.lineCount).map { snapshot.document.plainLine($0) }
                    return lines.contains { $0.contains(text) }
                }
            }
            // The endpoint's message went out and was answered; the call is still open.
            #expect(await session.reported.wait(for: answered("\"ada: hello\"")))
            session.program.perform(
                .webSocket(exchange: 1, .send(#"{"text": "bye", "author": "ada"}"#)),
                send: { session.reported.append($0) })
            #expect(await session.reported.wait(for: answered("→ sent #2")))
            #expect(await session.reported.wait(for: answered("\"ada: bye\"")))
            #expect(!session.reported.all.contains(where: Self.received(1)))
            // A message that is not the method's type is refused on the message line.
            session.program.perform(
                .webSocket(exchange: 1, .send(#"{"txt": "oops"}"#)), send: { session.reported.append($0) })
            #expect(
                await session.reported.wait {
                    if case .message(let text, isError: true) = $0 { text.hasPrefix("Not sent: ") } else { false }
                })
            // Esc: no more messages; the server ends the call with OK.
            session.program.perform(
                .webSocket(exchange: 1, .close(code: 1000, reason: "")), send: { session.reported.append($0) })
            guard case .received(_, let response)? = await session.wait(for: 1, Self.received(1)) else {
                Issue.record("the call did not end: \(session.reported.all)")
                return
            }
            #expect(response.reason == "OK")
            #expect(response.httpVersion == "gRPC bidi streaming")
            let lines = (0..<response.document.lineCount).map { response.document.plainLine($0) }
            #expect(lines.filter { $0.contains("→ sent #") }.count == 2)
            #expect(lines.last?.hasSuffix("■ OK") == true)
        }
    }

    /// Waits until no action has been reported for longer than a heartbeat's period (200 ms) several times over,
    /// at most 60 s: the number reported then, or nil if it kept growing.
    func steadyCount(of reported: Collected<AppAction>) async -> Int? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        var last = reported.all.count
        var since = clock.now
        while clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            let now = reported.all.count
            if now != last {
                last = now
                since = clock.now
            } else if clock.now - since >= .milliseconds(1500) {
                return now
            }
        }
        return nil
    }
}
