import Foundation
import History
import NetworkingCore
import Testing

@testable import App
@testable import Terminal

/// Moving through History previews stored exchanges without discarding the one just received,
/// and a row of an exchange still in memory opens that exchange, whole.
@Suite struct HistoryPreviewTests {
    private func stored(_ id: Int64, body: String, size: Int? = nil) -> HistoryEntry {
        HistoryEntry(
            id: id, method: "GET", url: "http://127.0.0.1:8080/v1/items/\(id)", status: 200, reason: "OK",
            responseHeaders: ["Content-Type": "application/json"], responseBody: Data(body.utf8),
            responseBodySize: size)
    }

    @Test func previewingRowsKeepsTheLiveExchangeAndItsRowOpensItWhole() throws {
        var state = try tuiState(width: 100, height: 30)
        let full = #"{"items":[1,2,3],"complete":true}"#
        let live = tuiReceive(
            &state, tuiResponse(status: 200, reason: "OK", body: full, contentType: "application/json"))
        _ = AppReducer.reduce(&state, .recorded(exchange: live, historyID: 7))

        // Another row is previewed from its stored copy: the live exchange stays in memory.
        let other = stored(6, body: #"{"other":true}"#)
        _ = AppReducer.reduce(&state, .historyOpened(other, ResponseSnapshot.make(entry: other, status: 200)))
        #expect(state.shown?.isHistoryPreview == true)
        #expect(state.exchanges[live]?.response?.document.byteCount == full.utf8.count)

        // The live exchange's own row shows it, not the capped stored copy.
        let cut = stored(7, body: #"{"items":[1,2"#, size: full.utf8.count)
        _ = AppReducer.reduce(&state, .historyOpened(cut, ResponseSnapshot.make(entry: cut, status: 200)))
        #expect(state.shownExchange == live)
        #expect(screenText(state).contains("\"complete\": true"))
        // The preview shown before is dropped; no other exchange was.
        #expect(state.exchanges.values.filter(\.isHistoryPreview).isEmpty)
    }

    @Test func aTruncatedStoredJSONBodyIsPrettyPrintedAsFarAsItGoesAndMarked() throws {
        var state = try tuiState(width: 100, height: 30)
        let cut = stored(9, body: #"{"items":[{"id":1},{"id":2"#, size: 5_000_000)
        _ = AppReducer.reduce(&state, .historyOpened(cut, ResponseSnapshot.make(entry: cut, status: 200)))
        let text = screenText(state)
        #expect(text.contains("\"items\": ["))
        #expect(text.contains("\"id\": 2"))
        #expect(text.contains("Stored body truncated"))
    }
}
