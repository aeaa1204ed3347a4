import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// The Tokens panel (`T`): the active environment's OAuth2 tokens, masked, with their expiry,
/// dropped with `x`/`X` through effects the program performs.
@Suite struct TokensPanelTests {
    let fresh = ListedToken(
        key: "client_credentials http://127.0.0.1:9/oauth/token explorer-demo read ",
        token: OAuth2Token(
            accessToken: "tok-s3cret-access", expiresAt: Date(timeIntervalSince1970: 1_900_000_000),
            refreshToken: "refresh-s3cret"))
    let stale = ListedToken(
        key: "password https://auth.example.com/token cli  ",
        token: OAuth2Token(accessToken: "tok-old", expiresAt: Date(timeIntervalSince1970: 10)))

    private func openPanel() throws -> AppState {
        var state = try tuiState(width: 110, height: 30)
        state.now = Date(timeIntervalSince1970: 1_800_000_000)
        let effects = tuiPress(&state, .char("T"))
        #expect(effects.contains { if case .listTokens("collection:Shop API", "local") = $0 { true } else { false } })
        #expect(screenText(state).contains("Reading the tokens"))
        tuiReduce(&state, .tokensListed(environment: "local", [fresh, stale], problem: nil))
        return state
    }

    @Test func eachTokenShowsItsClientGrantIssuerAndExpiryButNotItself() throws {
        let screen = screenText(try openPanel())
        #expect(screen.contains("OAuth2 tokens of local"))
        #expect(screen.contains("explorer-demo  Bearer ••••••  client_credentials · 127.0.0.1/oauth"))
        #expect(screen.contains("until 2030-03-17 17:46:40  refreshable"))
        #expect(screen.contains("cli  Bearer ••••••  password · auth.example.com/token"))
        #expect(screen.contains("expired"))
        for secret in ["tok-s3cret-access", "refresh-s3cret", "tok-old"] { #expect(!screen.contains(secret)) }
    }

    @Test func xDropsTheSelectedTokenAndCapitalXAllOfThem() throws {
        var state = try openPanel()
        tuiPress(&state, .char("j"))
        let one = tuiPress(&state, .char("x"))
        #expect(
            one.contains {
                if case .dropTokens("collection:Shop API", "local", let only) = $0 { only == stale.key } else { false }
            })
        #expect(state.message == "Dropped the token; the next request obtains a new one.")
        tuiReduce(&state, .tokensListed(environment: "local", [fresh], problem: nil))
        #expect(!screenText(state).contains("auth.example.com"))

        let all = tuiPress(&state, .char("X"))
        #expect(all.contains { if case .dropTokens(_, "local", nil) = $0 { true } else { false } })
        tuiReduce(&state, .tokensListed(environment: "local", [], problem: nil))
        #expect(screenText(state).contains("No tokens: no oauth2 request was sent in local yet."))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }
}
