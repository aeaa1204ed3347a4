import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Checks
@testable import Terminal
@testable import Workspace

/// A response is shown with its request's secrets masked, as history stores it: a server that
/// echoes a token, a `Set-Cookie`, or a login response whose token a capture keeps as secret.
@Suite struct ResponseMaskingTests {
    private static let secret = "s3cr3t-token-42"

    /// An exchange whose response echoes the request's secret in its body and a header.
    private func echoedState() throws -> AppState {
        var state = try tuiState(width: 100, height: 30)
        let id = tuiInFlight(&state)
        state.exchanges[id]?.masker = SecretMasker(secretValues: [Self.secret])
        let body = #"{"headers":{"Authorization":"Bearer \#(Self.secret)"},"query":"key=\#(Self.secret)"}"#
        var response = tuiResponse(status: 200, reason: "OK", body: body, contentType: "application/json")
        var headers = response.headers
        headers["Set-Cookie"] = "session=abc123; HttpOnly"
        headers["X-Echo"] = "token " + Self.secret
        response = ResponseSnapshot(
            status: 200, reason: "OK", headers: headers, httpVersion: "HTTP/1.1", document: response.document,
            headMilliseconds: 12, totalMilliseconds: 42, redirects: [], errorSummary: [])
        _ = AppReducer.reduce(&state, .received(exchange: id, response))
        state.focus = .response
        return state
    }

    private func show(_ tab: ResponseTab, _ state: inout AppState) -> String {
        while state.responseTab != tab { tuiPress(&state, .char("]")) }
        return screenText(state)
    }

    @Test func anEchoedSecretIsMaskedInTheBodyRawAndHeadersTabs() throws {
        var state = try echoedState()
        for tab in [ResponseTab.body, .raw, .headers] {
            let screen = show(tab, &state)
            #expect(!screen.contains(Self.secret), "\(tab): \(screen)")
            #expect(!screen.contains("abc123"), "\(tab): a Set-Cookie value is a credential")
        }
        #expect(show(.body, &state).contains(#""Authorization": "Bearer ••••••""#))
        #expect(show(.headers, &state).contains("token ••••••"))
    }

    @Test func aSearchStillCountsWhatTheMaskHides() throws {
        var state = try echoedState()
        _ = show(.body, &state)
        tuiPress(&state, .char("/"))
        tuiType(&state, "s3cr3t")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.body.matches.count == 2, "the bytes are searched as they arrived")
        #expect(!screenText(state).contains(Self.secret))
    }

    @Test func aTokenACaptureKeepsAsSecretIsMaskedOnceChecked() throws {
        var state = try tuiState(width: 100, height: 30)
        let body = #"{"token":"tok-7f3a9c","user":"ada"}"#
        let id = tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: body, contentType: "application/json"))
        #expect(screenText(state).contains("tok-7f3a9c"), "nothing says it is a secret yet")
        var endpoint = Endpoint(name: "Login", path: "/login")
        endpoint.captures = [Capture(name: "session_token", source: .jsonpath("$.token"))]
        let facts = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(body.utf8),
            durationMilliseconds: 9)
        _ = AppReducer.reduce(&state, .checked(exchange: id, endpoint.check(facts)))
        let screen = screenText(state)
        #expect(!screen.contains("tok-7f3a9c"), "\(screen)")
        #expect(screen.contains(#""token": "••••••""#))
        #expect(screen.contains(#""user": "ada""#))
    }

    @Test func aSecretSplitAcrossSpansIsOneMaskInTheStyleWhereItStarts() {
        let masker = SecretMasker(secretValues: ["hunter22"])
        let spans = [Span("pass=hun", role: .text), Span("ter22", Style(.searchMatch)), Span(";", role: .dim)]
        let masked = MaskedTextSource(base: LinesTextSource([spans]), masker: masker).line(0, maxCharacters: 80)
        #expect(masked == [Span("pass=", role: .text), Span(SecretMasker.mask, role: .text), Span(";", role: .dim)])
    }

    @Test func aSecretCutAtTheEdgeOfWhatIsDrawnIsStillMasked() {
        let secret = "abcdefghijklmnop"
        let masker = SecretMasker(secretValues: [secret])
        let line = String(repeating: "x", count: 100) + secret + String(repeating: "y", count: 100)
        let source = BytesTextSource(LineIndex(Data(line.utf8)))
        // The bytes source cuts a line after about four bytes a character asked for: asked for
        // 26, it stops inside the secret; the masked source reads far enough to find it.
        let drawn = MaskedTextSource(base: source, masker: masker).line(0, maxCharacters: 26).plainText
        #expect(drawn.hasPrefix(String(repeating: "x", count: 100) + SecretMasker.mask))
        #expect(!drawn.contains("abcdefgh"))
    }
}
