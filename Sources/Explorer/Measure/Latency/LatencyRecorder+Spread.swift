import Foundation

/// The spread of a recorder's latencies, which the HTML report of `explorer load` draws.
extension LatencyRecorder {
    /// The standard deviation of the latencies, in milliseconds (0 when nothing was recorded).
    package var standardDeviationMilliseconds: Double {
        histogram.totalCount > 0 ? histogram.stdDeviation / 1000 : 0
    }
}
