import Checks
import Foundation
import Measure

/// `explorer run --repeat N`: each endpoint's latency over the repetitions, from an
/// HdrHistogram (the `Measure` module's recorder), as `explorer load` reports it.
extension RunCommand {
    /// Each endpoint's recorder, in the order the endpoints first ran; only those sent more
    /// than once (a run without `--repeat` reports nothing).
    static func latencies(of results: [RunResult]) -> [(endpoint: String, recorder: LatencyRecorder)] {
        var order: [String] = []
        var recorders: [String: LatencyRecorder] = [:]
        for result in results where result.requiredBecause == nil {
            if recorders[result.endpoint] == nil {
                order.append(result.endpoint)
                recorders[result.endpoint] = LatencyRecorder()
            }
            let microseconds = UInt64(max(0, result.milliseconds * 1000).rounded())
            if let status = result.status {
                recorders[result.endpoint]?.record(microseconds: microseconds, status: status)
            } else {
                recorders[result.endpoint]?.recordFailure(
                    microseconds: microseconds, kind: result.outcome.rawValue, sentence: result.error ?? "")
            }
        }
        return order.compactMap { name in recorders[name].flatMap { $0.count > 1 ? (name, $0) : nil } }
    }

    /// The table of latencies: one row per endpoint, milliseconds.
    static func latencyLines(_ latencies: [(endpoint: String, recorder: LatencyRecorder)]) -> [String] {
        guard let most = latencies.map(\.recorder.count).max(), let least = latencies.map(\.recorder.count).min() else {
            return []
        }
        let runs = least == most ? "\(most)" : "\(least)–\(most)"
        let columns = ["min", "p50", "p90", "p99", "max"]
        let width = max(8, latencies.map(\.endpoint.count).max() ?? 0)
        func cell(_ text: String) -> String { String(repeating: " ", count: max(0, 8 - text.count)) + text }
        var lines = [
            "", "Latency over \(runs) runs (ms)",
            "  " + "ENDPOINT".padding(toLength: width, withPad: " ", startingAt: 0) + columns.map(cell).joined(),
        ]
        for (endpoint, recorder) in latencies {
            let values = [
                recorder.minimumMilliseconds, recorder.milliseconds(atPercentile: 50),
                recorder.milliseconds(atPercentile: 90),
                recorder.milliseconds(atPercentile: 99), recorder.maximumMilliseconds,
            ]
            lines.append(
                "  " + endpoint.padding(toLength: width, withPad: " ", startingAt: 0)
                    + values.map { cell(String(format: "%.1f", $0)) }.joined())
        }
        return lines
    }

    /// The latencies as JSON: by endpoint, the count and min, p50, p90, p99, max and mean in ms.
    static func latencyObject(_ latencies: [(endpoint: String, recorder: LatencyRecorder)]) -> [String: Any] {
        var object: [String: Any] = [:]
        for (endpoint, recorder) in latencies {
            func ms(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
            object[endpoint] =
                [
                    "count": recorder.count, "min": ms(recorder.minimumMilliseconds),
                    "p50": ms(recorder.milliseconds(atPercentile: 50)),
                    "p90": ms(recorder.milliseconds(atPercentile: 90)),
                    "p99": ms(recorder.milliseconds(atPercentile: 99)),
                    "max": ms(recorder.maximumMilliseconds), "mean": ms(recorder.meanMilliseconds),
                ] as [String: Any]
        }
        return object
    }
}
