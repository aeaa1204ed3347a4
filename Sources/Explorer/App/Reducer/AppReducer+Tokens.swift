import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The Tokens panel (`T`): opening it on the active environment, showing the tokens that were
/// read, and its keys.
extension AppReducer {
    /// Opens the Tokens panel of the active environment and asks for its tokens.
    static func openTokens(_ state: inout AppState) -> [AppEffect] {
        guard let environment = state.activeEnvironmentValue else {
            state.message = "This collection has no environments, so no tokens."
            return []
        }
        state.overlay = .tokens(TokensPanel(environment: environment.name))
        return [.listTokens(collection: state.cookieCollectionKey, environment: environment.name)]
    }

    /// An environment's tokens were read (or changed): shown when its panel is still open.
    static func tokensListed(_ environment: String, _ tokens: [ListedToken], problem: String?, _ state: inout AppState)
    {
        guard case .tokens(var panel) = state.overlay, panel.environment == environment else { return }
        panel.show(tokens, problem: problem)
        state.overlay = .tokens(panel)
    }

    /// Keys of the Tokens panel: move, `x` drop one, `X` drop all, Esc/q/T close.
    static func handleTokens(_ press: KeyPress, _ panel: TokensPanel, _ state: inout AppState) -> [AppEffect] {
        switch panel.outcome(of: press, keymap: state.keymap, opener: .tokens) {
        case .close:
            state.overlay = nil
        case .moved(let panel):
            state.overlay = .tokens(panel)
        case .deleteOne(let listed):
            state.message = "Dropped the token; the next request obtains a new one."
            return [
                .dropTokens(collection: state.cookieCollectionKey, environment: panel.environment, only: listed.key)
            ]
        case .deleteAll(let count):
            state.message = "Dropped the \(count) token\(count == 1 ? "" : "s") of \(panel.environment)."
            return [.dropTokens(collection: state.cookieCollectionKey, environment: panel.environment, only: nil)]
        case .ignored:
            break
        }
        return []
    }
}
