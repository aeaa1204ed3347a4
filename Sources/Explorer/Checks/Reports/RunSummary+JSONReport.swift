import Foundation
import NetworkingCore

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

    /// The JSON report as UTF-8 text, members sorted (two runs diff well), one request a line.
    ///
    /// Written here rather than by `JSONSerialization`, which took 2.5 s for 10,000 requests
    /// (debug build) where this takes a tenth of it.
    package var jsonReportData: Data {
        var text = ""
        text.reserveCapacity(results.count * 600 + 1024)
        Self.write(jsonReport, to: &text, depth: 0)
        text += "\n"
        return Data(text.utf8)
    }

    /// Appends a value of the report's object as JSON: objects with their keys sorted, and a
    /// line break before each member of the two outer levels and each element of an array of
    /// objects.
    static func write(_ value: Any, to text: inout String, depth: Int) {
        switch value {
        case let string as String:
            text += JSONValue.quote(string)
        case let flag as Bool:
            text += flag ? "true" : "false"
        case let number as Int:
            text += String(number)
        case let number as Double:
            // Swift's shortest form (`30.0`, `0.125`, `1e-05`) is JSON.
            text += number.isFinite ? "\(number)" : "0"
        case let object as [String: Any]:
            let indent = depth < 2 ? "\n" + String(repeating: "  ", count: depth + 1) : ""
            text += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                text += (index == 0 ? "" : ",") + indent + JSONValue.quote(key) + ":"
                write(object[key] ?? NSNull(), to: &text, depth: depth + 1)
            }
            text += (depth < 2 && !object.isEmpty ? "\n" + String(repeating: "  ", count: depth) : "") + "}"
        case let array as [Any]:
            let breaks = array.first is [String: Any]
            text += "["
            for (index, element) in array.enumerated() {
                text += (index == 0 ? "" : ",") + (breaks ? "\n" : "")
                write(element, to: &text, depth: depth + 1)
            }
            text += (breaks ? "\n" : "") + "]"
        default:
            text += "null"
        }
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
        // By hand: Foundation's ISO 8601 style took most of a 10,000-request report's time.
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let milliseconds = min(999, max(0, Int(((interval - Double(seconds)) * 1000).rounded(.down))))
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-"
            + "\(padded(Int(parts.tm_mday), 2))T\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):"
            + "\(padded(Int(parts.tm_sec), 2)).\(padded(milliseconds, 3))Z"
    }
}
