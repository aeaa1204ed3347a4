import Foundation

/// `explorer run --report html=PATH`: the run as one page a person opens when a job fails.
///
/// In order: the summary (passed, failed, errors, requests, time), the requests that did not
/// pass with their request and response, the time of each request as a chart, the table of
/// every request, and the latency of each endpoint sent more than once.
extension RunSummary {
    /// The most failures shown with their request and response; the table lists the others.
    package static let htmlDetailedFailures = 200

    /// The most rows the request table shows open; past them, the rest are folded into
    /// `<details>` (in the page, found by the browser's search, opened by a click): a browser
    /// lays out a table of 10,000 open rows in seconds.
    package static let htmlOpenRows = 1_000

    /// The HTML report.
    package var htmlReport: String { htmlReport(latencies: latencyDistributions) }

    /// The HTML report, with the latencies worked out already (the JSON report lists the same).
    ///
    /// - Parameter latencies: `latencyDistributions`.
    package func htmlReport(latencies: [LatencyDistribution]) -> String {
        let (passed, failed, errors) = counts
        var body = "<header>\n<h1>\(HTMLReport.escape(collection))</h1>\n<p class=\"meta\">"
        var meta = [
            "environment \(environment)", "started \(Self.timestamp(startedAt))",
        ]
        if let dataFile { meta.append("data \(dataFile)") }
        if iterations.count > 1 { meta.append("\(iterations.count) iterations") }
        body += meta.map(HTMLReport.escape).joined(separator: " · ") + "</p>\n</header>\n"
        if interrupted {
            body += "<p class=\"note\" id=\"interrupted\">Interrupted: these are the requests that ran before.</p>\n"
        }
        if let stoppedLine { body += "<p class=\"note\" id=\"stopped\">\(HTMLReport.escape(stoppedLine))</p>\n" }
        body += HTMLReport.summary([
            ("passed", "Passed", "\(passed)", "pass"), ("failed", "Failed", "\(failed)", "fail"),
            ("errors", "Errors", "\(errors)", "error"), ("requests", "Requests", "\(results.count)", nil),
            ("time", "Time", String(format: "%.2f s", seconds), nil),
        ])
        let failures = results.indices.filter { results[$0].outcome != .passed }
        if !failures.isEmpty {
            body += "<section id=\"failures\">\n<h2>Not passed (\(failures.count))</h2>\n"
            for index in failures.prefix(Self.htmlDetailedFailures) { body += failureArticle(index) }
            if failures.count > Self.htmlDetailedFailures {
                body +=
                    "<p class=\"note\">\(failures.count - Self.htmlDetailedFailures) more did not pass: "
                    + "the table below lists them.</p>\n"
            }
            body += "</section>\n"
        }
        body += "<section id=\"time-per-request\">\n<h2>Time per request</h2>\n"
        body += SVGChart.timePerRequest(results) + "</section>\n"
        body += requestTable(failures: failures)
        if !latencies.isEmpty {
            body += "<section id=\"latency\">\n<h2>Latency over the iterations</h2>\n"
            for (index, latency) in latencies.enumerated() { body += HTMLReport.latencySection(latency, index: index) }
            body += "</section>\n"
        }
        return HTMLReport.page(title: "\(collection): \(passed) passed, \(failed) failed, \(errors) errors", body: body)
    }

    /// The name of a request in the report: its endpoint, and its iteration when there are several.
    private func label(_ result: RunResult) -> String {
        let repeated = iterations.count > 1 || result.iteration > 1
        return result.endpoint + (repeated ? " #\(result.iteration)" : "")
            + (result.requiredBecause == nil ? "" : " (required)")
    }

