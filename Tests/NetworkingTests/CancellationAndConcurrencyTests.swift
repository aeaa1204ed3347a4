import Foundation
import Networking
import Testing

@Suite struct CancellationAndConcurrencyTests {
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

    @Test func aThousandConcurrentFuturesEachCompleteExactlyOnce() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let counter = CallCounter()
        let count = 1000

        let futures = (0..<count).map { index in
            dispatcher.future(from: BasicRequest(path: "/echo/\(index)"))
                .response { response in if response.statusCode == .ok { counter.hit("ok") } }
                .error { _ in counter.hit("error") }
                .completion { counter.hit("completion \(index)"); counter.hit("completion") }
        }
        futures.forEach { $0.send() }

        #expect(await eventually(timeout: .seconds(60)) { counter.count("completion") == count })
        #expect(counter.count("ok") == count)
        #expect(counter.count("error") == 0)
        #expect((0..<count).allSatisfy { counter.count("completion \($0)") == 1 })
        #expect(server.hits("/echo/999") == 1)
    }
}
