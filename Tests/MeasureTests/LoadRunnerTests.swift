import Foundation
import NetworkingCore
import Synchronization
import TestSupport
import Testing

@testable import Measure

/// A load against a real server on 127.0.0.1 with known delays: the percentiles it reports
/// must be the delays the server keeps (within what a loaded 2-core machine adds), and a rate
/// must charge the requests that waited behind a stalled one.
@Suite(.serialized) struct LoadRunnerTests {
    /// What scheduling on a busy machine may add to a delay, in milliseconds.
    static let slack = 60.0

    /// How long a measurement is taken again until it fits: under the whole suite the two cores
    /// are shared with every other test (busy for most of its 45 s), and a run can be held up
    /// past the slack for seconds on end; what must always hold (no latency below the server's
    /// delay) is checked on every run, the upper bounds on the last.
    static let patience = Duration.seconds(90)

    /// Loads until `fits` holds of a result (for at most `patience`, a pause between runs),
    /// checking `always` of each.
    func measure(
        _ path: String, _ plan: LoadPlan, server: DelayServer, always: (LoadResult) -> Void,
        fits: (LoadResult) -> Bool
    ) async -> (LoadResult, Bool) {
        let clock = ContinuousClock()
        let until = clock.now.advanced(by: Self.patience)
        var result = await load(path, plan, server: server)
        always(result)
        while !fits(result), clock.now < until {
            try? await Task.sleep(for: .milliseconds(250))
            result = await load(path, plan, server: server)
            always(result)
        }
        return (result, fits(result))
    }

