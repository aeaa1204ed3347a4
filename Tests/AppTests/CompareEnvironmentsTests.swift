import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Measure
@testable import Terminal
@testable import Workspace

/// `=`: the selected endpoint in the active environment and one the picker chooses, compared
/// side by side; a protected environment asks first.
@Suite struct CompareEnvironmentsTests {
    private func comparing(_ digit: Character) throws -> (AppState, [AppEffect]) {
        var state = try tuiState(width: 110, height: 30)
        tuiPress(&state, .char("="))
        #expect(
            screenText(state).contains("Compare \(state.selectedEndpoint?.id ?? "") in local with which environment?"))
        let effects = tuiPress(&state, .char(digit))
        return (state, effects)
    }

    @Test func pickingAnotherEnvironmentSendsThePlanForBoth() throws {
        let (state, effects) = try comparing("2")
        guard case .compareEnvironments(let first, let second)? = effects.first else {
            Issue.record("expected a comparison, got \(effects)")
            return
        }
        #expect(first.environment.name == "local" && second.environment.name == "staging")
        #expect(first.endpoint.id == second.endpoint.id && first.endpoint.id == state.selectedEndpoint?.id)
        #expect(state.message?.hasPrefix("Comparing ") == true)
        #expect(state.comparePending == nil)
    }

    @Test func theSameEnvironmentIsNotComparedWithItself() throws {
        let (state, effects) = try comparing("1")
        #expect(effects.isEmpty)
        #expect(state.message == "Pick an environment other than local to compare with.")
    }

    @Test func aProtectedEnvironmentAsksAndNoKeepsBothUnsent() throws {
        var (state, effects) = try comparing("3")
        #expect(effects.isEmpty)
        #expect(screenText(state).contains("and production?"))
        #expect(tuiPress(&state, .char("n")).isEmpty)
        #expect(state.message == "Not sent.")
        tuiPress(&state, .char("="))
        tuiPress(&state, .char("3"))
        let confirmed = tuiPress(&state, .char("y"))
        guard case .compareEnvironments(_, let second)? = confirmed.first else {
            Issue.record("not compared after y")
            return
        }
        #expect(second.environment.name == "production")
    }

    @Test func theComparisonShowsEachDifferenceAsTheFirstSideAndTheSecond() {
        let json = HTTPHeaders([("Content-Type", "application/json"), ("Authorization", "Bearer secret-1")])
        let a = ComparedExchange(
            environment: "local", method: "GET", url: "http://l/users/1", status: 200, reason: "OK",
            headers: json, body: Data(#"{"id":1,"name":"Ada","gone":true}"#.utf8), milliseconds: 3)
        var otherHeaders = json
        otherHeaders["Authorization"] = "Bearer secret-2"
        let b = ComparedExchange(
            environment: "staging", method: "GET", url: "http://s/users/1", status: 200, reason: "OK",
            headers: otherHeaders, body: Data(#"{"id":"1","name":"Alan","new":1}"#.utf8), milliseconds: 4)
        let comparison = Comparison(endpoint: "Users/Get user", ResponseComparison(a, b), mask: { $0 })
        #expect(comparison.title == "Users/Get user: local ↔ staging — differ")
        let lines = comparison.lines.map { line -> String in
            switch line {
            case .same(let text): "  " + text
            case .removed(let text): "- " + text
            case .added(let text): "+ " + text
            }
        }
        #expect(
            lines.contains("- Authorization: ••••••") && lines.contains("+ Authorization: ••••••"),
            "a credential is never shown")
        #expect(lines.contains("- $.id: 1 (number → string)") && lines.contains("+ $.id: \"1\" (number → string)"))
        #expect(lines.contains("- $.name: \"Ada\"") && lines.contains("+ $.name: \"Alan\""))
        #expect(lines.contains("- $.gone: true") && !lines.contains("+ $.gone: (none)"))
        #expect(lines.contains("+ $.new: 1") && !lines.contains("- $.new: (none)"))
    }
}
