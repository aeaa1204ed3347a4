import Foundation
import History
import NetworkingCore
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// Keys act on what is selected and shown, and the footer says what they do in the focused pane.
@Suite struct KeyContextTests {
    private func historyState() throws -> AppState {
        var state = try tuiState(width: 120, height: 30)
        state.history = tuiTwoHistoryRows
        return state
    }

    private func footer(_ state: AppState) -> String {
        tuiScreen(state).textLines().last ?? ""
    }

    @Test func cInHistoryCopiesTheExchangeShownNotTheSelectedEndpoint() throws {
        var state = try historyState()
        #expect(state.selectedEndpoint?.id == "List posts")
        tuiPress(&state, KeyPress(.tab))
        #expect(state.focus == .history)
        let entry = HistoryEntry(
            id: 2, environment: "staging", endpoint: "Users/Get user", method: "GET",
            url: "https://staging.example.com/v1/users/2", requestHeaders: ["Authorization": "Bearer ••••••"],
            status: 200, reason: "OK",
            responseHeaders: ["Content-Type": "application/json"], responseBody: Data("{}".utf8))
        _ = AppReducer.reduce(&state, .historyOpened(entry, ResponseSnapshot.make(entry: entry, status: 200)))
        state.focus = .history
        let effects = tuiPress(&state, .char("c"))
        guard case .copyToClipboard(let command)? = effects.first else {
            Issue.record("c copies the shown exchange, got \(effects)")
            return
        }
        #expect(command.contains("https://staging.example.com/v1/users/2"))
        #expect(!command.contains("/posts"), "not the endpoint selected in the Endpoints pane")
        #expect(screenText(state).contains("curl · #2 as sent"))
    }

    @Test func rAndDActOnHistoryOnlyAndSaySoElsewhere() throws {
        var state = try historyState()
        #expect(tuiPress(&state, .char("r")).isEmpty)
        #expect(state.message?.contains("Tab to History") == true)
        tuiPress(&state, .char("d"))
        #expect(state.compareBase == nil)
        #expect(state.message?.contains("Tab to History") == true)
        tuiPress(&state, KeyPress(.tab), .char("d"))
        #expect(state.compareBase?.id == 2)
    }

    @Test func theFooterListsTheFocusedPanesKeys() throws {
        var state = try historyState()
        #expect(footer(state).contains("⏎ send") || footer(state).contains("Enter send"))
        tuiPress(&state, KeyPress(.tab))
        let history = footer(state)
        #expect(history.contains("r re-send") && history.contains("d compare") && history.contains("open"))
        #expect(!history.contains("send ") || history.contains("re-send"))
        // The Headers editor: Enter edits a row, as the footer says.
        tuiPress(&state, KeyPress(.tab))
        #expect(state.focus == .request)
        tuiPress(&state, .char("]"), .char("]"))
        #expect(state.compose.editor.tab == .headers)
        let headers = footer(state)
        #expect(headers.contains("edit row") && headers.contains("a add"))
        #expect(!headers.contains(" send "))
    }

    @Test func escapeClearsTheFocusedListsFilterAndTheCountMatchesTheRows() throws {
        var state = try tuiState(width: 120, height: 30)
        tuiPress(&state, .char("/"))
        tuiType(&state, "user")
        tuiPress(&state, KeyPress(.enter))
        #expect(screenText(state).contains("2 of 3"))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.endpointList.filter.isEmpty)
        #expect(screenText(state).contains(" 3 "))
        #expect(!screenText(state).contains("of 3"))
    }

    @Test func aNewBodySearchStartsEmptyAndUpBringsBackTheLastOne() throws {
        var state = try tuiState(width: 100, height: 30)
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        state.focus = .response
        tuiPress(&state, .char("/"))
        tuiType(&state, "apple")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.body.search == "apple")
        tuiPress(&state, .char("/"))
        #expect(state.input?.text == "", "a new search starts empty")
        tuiPress(&state, KeyPress(.up))
        #expect(state.input?.text == "apple")
        tuiPress(&state, KeyPress(.down))
        #expect(state.input?.text == "")
    }
}
