import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Networking
import Synchronization
import Testing

/// `EventLoopExecutor`: tasks that prefer it run on its loop, and a transport's exchange sent
/// from one of its loops stays on that loop (no hop to Swift's global executor and back).
@Suite struct EventLoopExecutorTests {
    @Test func aGroupHasOneExecutorPerLoopInItsOrder() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
        defer { try? group.syncShutdownGracefully() }
        let loops = Array(group.makeIterator())
        let executors = EventLoopExecutor.executors(of: group)
        #expect(executors.count == 3)
        #expect(zip(executors, loops).allSatisfy { $0.eventLoop === $1 })
    }

    @Test func aTaskThatPrefersItRunsOnItsLoopAcrossAwaits() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let executor = EventLoopExecutor.executors(of: group)[1]
        let onLoop = await Task(executorPreference: executor) { () -> [Bool] in
            var seen = [executor.eventLoop.inEventLoop]
            try? await Task.sleep(for: .milliseconds(5))
            seen.append(executor.eventLoop.inEventLoop)
            // A child task inherits the preference.
            async let child = executor.eventLoop.inEventLoop
            seen.append(await child)
            return seen
        }.value
        #expect(onLoop == [true, true, true])
        try await group.shutdownGracefully()
    }

    @Test func aSendFromATransportLoopAnswersOnThatLoop() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let executors = transport.executors
        #expect(executors.count == Array(transport.client.eventLoopGroup.makeIterator()).count)
        let request = try BasicRequest(path: "/echo/looped").prepared(baseURL: server.baseURL)

        // Where the exchange runs: its progress is reported from it.
        let onLoops = Mutex<[Bool]>([])
        let report: @Sendable (TransferProgress) -> Void = { _ in
            let onLoop = executors.contains { $0.eventLoop.inEventLoop }
            onLoops.withLock { $0.append(onLoop) }
        }
        for executor in executors {
            onLoops.withLock { $0 = [] }
            let (status, before, after) = try await Task(executorPreference: executor) { () -> (Int, Bool, Bool) in
                let before = executor.eventLoop.inEventLoop
                let response = try await transport.send(request, options: TransferOptions(), progress: report)
                return (response.status.code, before, executor.eventLoop.inEventLoop)
            }.value
            #expect(status == 200 && before && after)
            let reports = onLoops.withLock { $0 }
            #expect(!reports.isEmpty && reports.allSatisfy { $0 })
        }
        // From Swift's global executor, one request at a time: its exchange moves to the first
        // loop, every time (where the connection it made is).
        let onFirstLoop = Mutex<[Bool]>([])
        for _ in 0..<3 {
            let alone = try await transport.send(request, options: TransferOptions()) { _ in
                let onLoop = executors[0].eventLoop.inEventLoop
                onFirstLoop.withLock { $0.append(onLoop) }
            }
            #expect(alone.status.code == 200)
        }
        let aloneReports = onFirstLoop.withLock { $0 }
        #expect(aloneReports.count >= 3 && aloneReports.allSatisfy { $0 })
        // With as many others in flight as there are loops, it stays on the global executor;
        // those counted are the ones still in flight, wherever they run. Twice as many are
        // started one after the other (the first ones moved to loops, the later ones not), and
        // the first ones given up.
        let stalled = try BasicRequest(path: "/stall").prepared(baseURL: server.baseURL)
        var holders: [Task<TransportResponse, any Error>] = []
        for index in 0..<(2 * executors.count) {
            holders.append(Task { try await transport.send(stalled, options: TransferOptions()) { _ in } })
            #expect(await eventually { server.hits("/stall") == index + 1 })
        }
        for holder in holders.prefix(executors.count) {
            holder.cancel()
            _ = try? await holder.value
        }
        onLoops.withLock { $0 = [] }
        let response = try await transport.send(request, options: TransferOptions(), progress: report)
        for holder in holders { holder.cancel() }
        #expect(response.status.code == 200)
        let reports = onLoops.withLock { $0 }
        #expect(!reports.isEmpty && reports.allSatisfy { !$0 })
        #expect(String(decoding: response.body ?? Data(), as: UTF8.self).contains("looped"))
        try await transport.shutdown()
    }

    @Test func aDeadlineStillEndsABodyReadOnALoop() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        // A line now and one in 40 s: the total deadline passes while the body is read.
        let request = try BasicRequest(path: "/drip?count=2&every=40000").prepared(baseURL: server.baseURL)
        let options = TransferOptions(timeout: .milliseconds(300))
        let executor = transport.executors[0]
        let outcome = await Task(executorPreference: executor) { () -> String in
            do {
                _ = try await transport.send(request, options: options) { _ in }
                return "answered"
            } catch let error as TransportError {
                guard case .timedOut = error else { return "\(error)" }
                return "timed out"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(outcome == "timed out")
        try await transport.shutdown()
    }
}
