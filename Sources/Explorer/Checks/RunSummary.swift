import Foundation

/// One endpoint's line in the report of a run.
package struct RunResult: Sendable, Hashable {
    /// The endpoint's address.
    package var endpoint: String
    /// Its folders, outermost first.
    package var folderPath: [String]
    /// Its name.
    package var name: String
    /// The repetition it belongs to, from 1 (`--repeat`).
    package var iteration: Int
    /// How it ended.
    package var outcome: StepOutcome
    /// The status code, when a response came.
    package var status: Int?
    /// A gRPC call's status name (`OK`, `NOT_FOUND`), when the step was one.
    package var grpcStatus: String?
    /// What its checks found.
    package var report: CheckReport
    /// Why nothing came or nothing was sent.
    package var error: String?
    /// The time of its last exchange, in milliseconds.
    package var milliseconds: Double
    /// How many times it was sent.
    package var attempts: Int
    /// Why it was sent before another (`requires:`), or `nil`.
    package var requiredBecause: String?
    /// The request and response as the reports show them (masked), when it was sent.
    package var exchange: ReportedExchange?
    /// The line of the collection file the endpoint is written on, when known.
    package var line: Int?

    /// Creates a result.
    package init<Record>(step: SequenceStep<Record>, iteration: Int, status: Int?, milliseconds: Double) {
        endpoint = step.endpoint.id
        folderPath = step.endpoint.folderPath
        name = step.endpoint.name
        self.iteration = iteration
        outcome = step.outcome
        self.status = status
        grpcStatus = step.exchange?.response?.grpcStatus
        report = step.report
        error = step.resolveError ?? step.exchange?.failure
        self.milliseconds = milliseconds
        attempts = step.attempts
        requiredBecause = step.prerequisiteReason
        line = step.endpoint.sourceLine
    }

    /// The status column: a gRPC call's status name, else the HTTP status code, else `---`.
    package var statusText: String {
        grpcStatus ?? status.map(String.init) ?? "---"
    }

    /// `✓`, `✗` (an assertion failed), `!` (no response or not sent).
    package var mark: String {
        switch outcome {
        case .passed: "✓"
        case .failed: "✗"
        case .transportFailure, .notSent: "!"
        }
    }

    /// The checks column: `3/4`, or `-` without assertions (the schema check counts as one).
    package var checksText: String {
        report.checkCount == 0 ? "-" : "\(report.passedCount)/\(report.checkCount)"
    }

    /// Why it did not pass, one line per problem.
    package var problems: [String] {
        (error.map { $0.components(separatedBy: "\n") } ?? []) + report.failureLines
    }
}

/// One pass over the selection: a repetition (`--iterations`), or a data file's row.
package struct RunIteration: Sendable, Hashable {
    /// Its number, from 1.
    package var number: Int
    /// The data file's row it ran with, or `nil` without `--data`.
    package var row: DataRow?

    /// Creates an iteration.
    package init(number: Int, row: DataRow? = nil) {
        self.number = number
        self.row = row
    }
}

