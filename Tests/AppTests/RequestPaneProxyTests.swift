import Testing

@testable import App

/// The Request pane says which proxy a request goes through, its password masked.
@Suite struct RequestPaneProxyTests {
    @Test func theRequestPaneShowsTheProxyUnderTheURL() throws {
        var state = try tuiState(width: 100, height: 30)
        guard var preview = state.preview else {
            Issue.record("no preview")
            return
        }
        preview.proxy = "via proxy http://ada:••••••@proxy.corp:3128 (the HTTPS_PROXY variable)"
        tuiReduce(&state, .previewResolved(preview))
        let screen = screenText(state)
        #expect(screen.contains("via proxy http://ada:••••••@proxy.corp:3128 (the HTTPS_PROXY"), "\(screen)")
    }
}
