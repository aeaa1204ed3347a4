import Contract
import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Workspace

/// The reports of `explorer run --report`: the JSON report holds to its committed schema, the
/// HTML report is one inert page (what a response brings stays text), GitHub's annotations
/// point at the endpoint's line, and a report that cannot be written is refused up front.
@Suite struct RunReportTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let collectionText = """
        name: Reports <b>&
        environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
        endpoints:
          - name: Health
            path: /health
            assert: [status == 200]
          - folder: Users
            endpoints:
              - name: Get
                path: /users/1
                assert:
                  - status == 200
                  - jsonpath $.name == "Ada"
          - { name: Down, path: /down }
        """

    /// A result of an endpoint of `collectionText`, as the CLI makes it.
    static func result(
        _ id: String, iteration: Int = 1, status: Int? = 200, milliseconds: Double = 12, failing: Bool = false,
        body: String = "{}", headers: [ReportedExchange.Header] = [], error: String? = nil
    ) throws -> RunResult {
        let collection = try CollectionLoader.parse(collectionText, file: "reports.yaml")
        let endpoint = try #require(collection.endpoints.first { $0.id == id })
        var report = CheckReport()
        report.assertions = [
            AssertionResult(text: "status == 200", passed: status == 200, actual: status.map(String.init), reason: nil)
        ]
        if failing {
            report.assertions.append(
                AssertionResult(
                    text: "jsonpath $.name == \"Ada\"", passed: false, actual: "\"Bob\"",
                    reason: "expected == \"Ada\", got \"Bob\"", expected: "== \"Ada\""))
        }
        let step = SequenceStep<Int>(
            endpoint: endpoint, prerequisiteReason: nil, resolved: nil, resolveError: nil, unansweredPrompt: nil,
            exchange: SentExchange(
                response: status.map {
                    CheckedResponse(status: $0, headers: [:], body: Data(), durationMilliseconds: milliseconds)
                }, failure: error, record: 0),
            report: report, attempts: 1)
        var result = RunResult(step: step, iteration: iteration, status: status, milliseconds: milliseconds)
        result.exchange = ReportedExchange(
            method: "GET", url: "http://127.0.0.1:1/\(endpoint.path)", startedAt: Date(timeIntervalSince1970: 1e9),
            requestHeaders: [
                .init(name: "traceparent", value: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                .init(name: "Authorization", value: "Bearer ••••••"),
            ] + headers,
            requestBody: nil, requestBodySize: 0, reason: status == nil ? nil : "OK",
            responseHeaders: [.init(name: "Content-Type", value: "application/json")], responseBody: Data(body.utf8),
            responseBodySize: body.utf8.count, totalMilliseconds: milliseconds, headMilliseconds: milliseconds / 2,
            keepsBodies: failing || status == nil)
        return result
    }

    static func summary(_ results: [RunResult], iterations: Int = 1) -> RunSummary {
        var summary = RunSummary(
            collection: "Reports <b>&", environment: "local", results: results, seconds: 1.5,
            startedAt: Date(timeIntervalSince1970: 1e9),
            iterations: (1...iterations).map { RunIteration(number: $0) })
        summary.collectionFile = "api/reports.yaml"
        return summary
    }

    static func mixed() throws -> RunSummary {
        summary([
            try result("Health"), try result("Users/Get", status: 200, milliseconds: 30, failing: true),
            try result("Down", status: nil, milliseconds: 3, error: "Connection refused"),
        ])
    }

    // MARK: - JSON

    @Test func theJSONReportValidatesAgainstItsCommittedSchema() throws {
        let schemaText = try Data(contentsOf: Self.root.appendingPathComponent("schema/run-report.schema.json"))
        let schema = JSONSchema(try JSONValue(parsing: schemaText))
        var repeated: [RunResult] = []
        for iteration in 1...3 {
            repeated.append(try Self.result("Health", iteration: iteration, milliseconds: Double(iteration * 10)))
            repeated.append(try Self.result("Down", iteration: iteration, status: nil, error: "refused"))
        }
        for summary in [try Self.mixed(), Self.summary(repeated, iterations: 3), Self.summary([])] {
            let report = try JSONValue(parsing: summary.jsonReportData)
            let violations = schema.validate(report)
            #expect(violations.isEmpty, "\(violations)")
        }
        // The schema is not a yes to everything: a report missing its run is refused.
        let parsed = try JSONSerialization.jsonObject(with: Self.mixed().jsonReportData)
        var object = try #require(parsed as? [String: Any])
        object["run"] = nil
        #expect(!schema.isValid(try JSONValue(parsing: JSONSerialization.data(withJSONObject: object))))
    }

    @Test func eachRequestHasItsMethodURLStatusTimingsAssertionsSizesAndTraceID() throws {
        let parsed = try JSONSerialization.jsonObject(with: Self.mixed().jsonReportData)
        let object = try #require(parsed as? [String: Any])
        #expect(object["format"] as? String == "explorer-run-report")
        #expect(object["version"] as? Int == 1)
        let run = try #require(object["run"] as? [String: Any])
        #expect(run["passed"] as? Int == 1 && run["failed"] as? Int == 1 && run["errors"] as? Int == 1)
        let iterations = try #require(object["iterations"] as? [[String: Any]])
        let requests = try #require(iterations.first?["requests"] as? [[String: Any]])
        #expect(requests.map { $0["endpoint"] as? String } == ["Health", "Users/Get", "Down"])
        let get = requests[1]
        #expect(get["method"] as? String == "GET")
        #expect(get["url"] as? String == "http://127.0.0.1:1//users/1")
        #expect(get["status"] as? Int == 200)
        #expect(get["traceId"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(get["line"] as? Int == 9)
        #expect((get["timings"] as? [String: Any])?["totalMs"] as? Double == 30)
        #expect((get["sizes"] as? [String: Any])?["responseBody"] as? Int == 2)
        let failed = try #require((get["assertions"] as? [[String: Any]])?.last)
        #expect(failed["expected"] as? String == "== \"Ada\"")
        #expect(failed["actual"] as? String == "\"Bob\"")
        #expect(failed["passed"] as? Bool == false)
    }

    @Test func repeatedEndpointsGetTheirLatencyFigures() throws {
        let results = try [10.0, 20, 30, 40].enumerated().map { index, ms in
            try Self.result("Health", iteration: index + 1, milliseconds: ms)
        }
        let latency = try #require(Self.summary(results, iterations: 4).latencyDistributions.first)
        #expect(latency.count == 4)
        #expect(latency.minimum == 10 && latency.maximum == 40 && latency.mean == 25)
        #expect(abs(latency.standardDeviation - 11.180_339) < 0.001)
        #expect(latency.milliseconds(atPercentile: 50) == 20)
        #expect(latency.milliseconds(atPercentile: 99) == 40)
        #expect(latency.buckets.map(\.count).reduce(0, +) == 4)
        #expect(latency.curve.first?.milliseconds == 10 && latency.curve.last?.milliseconds == 40)
    }

    // MARK: - HTML

    @Test func theHTMLReportHasNoScriptAndNoExternalResource() throws {
        let html = try Self.mixed().htmlReport
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains(" src=") && !html.contains(" href=") && !html.contains("url("))
        #expect(!html.contains("@import"))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
    }

    @Test func whatAResponseBringsStaysInertText() throws {
        let hostile = "</pre></script><script>alert(1)</script><svg onload=alert(2)><img src=x onerror=alert(3)>"
        let summary = Self.summary([
            try Self.result(
                "Users/Get", failing: true, body: hostile + "\u{0}\u{1B}[31m\u{85}",
                headers: [.init(name: "X-Evil", value: "\"><svg onload=alert(4)>")])
        ])
        let html = summary.htmlReport
        #expect(!html.contains("<script"))
        #expect(!html.contains("<svg onload"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;svg onload=alert(2)&gt;"))
        #expect(html.contains("&quot;&gt;&lt;svg onload=alert(4)&gt;"))
        #expect(html.contains("\\u{0}\\u{1b}[31m\\u{85}"), "control characters are shown, not written raw")
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        // The collection's own name is text too.
        #expect(html.contains("<h1>Reports &lt;b&gt;&amp;</h1>"))
    }

    @Test func failuresComeFirstWithTheirRequestAndResponse() throws {
        let html = try Self.mixed().htmlReport
        let failures = try #require(html.range(of: "<section id=\"failures\">"))
        let table = try #require(html.range(of: "<section id=\"requests\">"))
        #expect(failures.lowerBound < table.lowerBound)
        let firstArticle = try #require(html.range(of: "<article class=\"failure\""))
        let article = html[firstArticle.lowerBound...]
        #expect(article.contains("Users/Get"))
        #expect(article.contains("GET http://127.0.0.1:1//users/1"))
        #expect(article.contains("Authorization: Bearer ••••••"))
        #expect(article.contains("Content-Type: application/json"))
        #expect(article.contains("trace 4bf92f3577b34da6a3ce929d0e0e4736"))
        #expect(html.contains("<span class=\"value\" id=\"passed\">1</span>"))
        #expect(html.contains("<span class=\"value\" id=\"failed\">1</span>"))
        #expect(html.contains("<span class=\"value\" id=\"errors\">1</span>"))
    }

    @Test func theTimeChartHasOneBarPerRequest() throws {
        let results = try (1...37).map { try Self.result("Health", iteration: $0, milliseconds: Double($0)) }
        let html = Self.summary(results, iterations: 37).htmlReport
        #expect(html.components(separatedBy: "<rect class=\"bar ").count - 1 == 37)
        // Repeated: a histogram and a percentile curve for the endpoint, with its figures.
        #expect(html.contains("<section id=\"latency\">"))
        #expect(html.contains("<polyline class=\"curve\""))
        #expect(html.components(separatedBy: "<rect class=\"bucket\"").count - 1 == LatencyDistribution.bucketCount)
        for figure in ["min", "max", "mean", "stddev", "p50", "p90", "p95", "p99"] {
            #expect(html.contains("<th>\(figure)</th>"))
        }
    }

    @Test func aLongBodyIsCutWithItsSizeSaid() {
        let body = Data(String(repeating: "é", count: 20_000).utf8)
        let text = ReportedExchange.text(of: body, size: body.count)
        #expect(text.hasSuffix("… cut: 16384 of 40000 bytes shown"))
        #expect(text.utf8.count < ReportedExchange.bodyLimit + 100)
        #expect(ReportedExchange.text(of: Data([0xFF, 0xFE, 0x00]), size: 3) == "(a binary body of 3 bytes)")
    }

    // MARK: - GitHub

    @Test func githubAnnotationsPointAtTheEndpointsLine() throws {
        let lines = try Self.mixed().githubAnnotations().split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("::error file=api/reports.yaml,line=9,title=Users/Get%3A 200::"))
        #expect(lines[0].contains("✗ jsonpath $.name == \"Ada\"%3A") == false, "the message keeps its colons")
        #expect(lines[0].contains("expected == \"Ada\", got \"Bob\"%0Atrace id 4bf92f3577b34da6a3ce929d0e0e4736"))
        #expect(lines[1].hasPrefix("::error file=api/reports.yaml,line=14,title=Down%3A ---::Connection refused"))
        #expect(lines[2].hasPrefix("::notice title=explorer run Reports <b>&::3 requests"))
        #expect(RunSummary.githubData("100%\r\nnext") == "100%25%0D%0Anext")
        #expect(RunSummary.githubProperty("a,b:c") == "a%2Cb%3Ac")
    }

    // MARK: - Targets

    @Test func reportTargetsAreReadAndBadOnesRefusedInOneLine() throws {
        #expect(
            try RunReportTarget(parsing: "html=out/report.html")
                == RunReportTarget(kind: .html, path: "out/report.html"))
        #expect(try RunReportTarget(parsing: "github") == RunReportTarget(kind: .github, path: nil))
        #expect(try RunReportTarget(parsing: "JSON=a=b.json").path == "a=b.json")
        #expect(throws: RunReportError.self) { try RunReportTarget(parsing: "pdf=x.pdf") }
        #expect(throws: RunReportError.self) { try RunReportTarget(parsing: "html") }
        #expect(throws: RunReportError.self) { try RunReportTarget(parsing: "github=x") }
        #expect(throws: RunReportError.self) { try RunReportTarget(parsing: "junit=x", kinds: [.html]) }
        do {
            _ = try RunReportTarget(parsing: "pdf=x.pdf")
        } catch {
            #expect(
                error.description == "--report pdf=x.pdf: \"pdf\" is not a kind of report; use one of "
                    + "junit=PATH, json=PATH, html=PATH, github.")
        }
    }

    @Test func aReportThatCannotBeWrittenIsNamedBeforeAnythingIsSent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = RunReportTarget(kind: .json, path: folder.appendingPathComponent("r.json").path)
        #expect(good.unwritableReason() == nil)
        let missing = RunReportTarget(kind: .html, path: folder.appendingPathComponent("no/r.html").path)
        #expect(missing.unwritableReason()?.contains("the folder \(folder.path)/no does not exist") == true)
        let isFolder = RunReportTarget(kind: .html, path: folder.path)
        #expect(isFolder.unwritableReason()?.contains("is a folder") == true)
        let twice = RunReportTarget(kind: .junit, path: good.path)
        let problems = RunReportTarget.problems(in: [good, twice])
        #expect(problems.count == 1 && problems[0].contains("writes the same file"))
    }

    @Test func aCommandsReportTextsAreCheckedTogetherWithWhatItAdds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("r.json").path
        let texts = ["json=\(json)", "pdf=x.pdf", "html=\(folder.appendingPathComponent("r.html").path)"]
        let (targets, unparsed) = RunReportTarget.parsing(texts)
        #expect(targets.map(\.kind) == [.json, .html])
        #expect(unparsed.count == 1 && unparsed[0].hasPrefix("--report pdf=x.pdf:"))
        // A command's own report (run's --junit FILE) counts with the others.
        let problems = RunReportTarget.check(texts, extra: [RunReportTarget(kind: .junit, path: json)])
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("--report pdf=x.pdf:") == true)
        #expect(problems.last?.contains("writes the same file") == true)
        // load offers html only.
        #expect(RunReportTarget.check(["json=\(json)"], kinds: [.html]).first?.contains("html=PATH") == true)
        #expect(RunReportTarget.check(["html=\(folder.appendingPathComponent("l.html").path)"], kinds: [.html]).isEmpty)
    }

    // MARK: - Trace context

    @Test func traceparentValuesAreReadAndMadeAsW3CSays() throws {
        let parent = TraceParent.random()
        #expect(parent.description.wholeMatch(of: /00-[0-9a-f]{32}-[0-9a-f]{16}-01/) != nil)
        #expect(TraceParent(parsing: parent.description) == parent)
        #expect(TraceParent.random().traceID != parent.traceID)
        #expect(
            TraceParent(parsing: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")?.traceID
                == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(TraceParent(parsing: "00-00000000000000000000000000000000-00f067aa0ba902b7-01") == nil)
        #expect(TraceParent(parsing: "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01") == nil)
        #expect(TraceParent(parsing: "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01") == nil)
        #expect(TraceParent(parsing: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later") != nil)
    }
}
