import Foundation

/// How one endpoint's latencies are spread: the figures a report lists (min, max, mean,
/// standard deviation, p50/p90/p95/p99), the points of its percentile curve and the counts of
/// its histogram.
///
/// A run makes it from the exact samples (`init(name:samples:)`); a load run, whose
/// latencies are in an HdrHistogram, gives the figures it reads from it.
package struct LatencyDistribution: Sendable, Hashable {
    /// A point of the percentile curve: the latency under which `percentile` % of requests fell.
    package struct Point: Sendable, Hashable {
        /// The percentile, from 0 to 100.
        package var percentile: Double
        /// The latency at it, in milliseconds.
        package var milliseconds: Double

        /// Creates a point.
        package init(percentile: Double, milliseconds: Double) {
            self.percentile = percentile
            self.milliseconds = milliseconds
        }
    }

    /// A range of the histogram and how many latencies fell in it.
    package struct Bucket: Sendable, Hashable {
        /// The range's lower bound, in milliseconds.
        package var lower: Double
        /// The range's upper bound, in milliseconds.
        package var upper: Double
        /// How many latencies fell in it.
        package var count: Int

        /// Creates a bucket.
        package init(lower: Double, upper: Double, count: Int) {
            self.lower = lower
            self.upper = upper
            self.count = count
        }
    }

    /// The percentiles a report names.
    package static let namedPercentiles: [Double] = [50, 90, 95, 99]
    /// The percentiles the curve is drawn through.
    package static let curvePercentiles: [Double] =
        [0, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 97, 98, 99, 99.5, 99.9, 100]
    /// How many ranges a histogram has.
    package static let bucketCount = 20

    /// The endpoint (or the load's request), as the report names it.
    package var name: String
    /// How many latencies there are.
    package var count: Int
    /// The shortest, in milliseconds.
    package var minimum: Double
    /// The longest, in milliseconds.
    package var maximum: Double
    /// The mean, in milliseconds.
    package var mean: Double
    /// The standard deviation (of the population), in milliseconds.
    package var standardDeviation: Double
    /// The named percentiles (`namedPercentiles`), in milliseconds, in order.
    package var named: [Point]
    /// The percentile curve, from 0 to 100.
    package var curve: [Point]
    /// The histogram, from the shortest latency to the longest.
    package var buckets: [Bucket]

    /// Creates a distribution from figures read elsewhere (a load run's histogram).
    package init(
        name: String, count: Int, minimum: Double, maximum: Double, mean: Double, standardDeviation: Double,
        named: [Point], curve: [Point], buckets: [Bucket]
    ) {
        self.name = name
        self.count = count
        self.minimum = minimum
        self.maximum = maximum
        self.mean = mean
        self.standardDeviation = standardDeviation
        self.named = named
        self.curve = curve
        self.buckets = buckets
    }

    /// Creates a distribution from every latency, in milliseconds (at least one).
    package init(name: String, samples: [Double]) {
        let sorted = samples.sorted()
        self.name = name
        count = sorted.count
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
        let mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        self.mean = mean
        standardDeviation =
            sorted.isEmpty
            ? 0 : (sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(sorted.count)).squareRoot()
        func at(_ percentile: Double) -> Point {
            Point(percentile: percentile, milliseconds: Self.nearestRank(percentile, in: sorted))
        }
        named = Self.namedPercentiles.map(at)
        curve = Self.curvePercentiles.map(at)
        buckets = Self.buckets(of: sorted)
    }

    /// The latency at a percentile by the nearest-rank method: the smallest sample with at
    /// least `percentile` % of the samples at or below it.
    static func nearestRank(_ percentile: Double, in sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// `bucketCount` equal ranges from the first sample to the last (one range when all are equal).
    static func buckets(of sorted: [Double]) -> [Bucket] {
        guard let low = sorted.first, let high = sorted.last else { return [] }
        guard high > low else { return [Bucket(lower: low, upper: high, count: sorted.count)] }
        let step = (high - low) / Double(bucketCount)
        var counts = Array(repeating: 0, count: bucketCount)
        for value in sorted { counts[min(bucketCount - 1, Int((value - low) / step))] += 1 }
        return counts.enumerated().map { index, count in
            Bucket(
                lower: low + step * Double(index),
                upper: index == bucketCount - 1 ? high : low + step * Double(index + 1),
                count: count)
        }
    }

    /// A named percentile's latency (`50`, `90`, `95`, `99`), or `nil` when it is not one.
    package func milliseconds(atPercentile percentile: Double) -> Double? {
        named.first { $0.percentile == percentile }?.milliseconds
    }
}

extension RunSummary {
    /// Each endpoint's latencies over the iterations, in the order the endpoints first ran:
    /// those sent more than once only (a run of one pass has none). A request sent because
    /// another required it is not counted.
    package var latencyDistributions: [LatencyDistribution] {
        var order: [String] = []
        var samples: [String: [Double]] = [:]
        for result in results where result.requiredBecause == nil && result.outcome != .notSent {
            if samples[result.endpoint] == nil { order.append(result.endpoint) }
            samples[result.endpoint, default: []].append(result.milliseconds)
        }
        return order.compactMap { name in
            guard let values = samples[name], values.count > 1 else { return nil }
            return LatencyDistribution(name: name, samples: values)
        }
    }
}
