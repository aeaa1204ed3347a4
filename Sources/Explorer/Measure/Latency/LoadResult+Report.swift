import Foundation
import NetworkingCore

extension LoadResult {
    /// The report as hey and oha print it: the totals, the latency distribution, a text
    /// histogram, the statuses and the failures by kind.
    ///
    /// - Returns: lines without newlines; the failures' sentences are untrusted text, to
    ///   escape before printing.
    package func reportLines() -> [String] {
        var lines: [String] = []
        let seconds = elapsed / .seconds(1)
        lines.append("Summary:")
        lines.append(
            "  Requests:     \(latencies.count) in \(String(format: "%.2f", seconds)) s, \(plan.concurrency) at once"
                + (plan.keepsConnections ? "" : ", a new connection for each"))
        lines.append(
            "  Requests/s:   \(String(format: "%.1f", requestsPerSecond))"
                + (plan.rate.map { String(format: " (rate asked: %.1f)", $0) } ?? ""))
        lines.append(
            "  Responses:    \(latencies.responses)" + (latencies.failures > 0 ? ", \(latencies.failures) failed" : ""))
        lines.append("  Received:     \(Self.byteText(latencies.bytes))")
        lines.append("")
        if plan.rate != nil {
            lines.append(
                "Latency (from when each request was due to its last body byte; coordinated omission accounted for):")
        } else {
            lines.append("Latency (from each request's start to its last body byte):")
        }
        lines += Self.distributionLines(latencies)
        if let serviceTimes {
            lines.append("")
            lines.append("Service time (from each request's actual start, waiting not counted):")
            lines += Self.distributionLines(serviceTimes)
        }
        let histogram = latencies.histogramLines()
        if !histogram.isEmpty {
            lines.append("")
            lines.append("Histogram:")
            lines += histogram.map { "  " + $0 }
        }
        if !latencies.statuses.isEmpty {
            lines.append("")
            lines.append("Status codes:")
            for (status, count) in latencies.statuses.sorted(by: { $0.key < $1.key }) {
                lines.append("  [\(statusName(status))] \(count) response\(count == 1 ? "" : "s")")
            }
        }
        if !latencies.errors.isEmpty {
            lines.append("")
            lines.append("Errors:")
            for (kind, count) in latencies.errors.sorted(by: {
                $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key)
            }) {
                let example = latencies.errorExamples[kind].map { ": \($0)" } ?? ""
                lines.append("  [\(kind)] \(count)\(example)")
            }
        }
        return lines
    }

    /// min, the percentiles, max and mean, one a line.
    static func distributionLines(_ recorder: LatencyRecorder) -> [String] {
        var rows: [(String, Double)] = [("min", recorder.minimumMilliseconds)]
        rows += LatencyRecorder.reportedPercentiles.map {
            ($0.label, recorder.milliseconds(atPercentile: $0.percentile))
        }
        rows += [("max", recorder.maximumMilliseconds), ("mean", recorder.meanMilliseconds)]
        return rows.map { label, value in
            "  " + label.padding(toLength: 7, withPad: " ", startingAt: 0) + String(format: "%10.3f ms", value)
        }
    }

    /// The result as one JSON object (`explorer load --json`), latencies in milliseconds.
    package var jsonObject: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("requests", JSONValue(latencies.count)),
            ("concurrency", JSONValue(plan.concurrency)),
            ("seconds", Self.rounded(elapsed / .seconds(1))),
            ("requestsPerSecond", Self.rounded(requestsPerSecond)),
            ("rate", plan.rate.map { JSONValue($0) } ?? .null),
            ("keepAlive", .bool(plan.keepsConnections)),
            ("responses", JSONValue(latencies.responses)),
            ("failures", JSONValue(latencies.failures)),
            ("bytes", JSONValue(latencies.bytes)),
            ("latency", Self.distributionObject(latencies)),
        ]
        if let serviceTimes { members.append(("serviceTime", Self.distributionObject(serviceTimes))) }
        members.append(
            (
                "histogram",
                .array(
                    latencies.bucketCounts().map { bucket in
                        .object([
                            ("upToMilliseconds", Self.rounded(bucket.upperMilliseconds)),
                            ("count", JSONValue(bucket.count)),
                        ])
                    })
            ))
        members.append(
            (
                "statuses",
                .object(
                    latencies.statuses.sorted(by: { $0.key < $1.key }).map { (statusName($0.key), JSONValue($0.value)) }
                )
            ))
        members.append(
            (
                "errors",
                .object(
                    latencies.errors.sorted(by: { $0.key < $1.key }).map { kind, count in
                        (
                            kind,
                            .object([
                                ("count", JSONValue(count)),
                                ("example", latencies.errorExamples[kind].map { .string($0) } ?? .null),
                            ])
                        )
                    })
            ))
        return .object(members)
    }

    /// The distribution as `{min, p50, p90, p99, p99.9, max, mean}` in milliseconds.
    static func distributionObject(_ recorder: LatencyRecorder) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("min", rounded(recorder.minimumMilliseconds))]
        members += LatencyRecorder.reportedPercentiles.map {
            ($0.label, rounded(recorder.milliseconds(atPercentile: $0.percentile)))
        }
        members += [("max", rounded(recorder.maximumMilliseconds)), ("mean", rounded(recorder.meanMilliseconds))]
        return .object(members)
    }

    /// A number to the microsecond (three decimals).
    static func rounded(_ value: Double) -> JSONValue {
        JSONValue((value * 1000).rounded() / 1000)
    }

    /// `512 B`, `3.4 KB`, `12.0 MB`.
    static func byteText(_ bytes: Int) -> String {
        let value = Double(bytes)
        if value >= 1_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        if value >= 1_000 { return String(format: "%.1f KB", value / 1_000) }
        return "\(bytes) B"
    }
}
