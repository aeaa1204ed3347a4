import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The Cookies panel (`C`): opening it on the active environment, showing the jar that was
/// read, and its keys.
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
