import Foundation
import Testing

@testable import App
@testable import Terminal

/// `trace:`: the Timing tab shows the trace id the request carried, to find it in the server's
/// traces; a request without a traceparent header shows none.
@Suite struct TimingTraceTests {
    @Test func theTimingTabShowsTheRequestsTraceID() throws {
        var state = try tuiState(width: 100, height: 30)
        let id = tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        let without = try #require(state.exchanges[id])
        #expect(!ResponseContent.timingLines(without).contains { $0.map(\.text).joined().contains("Trace id") })
        state.exchanges[id]?.requestHeaders.add(
            name: "traceparent", value: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        state.focus = .response
        while state.responseTab != .timing { tuiPress(&state, .char("]")) }
        #expect(screenText(state).contains("Trace id     4bf92f3577b34da6a3ce929d0e0e4736"))
    }
}
