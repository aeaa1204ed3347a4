import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Checks
@testable import Terminal
@testable import Workspace

/// The TUI shows what an endpoint's assertions found: `3/4 checks` in the response's status
/// line, and a Checks tab with each assertion, the value found and why it failed.
@Suite struct ChecksTabTests {
    private func checkedState() throws -> (AppState, Int) {
        var state = try tuiState(width: 100, height: 30)
        let body = #"{"id":7,"token":"tok-123","roles":["reader"]}"#
        let id = tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: body, contentType: "application/json"))
        var endpoint = Endpoint(name: "Login", path: "/login")
        endpoint.assertions = try [
            "status == 200", "jsonpath $.id == 7", #"jsonpath $.roles[*] includes "admin""#, "duration < 500",
        ]
        .map { try Assertion(parsing: $0) }
        endpoint.captures = [Capture(name: "token", source: .jsonpath("$.token"))]
        let facts = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(body.utf8),
            durationMilliseconds: 42)
        _ = AppReducer.reduce(&state, .checked(exchange: id, endpoint.check(facts)))
        return (state, id)
    }

    @Test func theStatusLineCountsTheChecksThatPassed() throws {
        let (state, _) = try checkedState()
        #expect(screenText(state).contains("3/4 checks"))
        #expect(screenText(state).contains("Checks"), "the tab is there when the endpoint checks something")
    }

    @Test func theChecksTabListsEachAssertionWithItsActualValueAndReason() throws {
        var (state, _) = try checkedState()
        state.focus = .response
        while state.responseTab != .checks { tuiPress(&state, .char("]")) }
        let screen = screenText(state)
        #expect(screen.contains("✓ status == 200"))
        #expect(screen.contains(#"✗ jsonpath $.roles[*] includes "admin""#))
        #expect(screen.contains(#"expected includes "admin", got ["reader"]"#))
        #expect(screen.contains("captured token = ••••••"), "a capture named token is a secret")
        #expect(!screen.contains("tok-123 "), "its value is not shown")
    }

    @Test func anExchangeWithoutChecksHasNoChecksTab() throws {
        var state = try tuiState(width: 100, height: 30)
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        #expect(!state.responseTabs.contains(.checks))
        #expect(!screenText(state).contains("checks"))
    }
}
