import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The Cookies panel (`C`): the active environment's cookie jar, values masked; `x` deletes
/// the selected cookie, `X` all of them.
typealias CookiesPanel = KeptItemsPanel<Cookie>

extension CookiesPanel {
    /// One row: name, masked value, where it goes, until when, its flags.
    static func row(_ cookie: Cookie, timeZone: TimeZone) -> ListItem {
        var flags: [String] = []
        if cookie.secure { flags.append("Secure") }
        if cookie.httpOnly { flags.append("HttpOnly") }
        if let sameSite = cookie.sameSite { flags.append("SameSite=\(sameSite)") }
        let place = (cookie.hostOnly ? "" : ".") + cookie.domain + cookie.path
        return ListItem(
            [Span(cookie.name, role: .title), Span("=" + SecretMasker.mask, role: .dim), Span("  " + place)],
            trailing: [Span(expiry(cookie.expires, timeZone: timeZone) + (flags.isEmpty ? "" : "  " + flags.joined(separator: " ")), role: .dim)])
    }

    /// `session` or the expiry date and time, in the user's zone.
    static func expiry(_ date: Date?, timeZone: TimeZone) -> String {
        guard let date else { return "session" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return "until " + formatter.string(from: date)
    }
}

extension AppReducer {
    /// Opens the Cookies panel of the active environment and asks for its jar.
    static func openCookies(_ state: inout AppState) -> [AppEffect] {
        guard let environment = state.activeEnvironmentValue else {
            state.message = "This collection has no environments, so no cookies."
            return []
        }
        guard environment.keepsCookies else {
            state.message = "Cookies are off in \(environment.name) (cookies: false in the collection)."
            return []
        }
        state.overlay = .cookies(CookiesPanel(environment: environment.name))
        return [.listCookies(collection: state.cookieCollectionKey, environment: environment.name)]
    }

    /// A jar was read (or changed): shown when its panel is still open.
    static func cookiesListed(_ environment: String, _ cookies: [Cookie], problem: String?, _ state: inout AppState) {
        guard case .cookies(var panel) = state.overlay, panel.environment == environment else { return }
        panel.show(cookies, problem: problem)
        state.overlay = .cookies(panel)
    }

    /// Keys of the Cookies panel: move, `x` delete one, `X` delete all, Esc/q/C close.
    static func handleCookies(_ press: KeyPress, _ panel: CookiesPanel, _ state: inout AppState) -> [AppEffect] {
        switch panel.outcome(of: press, keymap: state.keymap, opener: .cookies) {
        case .close:
            state.overlay = nil
        case .moved(let panel):
            state.overlay = .cookies(panel)
        case .deleteOne(let cookie):
            state.message = "Deleted the cookie \(cookie.name) of \(cookie.domain)."
            return [.deleteCookies(collection: state.cookieCollectionKey, environment: panel.environment, only: cookie)]
        case .deleteAll(let count):
            state.message = "Deleted the \(count) cookie\(count == 1 ? "" : "s") of \(panel.environment)."
            return [.deleteCookies(collection: state.cookieCollectionKey, environment: panel.environment, only: nil)]
        case .ignored:
            break
        }
        return []
    }
}

extension AppState {
    /// The key the collection's cookie jars are kept under (as `ResolvedRequest.collectionKey`).
    var cookieCollectionKey: String {
        collection?.storeKey ?? collectionPath
    }
}

/// Draws the Cookies panel.
enum CookiesView {
    static func render(_ panel: CookiesPanel, state: AppState, into grid: inout CellGrid) {
        panel.render(
            title: "Cookies of \(panel.environment) · x deletes · X deletes all · Esc closes", reading: "Reading the jar…",
            empty: "No cookies: none was set in \(panel.environment) yet.", into: &grid
        ) { CookiesPanel.row($0, timeZone: state.timeZone) }
    }
}
