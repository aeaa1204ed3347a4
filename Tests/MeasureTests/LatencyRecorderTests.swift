import Foundation
import NetworkingCore
import Testing

@testable import Measure

/// The recorder's percentiles, histogram and report on latencies known in advance.
@Suite struct LatencyRecorderTests {
    @Test func percentilesOfAKnownSpread() {
        var recorder = LatencyRecorder()
        // 1 ms to 1000 ms, one of each.
        for ms in 1...1000 { recorder.record(microseconds: UInt64(ms) * 1000, status: 200) }
        #expect(recorder.count == 1000)
        #expect(abs(recorder.milliseconds(atPercentile: 50) - 500) <= 1)
        #expect(abs(recorder.milliseconds(atPercentile: 90) - 900) <= 1)
        #expect(abs(recorder.milliseconds(atPercentile: 99) - 990) <= 1)
        #expect(abs(recorder.minimumMilliseconds - 1) <= 0.01)
        #expect(abs(recorder.maximumMilliseconds - 1000) <= 1)
        #expect(abs(recorder.meanMilliseconds - 500.5) <= 1)
    }

    @Test func workersMergeIntoOneDistribution() {
        var first = LatencyRecorder()
        var second = LatencyRecorder()
        for _ in 0..<90 { first.record(microseconds: 2000, status: 200, bytes: 10) }
        for _ in 0..<10 { second.record(microseconds: 50000, status: 500, bytes: 5) }
        second.recordFailure(microseconds: 9000, kind: "timeout", sentence: "timed out")
        first.merge(second)
        #expect(first.count == 101)
        #expect(first.statuses == [200: 90, 500: 10])
        #expect(first.errors == ["timeout": 1])
        #expect(first.bytes == 950)
        #expect(abs(first.milliseconds(atPercentile: 50) - 2) < 0.01)
        #expect(abs(first.milliseconds(atPercentile: 95) - 50) < 0.1)
    }

    @Test func theHistogramPutsEachModeInItsBucket() {
        var recorder = LatencyRecorder()
        for _ in 0..<90 { recorder.record(microseconds: 1000, status: 200) }
        for _ in 0..<10 { recorder.record(microseconds: 11000, status: 200) }
        let buckets = recorder.bucketCounts(buckets: 10)
        #expect(buckets.count == 10)
        #expect(buckets.first?.count == 90)
        #expect(buckets.last?.count == 10)
        #expect(buckets.dropFirst().dropLast().allSatisfy { $0.count == 0 })
        let lines = recorder.histogramLines(buckets: 10, width: 40)
        #expect(lines.first?.hasSuffix("|" + String(repeating: "■", count: 40)) == true)
        #expect(lines.last?.contains("[10]") == true)
        #expect(lines.last?.hasSuffix("|" + String(repeating: "■", count: 4)) == true)
    }

    @Test func nothingRecordedReportsZeros() {
        let recorder = LatencyRecorder()
        #expect(recorder.milliseconds(atPercentile: 99) == 0)
        #expect(recorder.histogramLines().isEmpty)
    }

    @Test func theJSONReportNamesEveryFigure() {
        var recorder = LatencyRecorder()
        recorder.record(microseconds: 1500, status: 200, bytes: 3)
        let result = LoadResult(
            plan: LoadPlan(requests: 1, concurrency: 1), latencies: recorder, serviceTimes: nil,
            elapsed: .milliseconds(10))
        let json = result.jsonObject
        #expect(json["requests"] == JSONValue(1))
        #expect(json["requestsPerSecond"] == JSONValue(100))
        #expect(json["latency"]?["p50"] == JSONValue(1.5))
        #expect(json["latency"]?["p99.9"] == JSONValue(1.5))
        #expect(json["statuses"]?["200"] == JSONValue(1))
        let text = result.reportLines()
        #expect(text.contains("  p99         1.500 ms"))
        #expect(text.contains("  [200] 1 response"))
    }
}
