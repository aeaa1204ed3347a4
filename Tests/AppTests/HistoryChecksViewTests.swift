import Foundation
import Testing

@testable import App
@testable import Checks
@testable import History
@testable import Terminal

/// The History view shows the checks a stored exchange kept.
@Suite struct HistoryChecksViewTests {
    /// Two assertions, the second failed: what the view lists.
    private func report() -> CheckReport {
        var report = CheckReport()
        report.assertions = [
            AssertionResult(text: "status == 200", passed: true, actual: "200", reason: nil),
            AssertionResult(
                text: "jsonpath $.token == \"x\"", passed: false, actual: "\"y\"",
                reason: "expected == \"x\", got \"y\""),
        ]
        return report
    }

    @Test func theHistoryViewShowsTheChecksOfAStoredExchange() throws {
        var state = try tuiState(width: 100, height: 30)
        var entry = HistoryEntry(
            id: 9, method: "POST", url: "http://127.0.0.1:8080/v1/login", status: 200, reason: "OK",
            responseHeaders: ["Content-Type": "application/json"], responseBody: Data("{}".utf8))
        entry.endpoint = "Auth/Login"
        entry.id = 9
        // As the store reads it back.
        entry.checks = CheckReport(storedJSON: report().storedJSON)
        #expect(entry.checks?.assertions.count == 2)
        _ = AppReducer.reduce(
            &state,
            .historyOpened(entry, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json")))
        #expect(screenText(state).contains("1/2 checks"))
        #expect(state.responseTabs.contains(.checks))
        state.focus = .response
        while state.responseTab != .checks { tuiPress(&state, .char("]")) }
        #expect(screenText(state).contains("✗ jsonpath $.token == \"x\""))
    }
}
