import Foundation
import Networking
import Testing

/// The WebSocket client against a real server on 127.0.0.1.
@Suite struct WebSocketTests {
    /// Reads events until `stop` says so (or the session closes); returns them all.
    private func read(_ session: WebSocketSession, until stop: ([WebSocketEvent]) -> Bool) async -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        var iterator = session.events.makeAsyncIterator()
        while !stop(events), let event = await iterator.next() {
            events.append(event)
        }
        return events
    }

    private func received(_ events: [WebSocketEvent]) -> [WebSocketEntry] {
        events.compactMap { if case .entry(let entry) = $0, entry.direction == .received { entry } else { nil } }
    }

    private func closingOf(_ events: [WebSocketEvent]) -> WebSocketClosing? {
        events.lazy.compactMap { if case .closed(let closing) = $0 { closing } else { nil } }.first
    }

    @Test func theUpgradeCarriesTheRequestsHeadersAndAuthorization() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let request = PreparedRequest(
            url: server.url.appendingPathComponent("auth"), headers: ["X-Test": "42", "Authorization": "Bearer t0ken"])
        let session = try await WebSocketSession.connect(request)
        let events = await read(session) { received($0).count == 1 }
        #expect(received(events).first?.text == "x-test=42 authorization=Bearer t0ken")
        #expect(session.url.scheme == "ws")
        try await session.close()
    }

    @Test func theDispatcherAppliesItsAdaptersAndCookiesToTheUpgrade() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar()
        jar.store(setCookie: ["session=abc; Path=/", "elsewhere=no; Path=/other"], from: server.url)
        let token = AnyRequestAdapter { request in
            var request = request
            request.headers.replaceOrAdd(name: "Authorization", value: "Bearer t0ken")
            return request
        }
        let provider = TestEnvironment(URL(string: "http://127.0.0.1:\(server.port)")!)
        let dispatcher = NetworkDispatcher(serverProvider: provider, requestAdapters: [token], cookieJar: jar)
        let session = try await dispatcher.webSocket(
            PreparedRequest(url: server.url.appendingPathComponent("auth"), headers: ["X-Test": "7"]))
        let events = await read(session) { received($0).count == 1 }
        #expect(received(events).first?.text == "x-test=7 authorization=Bearer t0ken cookie=session=abc")
        try await session.close()
        withExtendedLifetime(provider) {}
    }

    @Test func digestCredentialsAreRefusedBeforeConnecting() async throws {
        let provider = TestEnvironment(URL(string: "http://127.0.0.1:9")!)
        let dispatcher = NetworkDispatcher(
            serverProvider: provider, challengeHandler: DigestAuthenticator(username: "ada", password: "secret"))
        await #expect(throws: WebSocketError.challengeAuthentication(url: "ws://127.0.0.1:9/echo")) {
            _ = try await dispatcher.webSocket(PreparedRequest(url: URL(string: "http://127.0.0.1:9/echo")!))
        }
        #expect(WebSocketError.challengeAuthentication(url: "ws://h/").description.contains("Use basic or bearer auth"))
        withExtendedLifetime(provider) {}
    }

    @Test func wssTrustsWhatTheTransportsTLSSettingsTrust() async throws {
        let authority = try TestCertificateAuthority()
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("ws-ca-\(UUID().uuidString).pem")
        try Data(try authority.pem.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let server = try await WebSocketTestServer.start(
            tls: try authority.issue(for: "localhost").serverConfiguration())
        defer { Task { await server.stop() } }
        let provider = TestEnvironment(URL(string: "https://localhost:\(server.port)")!)
        let upgrade = PreparedRequest(url: server.secureURL.appendingPathComponent("echo"))

        // The system's trust roots do not know the test CA.
        await #expect(throws: WebSocketError.self) {
            _ = try await NetworkDispatcher(serverProvider: provider).webSocket(upgrade)
        }

        let settings = TLSSettings(caCertificateFile: caFile.path)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(proxy: .none, tls: try settings.tlsConfiguration()))
        defer { Task { try? await transport.shutdown() } }
        let session = try await NetworkDispatcher(serverProvider: provider, transport: transport).webSocket(upgrade)
        try await session.send(text: "over TLS")
        let events = await read(session) { received($0).count == 2 }
        #expect(received(events).last?.text == "over TLS")
        #expect(session.url.scheme == "wss")
        try await session.close()
        withExtendedLifetime(provider) {}
    }

    @Test func anHTTPURLIsOpenedAsWebSocket() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: URL(string: "http://127.0.0.1:\(server.port)/echo")!))
        #expect(session.url.absoluteString == "ws://127.0.0.1:\(server.port)/echo")
        try await session.close()
    }

    @Test func aRefusedUpgradeIsAnErrorNamingTheURL() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let url = server.url.appendingPathComponent("auth")
        await #expect(throws: WebSocketError.upgradeFailed(url: url.absoluteString)) {
            _ = try await WebSocketSession.connect(
                PreparedRequest(url: url, headers: ["Authorization": "Bearer wrong"]))
        }
    }

    @Test func throughTheDispatcherARefusedUpgradeSaysTheStatusAndWhatTheServerSaid() async throws {
        // An API that answers the upgrade request as any request: 403 with a problem body.
        let server = try await TestServer.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { Task { try? await transport.shutdown() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: transport)
        let url = URL(string: "ws://127.0.0.1:\(server.port)/problem")!
        do {
            _ = try await dispatcher.webSocket(PreparedRequest(url: url, headers: ["Authorization": "Bearer wrong"]))
            Issue.record("the upgrade was taken")
        } catch let error as WebSocketError {
            guard case .upgradeRefused(let refused, let status, let body) = error else {
                Issue.record("expected the refusal, got \(error)")
                return
            }
            #expect(refused == url.absoluteString && status == 403)
            #expect(body.hasPrefix(#"{"type":"https://example.com/probs/out-of-credit""#))
            #expect(
                error.description.hasPrefix(
                    "The server at \(url.absoluteString) refused the WebSocket upgrade with 403 Forbidden: check the credentials. It said: {"
                ))
        }
        #expect(server.hits("/problem") == 2, "the upgrade, then the same request once to read the answer")
    }

    @Test func nothingListeningIsConnectionRefused() async throws {
        // Not a stopped server's port: another test's server may take it and answer.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        do {
            _ = try await WebSocketSession.connect(PreparedRequest(url: URL(string: "ws://127.0.0.1:\(port)/echo")!))
            Issue.record("connected to a port nothing listens on")
        } catch let error as WebSocketError {
            #expect(error == .transport(.connectionRefused(host: "127.0.0.1", port: port)))
        }
    }

    @Test func textAndBinaryMessagesGoBothWaysInOrder() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.send(text: "héllo")
        try await session.send(binary: Data([0, 1, 2, 255]))
        let events = await read(session) { received($0).count == 3 }
        let entries = received(events)
        #expect(entries[1].kind == .text)
        #expect(entries[1].text == "héllo")
        #expect(entries[1].size == 6)
        #expect(entries[2].kind == .binary)
        #expect(entries[2].data == Data([0, 1, 2, 255]))
        let sent = events.compactMap {
            if case .entry(let entry) = $0, entry.direction == .sent { entry.kind } else { nil }
        }
        #expect(sent == [.text, .binary])
        try await session.close()
    }

    @Test func aPingIsLoggedAndTheSessionStaysOpen() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.ping(Data("are you there".utf8))
        try await session.send(text: "after the ping")
        let events = await read(session) { received($0).count == 2 }
        #expect(
            events.contains {
                if case .entry(let entry) = $0 { entry.kind == .ping && entry.direction == .sent } else { false }
            })
        #expect(received(events).last?.text == "after the ping")
        try await session.close()
    }

    @Test func aClientCloseWithACodeEndsTheSession() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.close(code: 4001, reason: "done here")
        let events = await read(session) { _ in false }
        let closing = try #require(closingOf(events))
        #expect(closing.code == 4001)
        #expect(closing.initiator == .client)
        #expect(!closing.isNormal)
        #expect(closing.description == "Closed by the client with 4001 (private application code): done here.")
        await #expect(throws: WebSocketError.notOpen) { try await session.send(text: "too late") }
    }

    @Test func aServerCloseGivesItsCodeAndReasonAsASentence() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.send(text: "close 1008 no thanks")
        let closing = try #require(closingOf(await read(session) { _ in false }))
        #expect(closing.code == 1008)
        #expect(closing.reason == "no thanks")
        #expect(closing.initiator == .server)
        #expect(closing.description == "Closed by the server with 1008 (policy violation): no thanks.")
    }

    @Test func aNormalServerCloseIsNormal() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.send(text: "close 1000 bye")
        let closing = try #require(closingOf(await read(session) { _ in false }))
        #expect(closing.isNormal)
    }

    @Test func aDroppedConnectionIsAnAbnormalClose() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")))
        try await session.send(text: "drop")
        let closing = try #require(closingOf(await read(session) { _ in false }))
        #expect(closing.code == 1006)
        #expect(closing.initiator == .connection)
        #expect(!closing.isNormal)
    }

    @Test func tenThousandMessagesWaitInABoundedQueue() async throws {
        let server = try await WebSocketTestServer.start()
        defer { Task { await server.stop() } }
        let session = try await WebSocketSession.connect(
            PreparedRequest(url: server.url.appendingPathComponent("echo")),
            options: WebSocketOptions(bufferedEvents: 50))
        try await session.send(text: "flood 10000")
        var iterator = session.events.makeAsyncIterator()
        var count = 0
        var largestWait = 0
        while count < 10_002, let event = await iterator.next() {
            if case .entry = event { count += 1 }
            largestWait = max(largestWait, session.waitingEvents)
            if count == 10 {
                // The reader pauses: the connection stops at the cap instead of queueing the rest.
                #expect(await eventually { session.waitingEvents == 50 })
            }
        }
        #expect(count == 10_002)  // the greeting, "flood 10000" sent, and 10,000 received
        #expect(largestWait <= 50)
        try await session.close()
    }
}
