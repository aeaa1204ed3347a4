import Foundation
import Testing

@testable import Checks
@testable import Workspace

/// The HTML report of a long run stays quick to open: the time chart draws columns as one
/// path per outcome instead of a bar per request, and the table folds what passed into one
/// `<details>` per endpoint while what did not pass stays open; no request is left out.
@Suite struct RunReportHTMLTests {
    /// `count` results over the three endpoints of `RunReportTests`: every tenth fails.
    static func run(_ count: Int) throws -> RunSummary {
        let endpoints = ["Health", "Users/Get", "Down"]
        var results: [RunResult] = []
        for index in 0..<count {
            let milliseconds = Double(index % 50) + 1
            results.append(
                try RunReportTests.result(
                    endpoints[index % 3], iteration: index / 3 + 1, milliseconds: milliseconds,
                    failing: index % 10 == 9))
        }
        return RunReportTests.summary(results, iterations: (count + 2) / 3)
    }

    static func occurrences(of text: String, in html: String) -> Int {
        html.components(separatedBy: text).count - 1
    }

    @Test func aLongRunsChartHasOnePathPerOutcomeInColumns() throws {
        let html = try Self.run(2_500).htmlReport
        #expect(Self.occurrences(of: "<rect class=\"bar ", in: html) == 0)
        #expect(Self.occurrences(of: "<path class=\"bar passed\" d=\"M", in: html) == 1)
        #expect(Self.occurrences(of: "<path class=\"bar failed\" d=\"M", in: html) == 1)
        #expect(html.contains("2250 passed: each column the slowest of its 2–3 requests"))
        #expect(html.contains("250 failed: each column the slowest of its 2–3 requests"))
        #expect(html.contains("aria-label=\"Time per request: 2500 requests in 896 columns, each its slowest\""))
        // Every column has its passed bar: 896 rectangles in the path.
        let passed = try #require(html.range(of: "<path class=\"bar passed\" d=\""))
        let path = html[passed.upperBound...].prefix { $0 != "\"" }
        #expect(path.filter { $0 == "M" }.count == 896)
    }

    @Test func aShortRunsChartKeepsABarPerRequest() throws {
        let html = try Self.run(SVGChart.barLimit).htmlReport
        #expect(Self.occurrences(of: "<rect class=\"bar ", in: html) == SVGChart.barLimit)
        #expect(!html.contains("<path class=\"bar"))
    }

    @Test func passedRequestsFoldByEndpointAndFailuresStayOpen() throws {
        let html = try Self.run(1_200).htmlReport
        let table = try #require(html.range(of: "<section id=\"requests\">"))
        let section = String(html[table.lowerBound...])
        // Every request has its row, numbered as in the run.
        #expect(Self.occurrences(of: "<tr class=\"passed\">", in: section) == 1_080)
        #expect(Self.occurrences(of: "<tr class=\"failed\">", in: section) == 120)
        #expect(section.contains("<td class=\"num\">1200</td>"))
        // What did not pass comes first and open; then one closed group per endpoint.
        let notPassed = try #require(section.range(of: "<h3 id=\"requests-not-passed\">Not passed (120)</h3>"))
        let passed = try #require(section.range(of: "<h3 id=\"requests-passed\">Passed (1080)</h3>"))
        #expect(notPassed.upperBound < passed.lowerBound)
        #expect(!section[..<passed.lowerBound].contains("<details"))
        #expect(Self.occurrences(of: "<details class=\"rows\"><summary>", in: section) == 3)
        #expect(section.contains("<summary>Health: 360 passed, 1.00 ms–49.0 ms</summary>"))
        #expect(!section.contains("<details class=\"rows\" open>"))
    }

    @Test func aShortRunShowsEveryGroupOpen() throws {
        let html = try Self.run(30).htmlReport
        #expect(Self.occurrences(of: "<details class=\"rows\" open><summary>", in: html) == 3)
        #expect(!html.contains("<details class=\"rows\"><summary>"))
    }

    @Test func failuresPastTheOpenRowsAreFoldedTooAndNoneIsLost() throws {
        let results = try (0..<(RunSummary.htmlOpenRows + 5)).map { index in
            try RunReportTests.result("Users/Get", iteration: index + 1, failing: true)
        }
        let html = RunReportTests.summary(results, iterations: results.count).htmlReport
        #expect(html.contains("<details class=\"rows\"><summary>5 more not passed</summary>"))
        let table = try #require(html.range(of: "<section id=\"requests\">"))
        #expect(Self.occurrences(of: "<tr class=\"failed\">", in: String(html[table.lowerBound...])) == results.count)
        #expect(!html.contains("id=\"requests-passed\""))
    }
}
