import Foundation
import NetworkingCore
import Testing
@testable import Measure

/// A load against a real server on 127.0.0.1 with known delays: the percentiles it reports
/// must be the delays the server keeps (within what a loaded 2-core machine adds), and a rate
/// must charge the requests that waited behind a stalled one.
@Suite(.serialized) struct LoadRunnerTests {
    /// What scheduling on a busy machine may add to a delay, in milliseconds.
    static let slack = 40.0

    func load(_ path: String, _ plan: LoadPlan, server: DelayServer) async -> LoadResult {
        let provider = FixedServer(server.baseURL)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let dispatcher = NetworkDispatcher(serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "load-test"))
        let result = await LoadRunner.run(plan) {
            await LoadOutcome.sending(BasicRequest(path: path), through: dispatcher)
        }
        try? await transport.shutdown()
        withExtendedLifetime(provider) {}
        return result
    }

    @Test func aFixedDelayIsEveryPercentile() async throws {
        let server = try await DelayServer.start()
        let result = await load("/fixed/20", LoadPlan(requests: 40, concurrency: 4), server: server)
        await server.stop()
        let latencies = result.latencies
        #expect(latencies.count == 40)
        #expect(latencies.statuses == [200: 40])
        #expect(latencies.bytes == 40 * #"{"waited":20}"#.utf8.count)
        for percentile in [0.0, 50, 90, 99, 100] {
            let value = latencies.milliseconds(atPercentile: percentile)
            #expect(value >= 20 && value < 20 + Self.slack, "p\(percentile) = \(value) ms")
        }
        #expect(latencies.minimumMilliseconds >= 20)
    }

    @Test func aBimodalServerShowsBothModes() async throws {
        let server = try await DelayServer.start()
        let result = await load("/bimodal/5/120", LoadPlan(requests: 100, concurrency: 4), server: server)
        await server.stop()
        let latencies = result.latencies
        #expect(latencies.count == 100)
        // Ninety answers after 5 ms, ten after 120 ms.
        let p50 = latencies.milliseconds(atPercentile: 50)
        let p85 = latencies.milliseconds(atPercentile: 85)
        let p95 = latencies.milliseconds(atPercentile: 95)
        let p99 = latencies.milliseconds(atPercentile: 99)
        #expect(p50 >= 5 && p50 < 5 + Self.slack, "p50 = \(p50)")
        #expect(p85 < 5 + Self.slack, "p85 = \(p85)")
        #expect(p95 >= 120 && p95 < 120 + Self.slack, "p95 = \(p95)")
        #expect(p99 >= 120 && p99 < 120 + Self.slack, "p99 = \(p99)")
        // The histogram's first bucket holds the fast mode, its last the slow one.
        let buckets = latencies.bucketCounts(buckets: 10)
        #expect(buckets.map(\.count).reduce(0, +) == 100)
        #expect(buckets.first!.count >= 85)
        #expect(buckets.last!.count >= 5)
    }

    @Test func aRateChargesTheRequestsThatWaitedBehindAStall() async throws {
        let server = try await DelayServer.start()
        // 100 requests at 100 a second from one worker; the 10th stalls 300 ms, so the ~30
        // due during the stall wait for it. Their service time does not show it; their
        // latency from when they were due does.
        let result = await load("/stall/10/300", LoadPlan(requests: 100, concurrency: 1, rate: 100), server: server)
        await server.stop()
        let corrected = result.latencies
        let service = try #require(result.serviceTimes)
        #expect(corrected.count == 100)
        #expect(service.count == 100)
        #expect(service.maximumMilliseconds >= 300)
        #expect(corrected.maximumMilliseconds >= 280)
        let correctedP75 = corrected.milliseconds(atPercentile: 75)
        let serviceP75 = service.milliseconds(atPercentile: 75)
        #expect(correctedP75 > 20, "corrected p75 = \(correctedP75)")
        #expect(serviceP75 < 20, "service p75 = \(serviceP75)")
        // A rate of 100 a second takes about a second for 100 requests.
        #expect(result.elapsed >= .milliseconds(980))
    }

    @Test func aDurationEndsTheLoad() async throws {
        let server = try await DelayServer.start()
        let result = await load("/fixed/10", LoadPlan(requests: nil, concurrency: 2, duration: .milliseconds(300)), server: server)
        await server.stop()
        #expect(result.latencies.count >= 2)
        #expect(result.elapsed >= .milliseconds(300))
        #expect(result.elapsed < .milliseconds(300 + 500))
    }

    @Test func statusesAndFailuresAreCountedByKind() async throws {
        let server = try await DelayServer.start()
        let port = server.port
        let statuses = await load("/status/503", LoadPlan(requests: 5, concurrency: 2), server: server)
        await server.stop()
        #expect(statuses.latencies.statuses == [503: 5])
        // Nothing listens on the stopped server's port any more.
        let provider = FixedServer(URL(string: "http://127.0.0.1:\(port)")!)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let dispatcher = NetworkDispatcher(serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "load-test"))
        let refused = await LoadRunner.run(LoadPlan(requests: 3, concurrency: 1)) {
            await LoadOutcome.sending(BasicRequest(path: "/"), through: dispatcher)
        }
        try? await transport.shutdown()
        #expect(refused.latencies.errors == ["connection refused": 3])
        #expect(refused.latencies.responses == 0)
        #expect(refused.reportLines().contains { $0.hasPrefix("  [connection refused] 3") })
    }
}
