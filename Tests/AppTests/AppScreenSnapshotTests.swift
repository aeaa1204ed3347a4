import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// The whole screen, state by state: text and style masks compared with
/// `Tests/Fixtures/Snapshots/<name>.txt` (`RECORD_SNAPSHOTS=1` rewrites them).
@Suite struct AppScreenSnapshotTests {
    private let problemJSON =
        #"{"type":"https://example.com/probs/invalid","title":"Invalid request","detail":"1 field is invalid","instance":"/posts","errors":[{"field":"page","message":"must be positive"}]}"#
    private let errorPage =
        "<html><head><title>Oops</title></head><body><h1>Internal Server Error</h1><p>The server hit a snag &amp; gave up.</p></body></html>"

    private func received(_ response: ResponseSnapshot, width: Int = 80, height: Int = 24) throws -> AppState {
        var state = try tuiState(width: width, height: height)
        tuiReceive(&state, response)
        state.focus = .response
        return state
    }

    @Test func emptyCollection() throws {
        let collection = try CollectionLoader.parse("name: Empty\n", file: "empty.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/empty.yaml")
        state.now = tuiNow
        assertSnapshot(tuiScreen(state), named: "empty-collection-80x24")
        tuiPress(&state, KeyPress(.enter))
        assertSnapshot(tuiScreen(state), named: "empty-collection-enter-80x24")
    }

    @Test func initialScreen80x24() throws {
        assertSnapshot(tuiScreen(try tuiState()), named: "initial-80x24")
    }

    @Test func initialScreen120x40() throws {
        assertSnapshot(tuiScreen(try tuiState(width: 120, height: 40)), named: "initial-120x40")
    }

    @Test func theFirstFrameSaysTheHistoryIsStillBeingRead() throws {
        // The response pane says "Nothing sent yet. Press Enter…" in both; the History pane
        // says it only once the history is read and empty.
        func nothingSent(_ state: AppState) -> Int {
            screenText(state).components(separatedBy: "Nothing sent yet").count - 1
        }
        var state = try tuiState()
        state.historyIsReading = true
        #expect(screenText(state).contains("Reading the history…"))
        #expect(nothingSent(state) == 1)
        state.historyIsReading = false
        #expect(!screenText(state).contains("Reading the history"))
        #expect(nothingSent(state) == 2)
    }

    @Test func aLargeCollectionsFirstFrameSaysItIsBeingRead() throws {
        var state = AppState(collection: nil, collectionPath: "/tmp/api.yaml")
        state.now = tuiNow
        state.size = Size(width: 120, height: 40)
        state.collectionIsReading = "api.yaml, 895 KB"
        state.historyIsReading = true
        let reading = screenText(state)
        #expect(reading.contains("Reading api.yaml, 895 KB…"))
        #expect(reading.contains("Reading…"))
        #expect(!reading.contains("No endpoints") && !reading.contains("No environments"))
        // No endpoint count yet (a 0 would say the collection is empty), and the Request pane
        // does not ask to select what is not there.
        let endpointsTitle = try #require(reading.split(separator: "\n").first { $0.contains("Endpoints") })
        #expect(!endpointsTitle.contains(" 0 "), "\(endpointsTitle)")
        #expect(reading.contains("The endpoints come when the collection is read."))
        #expect(!reading.contains("Select an endpoint"))
        // Once read, the state is made from the collection: no flag is left to clear.
        var read = AppState(
            collection: try CollectionLoader.parse("name: Empty\n", file: "api.yaml"), collectionPath: "/tmp/api.yaml")
        read.size = state.size
        #expect(screenText(read).contains("No endpoints"))
    }

    @Test func loadingShowsTheSpinner() throws {
        var state = try tuiState()
        tuiInFlight(&state)
        assertSnapshot(tuiScreen(state), named: "loading-80x24")
        #expect(screenText(state).contains("⠋ 1 in flight"))
    }

