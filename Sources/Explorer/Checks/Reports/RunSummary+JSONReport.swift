import Foundation

/// `explorer run --report json=PATH`: the run as the versioned JSON document that
/// `schema/run-report.schema.json` describes.
extension RunSummary {
    /// The report's format name, its first member.
    package static let jsonReportFormat = "explorer-run-report"
    /// The report's version: a change that removes or retypes a member takes a new one.
    package static let jsonReportVersion = 1

    /// The JSON report as UTF-8 text, members sorted (two runs diff well), one request a line.
    package var jsonReportData: Data { jsonReportData(latencies: latencyDistributions) }

    /// The JSON report as UTF-8 text, with the latencies worked out already (the HTML report
    /// draws the same ones).
    ///
    /// Written in one pass to bytes, members in sorted order, rather than built as a tree of
    /// boxed values and serialized: a tree and `JSONSerialization` took 2.5 s for 10,000
    /// requests (debug build).
    ///
    /// - Parameter latencies: `latencyDistributions`.
    package func jsonReportData(latencies: [LatencyDistribution]) -> Data {
        var out = JSONReportWriter(capacity: results.count * 640 + 1024)
        out.raw("{")
        out.key("format", first: true, indent: "\n  ")
        out.string(Self.jsonReportFormat)
        out.key("iterations", indent: "\n  ")
        writeJSONIterations(to: &out)
        out.key("latency", indent: "\n  ")
        out.raw("[")
        for (index, latency) in latencies.enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            Self.writeJSON(latency, to: &out)
        }
        out.raw(latencies.isEmpty ? "]" : "\n]")
        out.key("run", indent: "\n  ")
        writeJSONRun(to: &out)
        out.key("version", indent: "\n  ")
        out.int(Self.jsonReportVersion)
        out.raw("\n}\n")
        return Data(out.bytes)
    }

    /// `run`: the run's figures, a member a line.
    private func writeJSONRun(to out: inout JSONReportWriter) {
        var (passed, failed, errors) = (0, 0, 0)
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .transportFailure, .notSent: errors += 1
            }
        }
        out.raw("{")
        out.key("collection", first: true, indent: "\n    ")
        out.string(collection)
        out.key("collectionFile", indent: "\n    ")
        out.string(collectionFile)
        out.key("data", indent: "\n    ")
        out.string(dataFile)
        out.key("environment", indent: "\n    ")
        out.string(environment)
        out.key("errors", indent: "\n    ")
        out.int(errors)
        out.key("exitCode", indent: "\n    ")
        out.int(Int(exitCode))
        out.key("failed", indent: "\n    ")
        out.int(failed)
        out.key("interrupted", indent: "\n    ")
        out.bool(interrupted)
        out.key("notRun", indent: "\n    ")
        out.int(notRun ?? 0)
        out.key("passed", indent: "\n    ")
        out.int(passed)
        out.key("requests", indent: "\n    ")
        out.int(results.count)
        out.key("seconds", indent: "\n    ")
        out.rounded(seconds, places: 3)
        out.key("startedAt", indent: "\n    ")
        out.string(Self.timestamp(startedAt))
        out.key("stopped", indent: "\n    ")
        out.bool(notRun != nil)
        out.raw("\n  }")
    }

    /// `iterations`: each iteration (those listed, then any a result names that is not) with
    /// its requests, one a line, in the run's order.
    private func writeJSONIterations(to out: inout JSONReportWriter) {
        var byIteration: [Int: [Int]] = [:]
        for index in results.indices { byIteration[results[index].iteration, default: []].append(index) }
        let listed = Set(iterations.map(\.number))
        let unlisted = byIteration.keys.filter { !listed.contains($0) }.sorted().map { RunIteration(number: $0) }
        out.raw("[")
        for (index, iteration) in (iterations + unlisted).enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            out.raw("{")
            out.key("iteration", first: true)
            out.int(iteration.number)
            out.key("line")
            out.int(iteration.row?.line)
            out.key("requests")
            let requests = byIteration[iteration.number] ?? []
            out.raw("[")
            for (position, resultIndex) in requests.enumerated() {
                out.raw(position == 0 ? "\n" : ",\n")
                Self.writeJSON(results[resultIndex], to: &out)
            }
            out.raw(requests.isEmpty ? "]" : "\n]")
            out.key("row")
            out.int(iteration.row?.number)
            out.raw("}")
        }
        out.raw(iterations.isEmpty && unlisted.isEmpty ? "]" : "\n]")
    }

    /// One request, on one line.
    private static func writeJSON(_ result: RunResult, to out: inout JSONReportWriter) {
        let exchange = result.exchange
        out.raw("{")
        out.key("assertions", first: true)
        out.raw("[")
        for (index, check) in result.report.assertions.enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            out.raw("{")
            out.key("actual", first: true)
            out.string(check.actual)
            out.key("assert")
            out.string(check.text)
            out.key("expected")
            out.string(check.expected)
            out.key("passed")
            out.bool(check.passed)
            out.key("reason")
            out.string(check.reason)
            out.raw("}")
        }
        out.raw(result.report.assertions.isEmpty ? "]" : "\n]")
        out.key("attempts")
        out.int(result.attempts)
        out.key("captureFailures")
        out.strings(result.report.captureFailures)
        out.key("captured")
        out.strings(result.report.captured.map(\.name))
        out.key("endpoint")
        out.string(result.endpoint)
        out.key("error")
        out.string(result.error)
        out.key("folders")
        out.strings(result.folderPath)
        out.key("grpcStatus")
        out.string(result.grpcStatus)
        out.key("line")
        out.int(result.line)
        out.key("method")
        out.string(exchange?.method)
        out.key("name")
        out.string(result.name)
        out.key("outcome")
        out.string(result.outcome.rawValue)
        out.key("reason")
        out.string(exchange?.reason)
        out.key("requiredBecause")
        out.string(result.requiredBecause)
        out.key("schemaPassed")
        if let schema = result.report.schema { out.bool(schema.passed) } else { out.raw("null") }
        out.key("sizes")
        out.raw("{")
        out.key("requestBody", first: true)
        out.int(exchange?.requestBodySize)
        out.key("responseBody")
        out.int(exchange?.responseBodySize)
        out.raw("}")
        out.key("startedAt")
        out.string(exchange.map { timestamp($0.startedAt) })
        out.key("status")
        out.int(result.status)
        out.key("timings")
        out.raw("{")
        out.key("headMs", first: true)
        out.rounded(exchange?.headMilliseconds, places: 3)
        out.key("totalMs")
        out.rounded(result.milliseconds, places: 3)
        out.raw("}")
        out.key("traceId")
        out.string(exchange?.traceID)
        out.key("url")
        out.string(exchange?.url)
        out.raw("}")
    }

    /// One endpoint's latency, on one line; the named percentiles' keys (`p50` …) in the
    /// order their names sort.
    private static func writeJSON(_ latency: LatencyDistribution, to out: inout JSONReportWriter) {
        let percentiles = latency.named.map { ("p\(Int($0.percentile))", $0.milliseconds) }.sorted { $0.0 < $1.0 }
        out.raw("{")
        out.key("count", first: true)
        out.int(latency.count)
        out.key("endpoint")
        out.string(latency.name)
        out.key("max")
        out.rounded(latency.maximum, places: 3)
        out.key("mean")
        out.rounded(latency.mean, places: 3)
        out.key("min")
        out.rounded(latency.minimum, places: 3)
        for (name, milliseconds) in percentiles {
            out.raw(",")
            out.string(name)
            out.raw(":")
            out.rounded(milliseconds, places: 3)
        }
        out.key("stddev")
        out.rounded(latency.standardDeviation, places: 3)
        out.raw("}")
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
