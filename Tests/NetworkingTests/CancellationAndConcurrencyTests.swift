import Foundation
import Networking
import Testing

// Serialized: the 1,000-request test fills the shared transport's pool, and a request queued
// behind it would not reach the server in the time the cancellation tests wait for it.
@Suite(.serialized) struct CancellationAndConcurrencyTests {
    @Test func cancellingAFutureClosesItsConnection() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let counter = CallCounter()

        let future = dispatcher.future(from: BasicRequest(path: "/stall"))
            .error { _ in counter.hit("error") }
            .cancellation { counter.hit("cancellation") }
            .completion { counter.hit("completion") }
            .send()
        #expect(await eventually { server.hits("/stall") == 1 && server.openConnections == 1 })
        future.cancel()

        #expect(await eventually { server.openConnections == 0 })
        #expect(await eventually { counter.count("completion") == 1 })
        #expect(counter.count("cancellation") == 1)
        #expect(counter.count("error") == 0)
    }

    @Test func cancellingTheAwaitingTaskClosesTheConnectionAndThrowsCancelled() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let task = Task { try await dispatcher.future(from: BasicRequest(path: "/stall")).value }
        #expect(await eventually { server.openConnections == 1 && server.hits("/stall") == 1 })
        task.cancel()

        await #expect(throws: TransportError.cancelled) { try await task.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func cancellingTheAwaitingTaskEndsTheFutureCancelledNotFailed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport,
            callbackQueue: DispatchQueue(label: "cancelled"))
        let counter = CallCounter()
        let future = dispatcher.future(from: BasicRequest(path: "/stall"))
            .cancellation { counter.hit("cancellation") }
            .error { _ in counter.hit("error") }
            .completion { counter.hit("completion") }

        let task = Task { try await future.value }
        #expect(await eventually { server.hits("/stall") == 1 })
        task.cancel()

        await #expect(throws: TransportError.cancelled) { try await task.value }
        #expect(await eventually { counter.count("completion") == 1 })
        #expect(counter.count("cancellation") == 1)
        #expect(counter.count("error") == 0)
        guard case .cancelled? = future.outcome else {
            Issue.record("the outcome is \(String(describing: future.outcome)), not cancelled")
            return
        }
    }

    @Test func aThousandConcurrentFuturesEachCompleteExactlyOnce() async throws {
        let server = try await TestServer.start()
        // A request waits in the connection pool's queue for at most the connect timeout: on a
        // loaded machine the last of a thousand may wait longer than the default 10 s.
        let transport = AsyncHTTPClientTransport(configuration: .init(connectTimeout: .seconds(120), proxy: .none))
        defer {
            Task {
                await server.stop()
                try? await transport.shutdown()
            }
        }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: transport)
        let counter = CallCounter()
        let count = 1000

        let futures = (0..<count).map { index in
            dispatcher.future(from: BasicRequest(path: "/echo/\(index)"))
                .response { response in if response.statusCode == .ok { counter.hit("ok") } }
                .error { error in
                    counter.hit("error")
                    counter.hit("error: \(error)")
                }
                .completion {
                    counter.hit("completion \(index)")
                    counter.hit("completion")
                }
        }
        for future in futures { future.send() }

        #expect(await eventually { counter.count("completion") == count })
        #expect(counter.count("ok") == count)
        #expect(counter.count("error") == 0, "\(counter.names(startingWith: "error: ").prefix(3))")
        #expect((0..<count).allSatisfy { counter.count("completion \($0)") == 1 })
        #expect(server.hits("/echo/999") == 1)
    }

    @Test func cancellingAFutureThatIsAwaitedClosesTheConnectionAndThrowsCancelled() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let future = dispatcher.future(from: BasicRequest(path: "/stall"))

        // `value` runs the request in the awaiting Task; `cancel()` must still reach it.
        let task = Task { try await future.value }
        #expect(await eventually { server.openConnections == 1 && server.hits("/stall") == 1 })
        future.cancel()

        await #expect(throws: TransportError.cancelled) { try await task.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func cancellingAwaitedFuturesAsTheyFinishEndsEachOnceWithItsValueOrCancelled() async throws {
        // `cancel()` from elsewhere races with the end of the work that runs in the awaiting
        // Task: each await ends once, with the response or `cancelled`, and a cancellation
        // that lost the race never reaches the Task after it moved on.
        let environment = TestEnvironment(URL(string: "http://127.0.0.1:9")!)
        let dispatcher = NetworkDispatcher(
            serverProvider: environment, transport: YieldingTransport(), callbackQueue: DispatchQueue(label: "race"))
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var outcomes: [String] = []
                    for index in 0..<500 {
                        let future = dispatcher.future(from: BasicRequest(path: "/race"))
                        let canceller = Task.detached {
                            for _ in 0..<(index % 4) { await Task.yield() }
                            future.cancel()
                        }
                        let awaiting = Task.detached { () -> String in
                            do { _ = try await future.value } catch TransportError.cancelled {
                                return "cancelled"
                            } catch { return "\(error)" }
                            await canceller.value
                            return Task.isCancelled ? "ok, then the Task was cancelled" : "ok"
                        }
                        outcomes.append(await awaiting.value)
                    }
                    return outcomes
                }
            }
            var all: [String] = []
            for await part in group { all += part }
            return all
        }
        #expect(outcomes.count == 2000)
        #expect(outcomes.allSatisfy { $0 == "ok" || $0 == "cancelled" }, "\(Set(outcomes))")
        #expect(outcomes.contains("ok") && outcomes.contains("cancelled"), "both ends of the race are reached")
    }

    @Test func callbacksRunInOrderOnceEachOnAConcurrentQueueEvenWhenAttachedLate() async throws {
        // The order is the futures' business, not the network's: a mock answers, after a
        // moment so that the futures finish while callbacks are being attached and run.
        let queue = DispatchQueue(label: "callbacks", attributes: .concurrent)
        let dispatcher = MockDispatcher(callbackQueue: queue, fallback: .text("ok", delay: .milliseconds(1)))
        let log = EventLog()
        let count = 1000

        // Attached before: half succeed, half fail by a throw in `then`; some `response`
        // callbacks throw, which must reach `error` before `completion`.
        let early = (0..<count).map { index in
            dispatcher.future(from: BasicRequest(path: "/echo/\(index)"))
                .then { response -> Int in
                    if index % 2 == 1 { throw TransportError.other("odd \(index)") }
                    return response.statusCode.code
                }
                .completion { log.append(index, "completion") }
                .response { _ in
                    log.append(index, "response")
                    if index % 4 == 0 { throw TransportError.other("thrown \(index)") }
                }
                .error { _ in log.append(index, "error") }
        }
        for future in early { future.send() }

        // Attached after the future finished.
        let late = (0..<count).map { index in
            ResponseFuture<Int>(value: index, callbackQueue: queue).send()
        }
        #expect(await eventually { late.allSatisfy(\.isFinished) })
        for (index, future) in late.enumerated() {
            future
                .response { _ in log.append(count + index, "response") }
                .error { _ in log.append(count + index, "error") }
                .completion { log.append(count + index, "completion") }
        }

        #expect(await eventually { log.finished(2 * count) })
        for index in 0..<count {
            let expected =
                index % 2 == 1
                ? ["error", "completion"]
                : index % 4 == 0 ? ["response", "error", "completion"] : ["response", "completion"]
            #expect(log.events(of: index) == expected, "future \(index)")
            #expect(log.events(of: count + index) == ["response", "completion"], "late future \(index)")
        }
    }
}

/// What each future's callbacks did, in order.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var byFuture: [Int: [String]] = [:]
    private var completions = 0

    func append(_ future: Int, _ event: String) {
        lock.lock()
        byFuture[future, default: []].append(event)
        if event == "completion" { completions += 1 }
        lock.unlock()
    }

    func events(of future: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return byFuture[future] ?? []
    }

    func finished(_ count: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return completions >= count
    }
}

/// A transport that answers after yielding a few times, so that a cancellation can arrive
/// before, during or after the answer.
private struct YieldingTransport: HTTPTransport {
    func send(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        for _ in 0..<2 { await Task.yield() }
        try Task.checkCancellation()
        return TransportResponse(status: .ok, headers: [:], body: Data("{}".utf8), url: request.url, bytesReceived: 2)
    }
}
