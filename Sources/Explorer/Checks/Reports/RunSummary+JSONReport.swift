import Foundation

/// `explorer run --report json=PATH`: the run as the versioned JSON document that
/// `schema/run-report.schema.json` describes.
extension RunSummary {
    /// The report's format name, its first member.
    package static let jsonReportFormat = "explorer-run-report"
    /// The report's version: a change that removes or retypes a member takes a new one.
    package static let jsonReportVersion = 1

    /// The JSON report as an object: the run, its iterations with each request, and the
    /// latency of each endpoint sent more than once.
    package var jsonReport: [String: Any] {
        let (passed, failed, errors) = counts
        let byIteration = Dictionary(grouping: results, by: \.iteration)
        let listed = Set(iterations.map(\.number))
        let unlisted = byIteration.keys.filter { !listed.contains($0) }.sorted().map { RunIteration(number: $0) }
        return [
            "format": Self.jsonReportFormat,
            "version": Self.jsonReportVersion,
            "run": [
                "collection": collection, "collectionFile": collectionFile ?? NSNull(), "environment": environment,
                "startedAt": Self.timestamp(startedAt), "seconds": Self.rounded(seconds, places: 3),
                "requests": results.count, "passed": passed, "failed": failed, "errors": errors,
                "exitCode": Int(exitCode), "stopped": notRun != nil, "notRun": notRun ?? 0,
                "interrupted": interrupted, "data": dataFile ?? NSNull(),
            ] as [String: Any],
            "iterations": (iterations + unlisted).map { iteration -> [String: Any] in
                [
                    "iteration": iteration.number, "row": iteration.row?.number ?? NSNull(),
                    "line": iteration.row?.line ?? NSNull(),
                    "requests": (byIteration[iteration.number] ?? []).map(Self.jsonRequest),
                ]
            },
            "latency": latencyDistributions.map(Self.jsonLatency),
        ]
    }

    /// The JSON report as UTF-8 text (members sorted, so two runs diff well).
    package var jsonReportData: Data {
        (try? JSONSerialization.data(
            withJSONObject: jsonReport, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    private static func jsonRequest(_ result: RunResult) -> [String: Any] {
        let exchange = result.exchange
        return [
            "endpoint": result.endpoint, "name": result.name, "folders": result.folderPath,
            "line": result.line ?? NSNull(), "outcome": result.outcome.rawValue,
            "method": exchange?.method ?? NSNull(), "url": exchange?.url ?? NSNull(),
            "startedAt": exchange.map { timestamp($0.startedAt) } ?? NSNull(),
            "status": result.status ?? NSNull(), "reason": exchange?.reason ?? NSNull(),
            "grpcStatus": result.grpcStatus ?? NSNull(), "attempts": result.attempts,
            "requiredBecause": result.requiredBecause ?? NSNull(), "error": result.error ?? NSNull(),
            "traceId": exchange?.traceID ?? NSNull(),
            "timings": [
                "totalMs": rounded(result.milliseconds, places: 3),
                "headMs": exchange?.headMilliseconds.map { rounded($0, places: 3) } ?? NSNull(),
            ] as [String: Any],
            "sizes": [
                "requestBody": exchange?.requestBodySize ?? NSNull(),
                "responseBody": exchange?.responseBodySize ?? NSNull(),
            ] as [String: Any],
            "assertions": result.report.assertions.map { check -> [String: Any] in
                [
                    "assert": check.text, "passed": check.passed, "expected": check.expected ?? NSNull(),
                    "actual": check.actual ?? NSNull(), "reason": check.reason ?? NSNull(),
                ]
            },
            "schemaPassed": result.report.schema.map { $0.passed as Any } ?? NSNull(),
            "captured": result.report.captured.map(\.name),
            "captureFailures": result.report.captureFailures,
        ]
    }

    private static func jsonLatency(_ latency: LatencyDistribution) -> [String: Any] {
        var object: [String: Any] = [
            "endpoint": latency.name, "count": latency.count, "min": rounded(latency.minimum, places: 3),
            "max": rounded(latency.maximum, places: 3), "mean": rounded(latency.mean, places: 3),
            "stddev": rounded(latency.standardDeviation, places: 3),
        ]
        for point in latency.named { object["p\(Int(point.percentile))"] = rounded(point.milliseconds, places: 3) }
        return object
    }

    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
