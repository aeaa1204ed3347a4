import Foundation
import Networking
import Synchronization
import Testing

/// Exchanges sent from one of the transport's event loops, as `explorer load`'s workers send
/// them: async-http-client's delegate API carries them (`DelegatedExchange`), and they must
/// behave as those sent from anywhere else do — the same answers, limits, deadlines,
/// cancellation and back-pressure.
@Suite struct DelegatedExchangeTests {
    private func prepared(_ server: TestServer, _ path: String, method: HTTPMethod = .get, body: Data? = nil)
        -> PreparedRequest
    {
        PreparedRequest(method: method, url: URL(string: server.baseURL.absoluteString + path)!, body: body)
    }

    /// Runs `work` in a task on the shared transport's first event loop.
    private func onLoop<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(executorPreference: sharedTransport.executors[0]) { try await work() }.value
    }

    @Test(
        arguments: [
            ("/bytes/1000000", HTTPMethod.get, nil), ("/gzip", .get, nil), ("/redirect/3", .get, nil),
            ("/status/404", .get, nil),
            ("/latin1?named=1", .get, nil), ("/echo/posted", .post, "a body to echo"),
        ] as [(String, HTTPMethod, String?)])
    func anExchangeFromALoopAnswersAsOneFromAnywhereElse(path: String, method: HTTPMethod, body: String?) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let request = prepared(server, path, method: method, body: body.map { Data($0.utf8) })
        let elsewhere = try await sharedTransport.send(request, options: TransferOptions()) { _ in }
        let ranOnLoop = Mutex(true)
        let progress = Mutex<Int64>(0)
        let fromLoop = try await onLoop {
            try await sharedTransport.send(request, options: TransferOptions()) { report in
                let onLoop = sharedTransport.executors[0].eventLoop.inEventLoop
                ranOnLoop.withLock { $0 = $0 && onLoop }
                progress.withLock { $0 = report.completedBytes }
            }
        }
        #expect(fromLoop.status == elsewhere.status)
        #expect(fromLoop.body == elsewhere.body)
        #expect(fromLoop.url == elsewhere.url)
        #expect(fromLoop.redirects.map { $0.to } == elsewhere.redirects.map { $0.to })
        #expect(fromLoop.bytesReceived == elsewhere.bytesReceived)
        #expect(fromLoop.headers["Content-Type"] == elsewhere.headers["Content-Type"])
        #expect(ranOnLoop.withLock { $0 })
        if path.hasPrefix("/bytes") { #expect(progress.withLock { $0 } == 1_000_000) }
        if path == "/redirect/3" { #expect(fromLoop.redirects.count == 3) }
    }

    @Test func anExchangeFromALoopRunsInItsCallersTaskAndOneFromElsewhereInItsOwn() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let request = prepared(server, "/bytes/100000")
        // The task each progress report comes from, against the task that sent.
        @Sendable func tasks() async throws -> (sender: Int?, reporters: Set<Int>) {
            let reporters = Mutex<Set<Int>>([])
            let sender = withUnsafeCurrentTask { $0?.hashValue }
            _ = try await sharedTransport.send(request, options: TransferOptions()) { _ in
                let reporter = withUnsafeCurrentTask { $0?.hashValue }
                reporters.withLock { _ = $0.insert(reporter ?? 0) }
            }
            return (sender, reporters.withLock { $0 })
        }
        let fromLoop = try await onLoop { try await tasks() }
        #expect(fromLoop.sender != nil && fromLoop.reporters == [fromLoop.sender!])
        let fromElsewhere = try await tasks()
        #expect(!fromElsewhere.reporters.isEmpty && !fromElsewhere.reporters.contains(fromElsewhere.sender ?? 0))
    }

    @Test func anEndlessBodyStopsAtItsLimitAndItsConnectionCloses() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let request = prepared(server, "/endless")
        let error = await #expect(throws: TransportError.self) {
            try await onLoop {
                try await sharedTransport.send(request, options: TransferOptions(maximumBodySize: 1 << 20)) { _ in }
            }
        }
        guard case .bodyTooLarge? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func aSilentHeadAndASilentBodyEndAtTheIdleTimeout() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        // 8 s: the head's wait includes connecting, which a loaded machine can stretch.
        let options = TransferOptions(timeout: .seconds(120), idleTimeout: .seconds(8))
        let head = prepared(server, "/stall")
        let body = prepared(server, "/drip?count=3&every=40000")
        async let headPhase = onLoop { await timeoutPhase(sharedTransport, head, options) }
        async let bodyPhase = onLoop { await timeoutPhase(sharedTransport, body, options) }
        #expect(try await headPhase == "no complete response head in 8 s")
        #expect(try await bodyPhase == "no bytes for 8 s")
    }

    @Test func cancellingTheSenderClosesTheConnection() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let request = prepared(server, "/stall")
        let sender = Task(executorPreference: sharedTransport.executors[0]) {
            try await sharedTransport.send(request, options: TransferOptions()) { _ in }
        }
        #expect(await eventually { server.hits("/stall") == 1 && server.openConnections == 1 })
        sender.cancel()
        let error = await #expect(throws: TransportError.self) { try await sender.value }
        guard case .cancelled? = error else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func aStreamedBodyIsFetchedOnlyAsItIsRead() async throws {
        let size = BodyStreamTests.twoHundredMB
        let server = try BlockingByteServer(size: size)
        let request = PreparedRequest(url: URL(string: "http://127.0.0.1:\(server.port)/big")!)
        let (stalled, total) = try await onLoop { () async throws -> (Int?, Int) in
            let streamed = try await sharedTransport.stream(request, options: TransferOptions())
            var iterator = streamed.body.makeAsyncIterator()
            var total = try await iterator.next()?.count ?? 0
            // The reader pauses: what the server's kernel accepted stops growing far below the body.
            let stalled = await steadyValue { server.bytesSent }
            while let chunk = try await iterator.next() { total += chunk.count }
            return (stalled, total)
        }
        #expect(stalled != nil && stalled! < 64 << 20)
        #expect(total == size)
    }
}