/// What a run did, as a table, JUnit XML or JSON; and its exit code.
package struct RunSummary: Sendable {
    /// The collection's name.
    package var collection: String
    /// The environment's name.
    package var environment: String
    /// One result per endpoint sent, in the order they were sent.
    package var results: [RunResult]
    /// The wall-clock time of the whole run, in seconds.
    package var seconds: Double
    /// When the run started.
    package var startedAt: Date
    /// The iterations that ran (a run without `--iterations` or `--data` has one).
    package var iterations: [RunIteration]
    /// The data file the iterations' rows came from (`--data`), as named.
    package var dataFile: String?
    /// How many endpoints were not run because the run stopped at its first failure
    /// (`--bail`), or `nil` when it did not stop.
    package var notRun: Int?
    /// The collection file, as the reports name it (GitHub's annotations point into it).
    package var collectionFile: String?
    /// Whether the run was interrupted (Ctrl-C): the results are those that ran before.
    package var interrupted = false

    /// Creates a summary.
    package init(
        collection: String, environment: String, results: [RunResult], seconds: Double, startedAt: Date,
        iterations: [RunIteration]? = nil, dataFile: String? = nil, notRun: Int? = nil
    ) {
        self.collection = collection
        self.environment = environment
        self.results = results
        self.seconds = seconds
        self.startedAt = startedAt
        self.iterations =
            iterations ?? (1...max(1, results.map(\.iteration).max() ?? 1)).map { RunIteration(number: $0) }
        self.dataFile = dataFile
        self.notRun = notRun
    }

    /// The line said when the run stopped at its first failure, or `nil`.
    package var stoppedLine: String? {
        notRun.map { count in
            "Stopped at the first failure (--bail): \(count) request\(count == 1 ? "" : "s") not run."
        }
    }

    /// How many passed, failed an assertion, or had no response / were not sent.
    package var counts: (passed: Int, failed: Int, errors: Int) {
        (
            results.filter { $0.outcome == .passed }.count, results.filter { $0.outcome == .failed }.count,
            results.filter { $0.outcome == .transportFailure || $0.outcome == .notSent }.count
        )
    }

    /// 2 when a request could not be built, 1 when a response did not come, 3 when an
    /// assertion failed, else 0.
    package var exitCode: Int32 {
        if results.contains(where: { $0.outcome == .notSent }) { return 2 }
        if results.contains(where: { $0.outcome == .transportFailure }) { return 1 }
        if results.contains(where: { $0.outcome == .failed }) { return 3 }
        return 0
    }

    /// The closing line: `12 endpoints in 1.23 s: 11 passed, 1 failed, 0 errors`.
    package var totalsLine: String {
        let (passed, failed, errors) = counts
        return
            "\(results.count) request\(results.count == 1 ? "" : "s") in \(String(format: "%.2f", seconds)) s: "
            + "\(passed) passed, \(failed) failed, \(errors) error\(errors == 1 ? "" : "s")"
    }

    /// The summary table, with what failed under each line.
    package var table: String {
        let repeated = iterations.count > 1 || results.contains { $0.iteration > 1 }
        let rows = results.map { result in
            [
                result.mark,
                (repeated ? "#\(result.iteration) " : "") + result.endpoint
                    + (result.requiredBecause == nil ? "" : " (required)"),
                result.statusText, result.checksText,
                String(format: "%.0f ms", result.milliseconds),
                result.attempts > 1 ? "×\(result.attempts)" : "",
            ]
        }
        let header = ["", "ENDPOINT", "STATUS", "CHECKS", "TIME", ""]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index == 4 ? padding + cell : cell + padding
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var lines = [line(header)]
        for (result, row) in zip(results, rows) {
            lines.append(line(row))
            lines += result.problems.map { "    " + $0 }
        }
        lines.append(totalsLine)
        if let stoppedLine { lines.append(stoppedLine) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - JUnit

    /// The run as JUnit XML (the Ant schema CI servers read): one `testsuite` per folder
    /// (the top level is the collection), one `testcase` per request, a `failure` for a
    /// failed assertion, an `error` for no response.
    package var junitXML: String {
        var suites: [(name: String, results: [RunResult])] = []
        for result in results {
            let name = ([collection] + result.folderPath).joined(separator: "/")
            if let index = suites.firstIndex(where: { $0.name == name }) {
                suites[index].results.append(result)
            } else {
                suites.append((name, [result]))
            }
        }
        let (_, failed, errors) = counts
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"\(escape(collection))\" tests=\"\(results.count)\" failures=\"\(failed)\" "
            + "errors=\"\(errors)\" time=\"\(seconds3(seconds))\">\n"
        let timestamp = ISO8601DateFormatter().string(from: startedAt)
        let rowsByIteration = Dictionary(
            iterations.compactMap { iteration in iteration.row.map { (iteration.number, $0) } }
        ) { first, _ in first }
        for suite in suites {
            let suiteFailures = suite.results.filter { $0.outcome == .failed }.count
            let suiteErrors = suite.results.filter { $0.outcome == .transportFailure || $0.outcome == .notSent }.count
            let time = suite.results.reduce(0) { $0 + $1.milliseconds } / 1000
            xml +=
                "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.results.count)\" "
                + "failures=\"\(suiteFailures)\" errors=\"\(suiteErrors)\" "
                + "time=\"\(seconds3(time))\" timestamp=\"\(timestamp)\">\n"
            let data = dataFile.map { "<property name=\"data\" value=\"\(escape($0))\"/>" } ?? ""
            xml +=
                "    <properties><property name=\"environment\" value=\"\(escape(environment))\"/>\(data)"
                + "</properties>\n"
            for result in suite.results {
                let row = rowsByIteration[result.iteration].map { " (\($0.place))" } ?? ""
                let name = result.name + (result.iteration > 1 || !row.isEmpty ? " #\(result.iteration)" : "") + row
                xml +=
                    "    <testcase name=\"\(escape(name))\" classname=\"\(escape(suite.name))\" "
                    + "time=\"\(seconds3(result.milliseconds / 1000))\""
                switch result.outcome {
                case .passed:
                    xml += "/>\n"
                case .failed:
                    let message = result.report.failureLines.first ?? "failed"
                    xml +=
                        ">\n      <failure message=\"\(escape(message))\" type=\"assertion\">"
                        + "\(escape(result.problems.joined(separator: "\n")))</failure>\n    </testcase>\n"
                case .transportFailure, .notSent:
                    let type = result.outcome == .notSent ? "not-sent" : "transport"
                    xml +=
                        ">\n      <error message=\"\(escape(result.error ?? "no response"))\" "
                        + "type=\"\(type)\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private func seconds3(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Text made safe for XML attributes and text: the five entities, and control
    /// characters (which XML 1.0 cannot hold) as `\u{…}`.
    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - JSON

    /// The run as one JSON-compatible object: totals, exit code, and each request with its
    /// checks (assertion, passed, actual, reason), captured names and error.
    package var jsonObject: [String: Any] {
        let (passed, failed, errors) = counts
        return [
            "collection": collection, "environment": environment, "seconds": (seconds * 1000).rounded() / 1000,
            "passed": passed, "failed": failed, "errors": errors, "exitCode": Int(exitCode),
            "data": dataFile ?? NSNull(), "stopped": notRun != nil, "notRun": notRun ?? 0,
            "iterations": iterations.map { iteration -> [String: Any] in
                [
                    "iteration": iteration.number, "row": iteration.row?.number ?? NSNull(),
                    "line": iteration.row?.line ?? NSNull(),
                ]
            },
            "results": results.map { result -> [String: Any] in
                [
                    "endpoint": result.endpoint, "iteration": result.iteration, "outcome": result.outcome.rawValue,
                    "status": result.status ?? NSNull(), "grpcStatus": result.grpcStatus ?? NSNull(),
                    "ms": (result.milliseconds * 10).rounded() / 10,
                    "attempts": result.attempts,
                    "error": result.error ?? NSNull(), "requiredBecause": result.requiredBecause ?? NSNull(),
                    "captured": result.report.captured.map(\.name), "captureFailures": result.report.captureFailures,
                    "checks": result.report.assertions.map { check -> [String: Any] in
                        [
                            "assert": check.text, "passed": check.passed, "actual": check.actual ?? NSNull(),
                            "reason": check.reason ?? NSNull(),
                        ]
                    },
                    "schema": result.report.schema?.jsonObject ?? NSNull(),
                ]
            },
        ]
    }
}
