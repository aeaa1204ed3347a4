import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// The Cookies panel (`C`): the active environment's jar, values masked, deleted with `x`/`X`
/// through effects the program performs.
@Suite struct CookiesPanelTests {
    let session = Cookie(
        name: "session", value: "s3cret-session-value", domain: "127.0.0.1", path: "/",
        expires: Date(timeIntervalSince1970: 1_900_000_000), httpOnly: true, sameSite: "Lax")
    let theme = Cookie(name: "theme", value: "dark", domain: "example.com", hostOnly: false, path: "/app", secure: true)

    private func openPanel() throws -> AppState {
        var state = try tuiState(width: 100, height: 30)
        let effects = tuiPress(&state, .char("C"))
        #expect(effects.contains { if case .listCookies("collection:Shop API", "local") = $0 { true } else { false } })
        #expect(screenText(state).contains("Reading the jar"))
        tuiReduce(&state, .cookiesListed(environment: "local", [session, theme], problem: nil))
        return state
    }

    @Test func theListShowsEachCookieWithItsPlaceExpiryAndFlagsButNotItsValue() throws {
        let screen = screenText(try openPanel())
        #expect(screen.contains("Cookies of local"))
        #expect(screen.contains("session=••••••  127.0.0.1/"))
        #expect(screen.contains("until 2030-03-17 17:46  HttpOnly SameSite=Lax"))
        #expect(screen.contains("theme=••••••  .example.com/app"))
        #expect(screen.contains("session  Secure"))
        #expect(!screen.contains("s3cret-session-value") && !screen.contains("dark"))
    }

    @Test func xDeletesTheSelectedCookieAndCapitalXAllOfThem() throws {
        var state = try openPanel()
        tuiPress(&state, .char("j"))
        let one = tuiPress(&state, .char("x"))
        #expect(
            one.contains {
                if case .deleteCookies("collection:Shop API", "local", let only) = $0 { only == theme } else { false }
            })
        #expect(state.message == "Deleted the cookie theme of example.com.")
        tuiReduce(&state, .cookiesListed(environment: "local", [session], problem: nil))
        #expect(!screenText(state).contains("theme="))

        let all = tuiPress(&state, .char("X"))
        #expect(all.contains { if case .deleteCookies(_, "local", nil) = $0 { true } else { false } })
        tuiReduce(&state, .cookiesListed(environment: "local", [], problem: nil))
        #expect(screenText(state).contains("No cookies: none was set in local yet."))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    @Test func aJarThatDoesNotReadIsNamedAndAnEnvironmentWithoutCookiesSaysSo() throws {
        var state = try openPanel()
        tuiReduce(
            &state,
            .cookiesListed(
                environment: "local", [], problem: "The cookies in /s/cookies.json cannot be read; delete the file."))
        #expect(screenText(state).contains("cannot be read"))
        tuiPress(&state, KeyPress(.escape))

        let collection = try CollectionLoader.parse(
            """
            name: c
            environments: [{ name: off, base_url: "http://127.0.0.1:9", cookies: false }]
            endpoints: []
            """, file: "c.yaml")
        var off = AppState(collection: collection, collectionPath: "/tmp/c.yaml")
        #expect(tuiPress(&off, .char("C")).isEmpty)
        #expect(off.message == "Cookies are off in off (cookies: false in the collection).")
    }
}
