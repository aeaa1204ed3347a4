import Foundation
import Histogram

/// What a load records of its requests: the latency distribution (an HdrHistogram in
/// microseconds, three significant digits, so a percentile needs no sorted array of every
/// sample and memory stays the same whatever the count), the statuses, the failures by kind
/// and the bytes received.
///
/// Each worker of a load keeps its own recorder; `merge(_:)` adds them up at the end.
package struct LatencyRecorder: Sendable {
    /// The highest latency tracked, in microseconds (an hour); longer ones count as an hour.
    package static let highestMicroseconds: UInt64 = 3_600_000_000

    /// The latencies, in microseconds.
    package private(set) var histogram: Histogram<UInt64>
    /// How many responses of each status.
    package private(set) var statuses: [Int: Int] = [:]
    /// How many requests got no response, by kind of failure (`timeout`, `connection refused` …).
    package private(set) var errors: [String: Int] = [:]
    /// The sentence of the first failure of each kind, to show what it was.
    package private(set) var errorExamples: [String: String] = [:]
    /// The body bytes received.
    package private(set) var bytes = 0

    /// An empty recorder.
    package init() {
        histogram = Histogram(
            lowestDiscernibleValue: 1, highestTrackableValue: Self.highestMicroseconds,
            numberOfSignificantValueDigits: .three)
    }

    /// How many requests were recorded, answered or not.
    package var count: Int { Int(histogram.totalCount) }

    /// How many got a response.
    package var responses: Int { statuses.values.reduce(0, +) }

    /// How many got none.
    package var failures: Int { errors.values.reduce(0, +) }

    /// Records a response.
    ///
    /// - Parameters:
    ///   - microseconds: from the request's start (or, under a rate, the time it was due) to
    ///     the body's last byte.
    ///   - status: the status code.
    ///   - bytes: the body's size.
    package mutating func record(microseconds: UInt64, status: Int, bytes: Int = 0) {
        recordLatency(microseconds)
        statuses[status, default: 0] += 1
        self.bytes += bytes
    }

    /// Records a request that got no response.
    ///
    /// - Parameters:
    ///   - microseconds: how long it took to fail.
    ///   - kind: the kind of failure (see `LoadSample.kind(of:)`).
    ///   - sentence: what happened, kept for the first failure of each kind.
    package mutating func recordFailure(microseconds: UInt64, kind: String, sentence: String) {
        recordLatency(microseconds)
        errors[kind, default: 0] += 1
        if errorExamples[kind] == nil { errorExamples[kind] = sentence }
    }

    private mutating func recordLatency(_ microseconds: UInt64) {
        histogram.record(min(max(microseconds, 1), Self.highestMicroseconds))
    }

    /// Adds another recorder's counts to this one.
    package mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
        statuses.merge(other.statuses, uniquingKeysWith: +)
        errors.merge(other.errors, uniquingKeysWith: +)
        errorExamples.merge(other.errorExamples) { mine, _ in mine }
        bytes += other.bytes
    }

    // MARK: - Reading

    /// The latency at a percentile (0–100), in milliseconds; 0 when nothing was recorded.
    package func milliseconds(atPercentile percentile: Double) -> Double {
        guard histogram.totalCount > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    /// The shortest latency, in milliseconds.
    package var minimumMilliseconds: Double { histogram.totalCount > 0 ? Double(histogram.min) / 1000 : 0 }

    /// The longest latency, in milliseconds.
    package var maximumMilliseconds: Double { histogram.totalCount > 0 ? Double(histogram.max) / 1000 : 0 }

    /// The mean latency, in milliseconds.
    package var meanMilliseconds: Double { histogram.totalCount > 0 ? histogram.mean / 1000 : 0 }

    /// The percentiles a report lists.
    package static let reportedPercentiles: [(label: String, percentile: Double)] = [
        ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
    ]

    /// A text histogram in `buckets` equal ranges from the shortest latency to the longest, as
    /// hey prints it: each line the range's upper bound, its count and a bar.
    ///
    /// ```
    ///    1.204 ms [1]     |
    ///    2.801 ms [1612]  |■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■
    /// ```
    ///
    /// - Parameters:
    ///   - buckets: how many ranges (at least 1).
    ///   - width: the longest bar, in characters.
    /// - Returns: the lines, or none when nothing was recorded.
    package func histogramLines(buckets: Int = 10, width: Int = 40) -> [String] {
        let counts = bucketCounts(buckets: buckets)
        guard let most = counts.map(\.count).max(), most > 0 else { return [] }
        let countWidth = String(most).count + 2
        return counts.map { bucket in
            let bar = String(
                repeating: "■", count: Int((Double(bucket.count) / Double(most) * Double(width)).rounded()))
            let bound = String(format: "%10.3f ms", bucket.upperMilliseconds)
            let label = "[\(bucket.count)]".padding(toLength: countWidth, withPad: " ", startingAt: 0)
            return "\(bound) \(label)|\(bar)"
        }
    }

    /// The counts of `buckets` equal ranges from the shortest latency to the longest.
    ///
    /// - Returns: each range's upper bound in milliseconds and how many latencies fell in it.
    package func bucketCounts(buckets: Int = 10) -> [(upperMilliseconds: Double, count: Int)] {
        guard histogram.totalCount > 0 else { return [] }
        let buckets = max(1, buckets)
        let low = Double(histogram.min)
        let high = Double(histogram.max)
        let step = max((high - low) / Double(buckets), 1)
        var counts = Array(repeating: 0, count: buckets)
        for entry in histogram.recordedValues() {
            // The middle of the value's range stands for it (a recorded value's range spans 0.1%).
            let value = Double(histogram.medianEquivalentForValue(entry.value))
            let index = min(buckets - 1, max(0, Int((value - low) / step)))
            counts[index] += Int(entry.count)
        }
        return counts.enumerated().map { index, count in
            ((index == buckets - 1 ? high : low + step * Double(index + 1)) / 1000, count)
        }
    }
}