    @Test func successJSON() throws {
        let state = try received(
            tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        assertSnapshot(tuiScreen(state), named: "success-json-80x24")
        let wide = try received(
            tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"), width: 120,
            height: 40)
        assertSnapshot(tuiScreen(wide), named: "success-json-120x40")
    }

    @Test func clientErrorProblemJSON() throws {
        let state = try received(
            tuiResponse(
                status: 422, reason: "Unprocessable Content", body: problemJSON, contentType: "application/problem+json"
            ))
        assertSnapshot(tuiScreen(state), named: "problem-json-422-80x24")
        #expect(screenText(state).contains("Invalid request — 1 field is invalid"))
    }

    @Test func serverErrorHTML() throws {
        let state = try received(
            tuiResponse(
                status: 500, reason: "Internal Server Error", body: errorPage, contentType: "text/html; charset=utf-8"))
        assertSnapshot(tuiScreen(state), named: "server-error-html-80x24")
        #expect(screenText(state).contains("Internal Server Error The server hit a snag"))
    }

    /// The page's text (up to 300 characters) wraps in the pane instead of being cut.
    @Test func serverErrorHTMLSummaryIsReadableInFull() throws {
        let state = try received(
            tuiResponse(
                status: 500, reason: "Internal Server Error", body: errorPage, contentType: "text/html; charset=utf-8"))
        let lines = tuiScreen(state).textLines()
        let row = try #require(lines.firstIndex { $0.contains("The server hit a snag & gave") })
        #expect(lines[row + 1].contains("││up."))
    }

    @Test func transportError() throws {
        var state = try tuiState()
        let id = tuiInFlight(&state)
        let failure = TransportFailure(TransportError.connectionRefused(host: "127.0.0.1", port: 8080))
        _ = AppReducer.reduce(&state, .failed(exchange: id, failure))
        assertSnapshot(tuiScreen(state), named: "transport-error-80x24")
        #expect(screenText(state).contains("hint: connection refused by 127.0.0.1:8080"))
    }

    @Test func binaryHexDump() throws {
        let data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<56).map { UInt8($0) })
        let state = try received(tuiResponse(status: 200, reason: "OK", data: data, contentType: "image/png"))
        assertSnapshot(tuiScreen(state), named: "binary-hex-80x24")
        #expect(screenText(state).contains("00000000  89 50 4e 47"))
    }

    @Test func searchWithMatches() throws {
        var state = try received(
            tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        tuiPress(&state, .char("/"))
        tuiType(&state, "name")
        assertSnapshot(tuiScreen(state), named: "search-typing-80x24")
        tuiPress(&state, KeyPress(.enter), .char("n"))
        assertSnapshot(tuiScreen(state), named: "search-matches-80x24")
    }

    @Test func jsonPathFilter() throws {
        var state = try received(
            tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        tuiPress(&state, .char("f"))
        tuiType(&state, "$.items[?(@.price > 2)].name")
        tuiPress(&state, KeyPress(.enter))
        assertSnapshot(tuiScreen(state), named: "jsonpath-filter-80x24")
        #expect(screenText(state).contains("\"cherry\""))
        #expect(!screenText(state).contains("\"banana\""))
    }

    @Test func environmentPicker() throws {
        var state = try tuiState()
        tuiPress(&state, .char("e"), KeyPress(.down))
        assertSnapshot(tuiScreen(state), named: "environment-picker-80x24")
    }

    @Test func protectedConfirm() throws {
        var state = try tuiState(environment: "production")
        tuiPress(&state, KeyPress(.enter))
        assertSnapshot(tuiScreen(state), named: "protected-confirm-80x24")
        #expect(screenText(state).contains("production"))
    }

    @Test func helpOverlay() throws {
        var state = try tuiState(width: 120, height: 40)
        tuiPress(&state, .char("?"))
        assertSnapshot(tuiScreen(state), named: "help-120x40")
        var small = try tuiState()
        tuiPress(&small, .char("?"))
        assertSnapshot(tuiScreen(small), named: "help-80x24")
    }

    /// The help wraps every description whole (no `…`) and scrolls: at 80×24 and at 40×12
    /// every key is reached with ↓.
    @Test(arguments: [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 120, height: 40)])
    func helpScrollsToEveryKeyWithoutCuttingDescriptions(size: Size) throws {
        var state = try tuiState(width: size.width, height: size.height)
        tuiPress(&state, .char("?"))
        let panel = state.helpPanel(offset: 0)
        let rows = panel.layout(in: Rect(size: size)).rows
        var shown: [String] = []
        for _ in 0..<(rows.count + 5) {
            shown += tuiScreen(state).textLines()
            tuiPress(&state, KeyPress(.down))
        }
        // Every row of the panel was on screen at some point.
        let rowTexts = rows.map { String($0.map(\.character)).trimmingCharacters(in: .whitespaces) }
        for row in rowTexts where !row.isEmpty {
            #expect(shown.contains { $0.contains(row) }, "row \(row) never shows")
        }
        let words = rowTexts.joined(separator: " ").split(separator: " ").joined(separator: " ")
        for line in state.keymap.helpLines() {
            let label = line.label.split(separator: " ").joined(separator: " ")
            #expect(words.contains(label), "help misses \(line.key) at \(size.width)×\(size.height)")
        }
    }

    @Test func helpSnapshotsAt80x24And40x12() throws {
        var state = try tuiState()
        tuiPress(&state, .char("?"))
        assertSnapshot(tuiScreen(state), named: "help-80x24")
        var small = try tuiState(width: 40, height: 12)
        tuiPress(&small, .char("?"))
        assertSnapshot(tuiScreen(small), named: "help-40x12")
        tuiPress(&small, KeyPress(.end))
        assertSnapshot(tuiScreen(small), named: "help-end-40x12")
    }

    @Test func copyAsCurlOverlayMasksSecrets() throws {
        var state = try tuiState(environment: "production")
        tuiPress(&state, .char("c"))
        assertSnapshot(tuiScreen(state), named: "curl-overlay-80x24")
        #expect(!screenText(state).contains("s3cret-prod-token"))
    }

    @Test func narrowLayout() throws {
        var state = try tuiState(width: 40, height: 12)
        assertSnapshot(tuiScreen(state), named: "narrow-40x12")
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        assertSnapshot(tuiScreen(state), named: "narrow-response-40x12")
    }

    @Test func tooSmallSaysSo() throws {
        let state = try tuiState(width: 19, height: 5)
        #expect(screenText(state).hasPrefix("Terminal too small"))
    }

    @Test func headersAndTimingTabs() throws {
        var state = try received(
            tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        tuiPress(&state, .char("]"))
        assertSnapshot(tuiScreen(state), named: "headers-tab-80x24")
        tuiPress(&state, .char("]"))
        assertSnapshot(tuiScreen(state), named: "raw-tab-80x24")
        tuiPress(&state, .char("]"))
        assertSnapshot(tuiScreen(state), named: "timing-tab-80x24")
    }

    /// Four exchanges: the same endpoint in two environments, one in an environment whose name
    /// is longer than the column, and a URL typed without an environment that failed.
    private func historyState(width: Int, height: Int) throws -> AppState {
        var state = try tuiState(width: width, height: height)
        func entry(
            _ id: Int64, _ environment: String?, _ endpoint: String?, _ method: String, _ url: String, _ status: Int?,
            _ milliseconds: Double
        ) -> HistorySummary {
            HistorySummary(
                id: id, startedAt: tuiNow, environment: environment, endpoint: endpoint, method: method, url: url,
                status: status, reason: nil, responseBodySize: 10, contentType: "application/json",
                totalMilliseconds: milliseconds, transportError: status == nil ? "Connection refused" : nil)
        }
        state.history = [
            entry(4, "staging", "Users/Get user", "GET", "https://staging.example.com/v1/users/2", 200, 1234),
            entry(3, "local", "Users/Get user", "GET", "http://127.0.0.1:8080/v1/users/1", 200, 5),
            entry(2, "production", "Users/Create user", "POST", "https://api.example.com/v1/users", 422, 87),
            entry(1, nil, nil, "DELETE", "http://127.0.0.1:9/v1/users/1", nil, 30_000),
        ]
        state.focus = .history
        state.lastList = .history
        return state
    }

    @Test func historyRowsSayTheirEnvironmentInColumnsThatDoNotShift() throws {
        for (width, height) in [(80, 24), (40, 12), (120, 40)] {
            var state = try historyState(width: width, height: height)
            assertSnapshot(tuiScreen(state), named: "history-\(width)x\(height)")
            // At 40×12 the pane shows one row: each is looked at selected.
            var lines: [String] = []
            for _ in state.history {
                lines += tuiScreen(state).textLines()
                tuiPress(&state, KeyPress(.down))
            }
            let local = try #require(
                lines.first { $0.contains("Get user") && $0.contains("local") }, "\(width)x\(height)")
            let staging = try #require(
                lines.first { $0.contains("Get user") && $0.contains("staging") }, "\(width)x\(height)")
            // The status and the duration end at the same columns in every row.
            for line in [local, staging] {
                let status = try #require(line.range(of: "200"))
                #expect(
                    line.distance(from: line.startIndex, to: status.lowerBound)
                        == local.distance(from: local.startIndex, to: try #require(local.range(of: "200")).lowerBound))
            }
            #expect(staging.contains(" 1.23s│") && local.contains("   5ms│"))
            #expect(lines.contains { $0.contains("422") } && lines.contains { $0.contains("ERR") })
        }
    }

    @Test func theHistoryFilterMatchesTheEnvironmentAtAnyWidth() throws {
        var state = try historyState(width: 80, height: 24)
        tuiPress(&state, .char("/"))
        tuiType(&state, "staging")
        #expect(state.selectedHistoryEntry?.id == 4)
        let screen = screenText(state)
        #expect(screen.contains("staging 200 1.23s"))
        #expect(!screen.contains("5ms") && !screen.contains("87ms") && !screen.contains("ERR"))
    }

    @Test func everyStateRendersAtManySizesWithoutCrashing() throws {
        var states: [AppState] = []
        states.append(try tuiState())
        states.append(
            try received(tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json")))
        states.append(
            try received(
                tuiResponse(status: 500, reason: "Internal Server Error", body: errorPage, contentType: "text/html")))
        var picker = try tuiState()
        tuiPress(&picker, .char("e"))
        states.append(picker)
        var help = try tuiState()
        tuiPress(&help, .char("?"))
        states.append(help)
        for state in states {
            for width in [1, 10, 20, 39, 40, 60, 79, 80, 200] {
                for height in [1, 5, 6, 11, 12, 17, 18, 24, 60] {
                    var sized = state
                    sized.size = Size(width: width, height: height)
                    let grid = AppView.render(sized, size: sized.size)
                    #expect(grid.textLines().count == height)
                }
            }
        }
    }
}