    private func failureArticle(_ index: Int) -> String {
        let result = results[index]
        var html =
            "<article class=\"failure\" id=\"failure-\(index + 1)\">\n<h3><span class=\"mark\">\(result.mark)</span> "
            + "\(HTMLReport.escape(label(result)))</h3>\n<p class=\"meta\">"
        var facts = ["status \(result.statusText)", HTMLReport.milliseconds(result.milliseconds)]
        if result.attempts > 1 { facts.append("\(result.attempts) attempts") }
        if let trace = result.exchange?.traceID { facts.append("trace \(trace)") }
        if let line = result.line, let collectionFile { facts.append("\(collectionFile):\(line)") }
        html += facts.map(HTMLReport.escape).joined(separator: " · ") + "</p>\n"
        let problems = result.problems
        if !problems.isEmpty {
            html += "<ul class=\"problems\">"
            for problem in problems { html += "<li>\(HTMLReport.escape(problem))</li>" }
            html += "</ul>\n"
        }
        if !result.report.assertions.isEmpty {
            html += "<h4>Assertions</h4>\n<table class=\"assertions\"><thead><tr><th></th><th>assertion</th>"
            html += "<th>expected</th><th>actual</th></tr></thead><tbody>\n"
            for check in result.report.assertions {
                html +=
                    "<tr class=\"\(check.passed ? "passed" : "failed")\"><td class=\"mark\">\(check.passed ? "✓" : "✗")"
                    + "</td><td><code>\(HTMLReport.escape(check.text))</code></td>"
                    + "<td><code>\(HTMLReport.escape(check.expected ?? ""))</code></td>"
                    + "<td><code>\(HTMLReport.escape(check.actual ?? "(nothing)"))</code></td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if let exchange = result.exchange {
            html += "<div class=\"exchange\">\n<div class=\"request\"><h4>Request</h4>\n<pre class=\"head\">"
            html += HTMLReport.escape("\(exchange.method) \(exchange.url)")
            html += headerLines(exchange.requestHeaders) + "</pre>\n"
            html += bodyBlock(exchange.requestBody, size: exchange.requestBodySize)
            html += "</div>\n<div class=\"response\"><h4>Response</h4>\n<pre class=\"head\">"
            if let status = result.status {
                html += HTMLReport.escape("\(status) \(exchange.reason ?? "")".trimmingCharacters(in: .whitespaces))
                html += headerLines(exchange.responseHeaders)
            } else {
                html += "no response"
            }
            html += "</pre>\n" + bodyBlock(exchange.responseBody, size: exchange.responseBodySize) + "</div>\n</div>\n"
        }
        return html + "</article>\n"
    }

    private func headerLines(_ headers: [ReportedExchange.Header]) -> String {
        headers.map { "\n" + HTMLReport.escape("\($0.name): \($0.value)") }.joined()
    }

    private func bodyBlock(_ body: String?, size: Int) -> String {
        guard let body, size > 0 else { return "" }
        return
            "<p class=\"meta\">body, \(HTMLReport.bytes(size))</p>\n<pre class=\"body\">\(HTMLReport.escape(body))</pre>\n"
    }

    /// The table of every request, in two parts: those that did not pass first, open (up to
    /// `htmlOpenRows`; the rest folded), then those that passed, one folded group per endpoint
    /// with its count and time range (open when the whole run has at most `htmlOpenRows`).
    /// Every row keeps its number in the run.
    ///
    /// - Parameter failures: the indices of the results that did not pass.
    private func requestTable(failures: [Int]) -> String {
        var html = "<section id=\"requests\">\n<h2>Requests (\(results.count))</h2>\n"
        html.reserveCapacity(html.utf8.count + results.count * 260)
        if !failures.isEmpty {
            html += "<h3 id=\"requests-not-passed\">Not passed (\(failures.count))</h3>\n"
            html += tableOpening + "\n"
            for index in failures.prefix(Self.htmlOpenRows) { appendRow(index, to: &html) }
            html += "</tbody></table>\n"
            if failures.count > Self.htmlOpenRows {
                let more = failures.count - Self.htmlOpenRows
                html += "<details class=\"rows\"><summary>\(more) more not passed</summary>\n\(tableOpening)\n"
                for index in failures.dropFirst(Self.htmlOpenRows) { appendRow(index, to: &html) }
                html += "</tbody></table>\n</details>\n"
            }
        }
        let passedGroups = passedByEndpoint()
        if !passedGroups.isEmpty {
            let count = passedGroups.reduce(0) { $0 + $1.indices.count }
            html += "<h3 id=\"requests-passed\">Passed (\(count))</h3>\n"
            let open = results.count <= Self.htmlOpenRows ? " open" : ""
            for group in passedGroups {
                let times = group.indices.map { results[$0].milliseconds }
                let range =
                    times.count == 1
                    ? HTMLReport.milliseconds(times[0])
                    : "\(HTMLReport.milliseconds(times.min() ?? 0))–\(HTMLReport.milliseconds(times.max() ?? 0))"
                html +=
                    "<details class=\"rows\"\(open)><summary>\(HTMLReport.escape(group.endpoint)): "
                    + "\(group.indices.count) passed, \(range)</summary>\n\(tableOpening)\n"
                for index in group.indices { appendRow(index, to: &html) }
                html += "</tbody></table>\n</details>\n"
            }
        }
        return html + "</section>\n"
    }

    /// A request table's head, up to its open `<tbody>`.
    private var tableOpening: String {
        "<table class=\"requests\"><thead><tr><th></th><th class=\"num\">#</th><th>request</th><th>status</th>"
            + "<th class=\"num\">time</th><th>assertions</th><th>trace id</th></tr></thead>\n<tbody>"
    }

    /// The results that passed, by endpoint, in the order the endpoints first ran.
    private func passedByEndpoint() -> [(endpoint: String, indices: [Int])] {
        var groups: [(endpoint: String, indices: [Int])] = []
        var position: [String: Int] = [:]
        for (index, result) in results.enumerated() where result.outcome == .passed {
            if let at = position[result.endpoint] {
                groups[at].indices.append(index)
            } else {
                position[result.endpoint] = groups.count
                groups.append((result.endpoint, [index]))
            }
        }
        return groups
    }

    /// One request's row: its mark, its number in the run, its name, status, time, checks
    /// (with up to five failed assertions) and trace id.
    private func appendRow(_ index: Int, to html: inout String) {
        let result = results[index]
        let outcome = SVGChart.outcomeClass(result.outcome)
        html +=
            "<tr class=\"\(outcome)\"><td class=\"mark\">\(result.mark)</td><td class=\"num\">\(index + 1)</td>"
            + "<td>\(HTMLReport.escape(label(result)))</td><td>\(HTMLReport.escape(result.statusText))</td>"
            + "<td class=\"num\">\(HTMLReport.milliseconds(result.milliseconds))</td><td>"
            + HTMLReport.escape(result.checksText)
        let failedChecks = result.report.assertions.filter { !$0.passed }
        if !failedChecks.isEmpty {
            html += "<ul class=\"problems\">"
            for check in failedChecks.prefix(5) { html += "<li>\(HTMLReport.escape(check.line))</li>" }
            html += "</ul>"
        }
        html += "</td><td class=\"trace\">\(result.exchange?.traceID ?? "")</td></tr>\n"
    }
}

/// `explorer load --report html=PATH`: a load run's page: its figures and its latency charts.
package struct LoadHTMLReport: Sendable {
    /// The page's title (the endpoint and where it was sent).
    package var title: String
    /// The figures of the summary, labelled (requests, rate, failures …).
    package var figures: [(label: String, value: String)]
    /// The statuses and how many of each, and the failures by kind.
    package var outcomes: [(label: String, count: Int)]
    /// The latencies.
    package var latency: LatencyDistribution

    /// Creates a load report.
    package init(
        title: String, figures: [(label: String, value: String)], outcomes: [(label: String, count: Int)],
        latency: LatencyDistribution
    ) {
        self.title = title
        self.figures = figures
        self.outcomes = outcomes
        self.latency = latency
    }

    /// The page.
    package var html: String {
        var body = "<header>\n<h1>\(HTMLReport.escape(title))</h1>\n<p class=\"meta\">explorer load</p>\n</header>\n"
        body += HTMLReport.summary(
            figures.enumerated().map { index, figure in ("figure-\(index + 1)", figure.label, figure.value, nil) })
        if !outcomes.isEmpty {
            body += "<section id=\"outcomes\">\n<h2>Outcomes</h2>\n<table><thead><tr><th>outcome</th>"
            body += "<th class=\"num\">count</th></tr></thead><tbody>\n"
            for outcome in outcomes {
                body += "<tr><td>\(HTMLReport.escape(outcome.label))</td><td class=\"num\">\(outcome.count)</td></tr>\n"
            }
            body += "</tbody></table>\n</section>\n"
        }
        body += "<section id=\"latency\">\n<h2>Latency</h2>\n" + HTMLReport.latencySection(latency, index: 0)
        body += "</section>\n"
        return HTMLReport.page(title: title, body: body)
    }
}
