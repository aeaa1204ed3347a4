import Checks
import Foundation
import NetworkingCore
import Testing

@testable import ExplorerCLI
@testable import History

/// `explorer run --report`: a result keeps its request's and response's headers and bodies only
/// when the HTML report details it, so a run of many failures holds the few the report shows.
@Suite struct RunReportDetailsTests {
    private let html = RunReportTarget(kind: .html, path: "/tmp/run.html")
    private let json = RunReportTarget(kind: .json, path: "/tmp/run.json")

    private func failedEntry(_ number: Int) -> HistoryEntry {
        HistoryEntry(
            method: "POST", url: "http://127.0.0.1:1/orders/\(number)",
            requestHeaders: ["Content-Type": "application/json"], requestBody: Data(#"{"n":\#(number)}"#.utf8),
            status: 500, reason: "Internal Server Error", responseHeaders: ["Content-Type": "text/plain"],
            responseBody: Data("boom \(number)".utf8))
    }

    /// The exchanges of a run whose every request failed, kept as the run keeps them.
    private func exchanges(failing count: Int, targets: [RunReportTarget]) -> [ReportedExchange] {
        var failuresBefore = 0
        return (0..<count).map { number in
            let keeps = RunCommand.keepsDetails(.failed, failuresBefore: failuresBefore, targets: targets)
            failuresBefore += 1
            return RunCommand.reported(failedEntry(number), secrets: [], keepsDetails: keeps).exchange
        }
    }

    @Test func onlyTheFailuresTheHTMLReportDetailsKeepTheirBodiesAndHeaders() {
        let detailed = RunSummary.htmlDetailedFailures
        let kept = exchanges(failing: detailed + 50, targets: [html, json])
        #expect(kept[detailed - 1].responseBody == "boom \(detailed - 1)")
        #expect(kept[detailed - 1].requestHeaders.map(\.name) == ["Content-Type"])
        for exchange in kept[detailed...] {
            #expect(exchange.requestBody == nil && exchange.responseBody == nil)
            #expect(exchange.requestHeaders.isEmpty && exchange.responseHeaders.isEmpty)
        }
        // What every report lists is still there.
        #expect(kept[detailed + 10].url == "http://127.0.0.1:1/orders/\(detailed + 10)")
        #expect(kept[detailed + 10].responseBodySize == "boom \(detailed + 10)".utf8.count)
    }

    @Test func aRunWithoutAnHTMLReportKeepsNoBodies() {
        let kept = exchanges(failing: 3, targets: [json])
        #expect(kept.allSatisfy { $0.requestBody == nil && $0.responseBody == nil && $0.responseHeaders.isEmpty })
        #expect(kept[2].reason == "Internal Server Error")
    }

    @Test func aPassedRequestNeverKeepsItsDetails() {
        #expect(!RunCommand.keepsDetails(.passed, failuresBefore: 0, targets: [html]))
        #expect(RunCommand.keepsDetails(.transportFailure, failuresBefore: 0, targets: [html]))
    }
}