    func load(_ path: String, _ plan: LoadPlan, server: DelayServer) async -> LoadResult {
        let provider = FixedServer(server.baseURL)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let dispatcher = NetworkDispatcher(
            serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "load-test"))
        // As `explorer load` runs them: on the transport's event loops when each has one.
        let executors = LoadRunner.workerExecutors(concurrency: plan.concurrency, loops: transport.executors)
        let result = await LoadRunner.run(plan, executors: executors) {
            await LoadOutcome.sending(BasicRequest(path: path), through: dispatcher)
        }
        try? await transport.shutdown()
        withExtendedLifetime(provider) {}
        return result
    }

    @Test func aFixedDelayIsEveryPercentile() async throws {
        let server = try await DelayServer.start()
        let percentiles = [0.0, 50, 90, 99, 100]
        let (result, fits) = await measure(
            "/fixed/20", LoadPlan(requests: 40, concurrency: 4), server: server,
            always: { result in
                let latencies = result.latencies
                #expect(latencies.count == 40)
                #expect(latencies.statuses == [200: 40])
                #expect(latencies.bytes == 40 * #"{"waited":20}"#.utf8.count)
                #expect(latencies.minimumMilliseconds >= 20)
            },
            fits: { result in
                percentiles.allSatisfy { result.latencies.milliseconds(atPercentile: $0) < 20 + Self.slack }
            })
        await server.stop()
        #expect(fits, "\(percentiles.map { result.latencies.milliseconds(atPercentile: $0) }) ms")
    }

    @Test func aBimodalServerShowsBothModes() async throws {
        let server = try await DelayServer.start()
        // Ninety answers after 5 ms, ten after 120 ms.
        let (result, fits) = await measure(
            "/bimodal/5/120", LoadPlan(requests: 100, concurrency: 4), server: server,
            always: { result in
                let latencies = result.latencies
                #expect(latencies.count == 100)
                #expect(latencies.milliseconds(atPercentile: 50) >= 5)
                #expect(latencies.milliseconds(atPercentile: 95) >= 120)
                #expect(latencies.bucketCounts(buckets: 10).map(\.count).reduce(0, +) == 100)
            },
            fits: { result in
                let latencies = result.latencies
                let buckets = latencies.bucketCounts(buckets: 10)
                // The histogram's first bucket holds the fast mode, its last the slow one.
                return latencies.milliseconds(atPercentile: 85) < 5 + Self.slack
                    && latencies.milliseconds(atPercentile: 99) < 120 + Self.slack
                    && buckets.first!.count >= 85 && buckets.last!.count >= 5
            })
        await server.stop()
        #expect(
            fits,
            "p50 \(result.latencies.milliseconds(atPercentile: 50)), p85 \(result.latencies.milliseconds(atPercentile: 85)), p99 \(result.latencies.milliseconds(atPercentile: 99))"
        )
    }

    @Test func aRateChargesTheRequestsThatWaitedBehindAStall() async throws {
        let server = try await DelayServer.start()
        // 100 requests at 100 a second from one worker; the 10th stalls 600 ms, so the ~60
        // due during the stall wait for it. Their service time does not show it; their
        // latency from when they were due does. (The server counts its requests: each run
        // stalls at its own 10th: the 10th of each hundred.)
        let (result, fits) = await measure(
            "/stall/10/600", LoadPlan(requests: 100, concurrency: 1, rate: 100), server: server,
            always: { result in
                #expect(result.latencies.count == 100)
                #expect(result.serviceTimes?.count == 100)
                // A rate of 100 a second takes about a second for 100 requests.
                #expect(result.elapsed >= .milliseconds(980))
                #expect(result.latencies.milliseconds(atPercentile: 75) > 100)
            },
            fits: { result in
                (result.serviceTimes?.milliseconds(atPercentile: 75) ?? .infinity) < Self.slack
            })
        await server.stop()
        let service = try #require(result.serviceTimes)
        #expect(fits, "service p75 = \(service.milliseconds(atPercentile: 75))")
        #expect(result.latencies.maximumMilliseconds >= 580)
    }

    @Test func aDurationEndsTheLoad() async throws {
        let server = try await DelayServer.start()
        let result = await load(
            "/fixed/10", LoadPlan(requests: nil, concurrency: 2, duration: .milliseconds(300)), server: server)
        await server.stop()
        #expect(result.latencies.count >= 2)
        #expect(result.elapsed >= .milliseconds(300))
        // It stops once the time is up: the requests in flight then finish (10 ms each, unless the machine is busy).
        #expect(result.elapsed < .milliseconds(300 + 5000))
    }

    @Test func statusesAndFailuresAreCountedByKind() async throws {
        let server = try await DelayServer.start()
        let statuses = await load("/status/503", LoadPlan(requests: 5, concurrency: 2), server: server)
        await server.stop()
        #expect(statuses.latencies.statuses == [503: 5])
        // Nothing listens there (a stopped server's port may be taken by another test's server).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let provider = FixedServer(URL(string: "http://127.0.0.1:\(refusing.port)")!)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let dispatcher = NetworkDispatcher(
            serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "load-test"))
        let refused = await LoadRunner.run(LoadPlan(requests: 3, concurrency: 1)) {
            await LoadOutcome.sending(BasicRequest(path: "/"), through: dispatcher)
        }
        try? await transport.shutdown()
        #expect(refused.latencies.errors == ["connection refused": 3])
        #expect(refused.latencies.responses == 0)
        #expect(refused.reportLines().contains { $0.hasPrefix("  [connection refused] 3") })
    }

    @Test func workersHaveTheLoopsOnlyWhenEachHasOneToItself() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { Task { try? await transport.shutdown() } }
        let loops = transport.executors
        try #require(!loops.isEmpty)
        for concurrency in [1, loops.count] {
            #expect(LoadRunner.workerExecutors(concurrency: concurrency, loops: loops).count == loops.count)
        }
        for concurrency in [loops.count + 1, 32] {
            #expect(LoadRunner.workerExecutors(concurrency: concurrency, loops: loops).isEmpty)
        }
        #expect(LoadRunner.workerExecutors(concurrency: 1, loops: []).isEmpty)
    }

    @Test func theWorkersRunOnTheExecutorsInTurn() async throws {
        let server = try await DelayServer.start()
        let provider = FixedServer(server.baseURL)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let dispatcher = NetworkDispatcher(
            serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "load-test"))
        let executors = transport.executors
        let seen = Mutex<[Int: Int]>([:])
        let result = await LoadRunner.run(LoadPlan(requests: 40, concurrency: 4), executors: executors) {
            let outcome = await LoadOutcome.sending(BasicRequest(path: "/fixed/1"), through: dispatcher)
            // Where the worker is once its response has come: still on its loop.
            let loop = executors.firstIndex { $0.eventLoop.inEventLoop } ?? -1
            seen.withLock { $0[loop, default: 0] += 1 }
            return outcome
        }
        try? await transport.shutdown()
        await server.stop()
        withExtendedLifetime(provider) {}
        #expect(result.latencies.statuses == [200: 40])
        let counts = seen.withLock { $0 }
        #expect(counts[-1] == nil)
        #expect(counts.values.reduce(0, +) == 40)
        // Four workers over the loops in turn: each loop has some.
        #expect(Set(counts.keys) == Set(executors.indices.prefix(4)))
    }
}
