import Foundation
import TestSupport
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// The command palette: fuzzy search over endpoints, environments, history and the keymap's
/// commands; Enter jumps or runs.
@Suite struct CommandPaletteTests {
    private func palette(_ state: AppState) -> PaletteState? {
        if case .palette(let palette) = state.overlay { return palette }
        return nil
    }

    private func summary(id: Int64, url: String, status: Int) -> HistorySummary {
        HistorySummary(
            id: id, startedAt: tuiNow, environment: "local", endpoint: nil, method: "GET", url: url,
            status: status, reason: nil, responseBodySize: 10, contentType: nil, totalMilliseconds: 12,
            transportError: nil)
    }

    @Test func ctrlPOpensThePaletteOnEveryKindOfRow() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        #expect(palette(state) != nil)
        let kinds = Set(CommandPalette.entries(state).map(\.kind))
        #expect(kinds == ["endpoint", "env", "command"], "no history yet")
        let text = screenText(state)
        #expect(text.contains("Command palette"))
        #expect(text.contains("GET Users/Get user  /users/{{user_id}}"))
    }

    @Test func typingRanksEndpointsFuzzilyAndEnterSelectsOne() throws {
        var state = try tuiState()
        state.focus = .response
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "crus")
        let first = try #require(CommandPalette.ranked(state, palette(state)!).first)
        #expect(first.entry.target == .endpoint(id: "Users/Create user"))
        tuiPress(&state, KeyPress(.enter))
        #expect(state.overlay == nil)
        #expect(state.focus == .endpoints)
        #expect(state.selectedEndpoint?.id == "Users/Create user")
    }

    @Test func enterOnAnEnvironmentSwitchesToIt() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "staging")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.activeEnvironmentValue?.name == "staging")
    }

    @Test func commandsShowTheirKeysFromTheKeymapAndRun() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "show all keys")
        let ranked = CommandPalette.ranked(state, palette(state)!)
        let help = try #require(ranked.first)
        #expect(help.entry.target == .command(.help))
        #expect(help.entry.detail == "?")
        tuiPress(&state, KeyPress(.enter))
        guard case .help? = state.overlay else {
            Issue.record("Enter on a command runs it: expected the help, got \(String(describing: state.overlay))")
            return
        }
    }

    @Test func aReboundKeyShowsInThePalette() throws {
        var state = try tuiState()
        state.keymap.bindings = state.keymap.bindings.map { binding in
            var binding = binding
            if binding.command == .copyAsCurl { binding.keys = [.ctrl("k")] }
            return binding
        }
        let curl = try #require(CommandPalette.entries(state).first { $0.target == .command(.copyAsCurl) })
        #expect(curl.detail == "Ctrl-K")
    }

    @Test func historyEntriesAreFoundByURLAndStatusAndOpen() throws {
        var state = try tuiState()
        state.history = [
            summary(id: 7, url: "http://127.0.0.1:8080/v1/posts", status: 200),
            summary(id: 8, url: "http://127.0.0.1:8080/v1/users/9", status: 404),
        ]
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "404 users")
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .openHistory(let id)? = effects.first else {
            Issue.record("expected the entry to open, got \(effects)")
            return
        }
        #expect(id == 8)
        #expect(state.focus == .history)
        #expect(state.selectedHistoryEntry?.id == 8)
    }

    @Test func arrowsMoveEscapeClosesAndNothingMatchingDoesNothing() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"), KeyPress(.down), KeyPress(.down))
        #expect(palette(state)?.list.selected == 2)
        tuiType(&state, "zzzzqqq")
        #expect(palette(state)?.list.selected == 0, "typing starts again at the best row")
        #expect(screenText(state).contains("0 of"))
        tuiPress(&state, KeyPress(.enter))
        #expect(state.overlay == nil)
        tuiPress(&state, .ctrl("p"), KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    @Test func aPasteGoesIntoTheQuery() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        tuiReduce(&state, .input(.paste("List posts"), at: tuiNow))
        #expect(palette(state)?.query.text == "List posts")
    }

    @Test func snapshots() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "user")
        assertSnapshot(tuiScreen(state), named: "palette-80x24")
        var narrow = try tuiState(width: 40, height: 12)
        tuiPress(&narrow, .ctrl("p"))
        tuiType(&narrow, "gu")
        assertSnapshot(tuiScreen(narrow), named: "palette-40x12")
    }
}
