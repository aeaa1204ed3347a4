import Foundation
import NetworkingCore
import Workspace

/// An environment's OAuth2 tokens as the Tokens panel shows and drops them (kept in the state
/// folder), and the sign-in note of an interactive grant.
package enum OAuth2Tokens {
    /// What the Tokens panel lists for an environment.
    package static func listed(collection: String, environment: String) -> AppAction {
        do {
            let tokens = try OAuth2TokenStore(collection: collection, environment: environment).tokens()
                .map { ListedToken(key: $0.key, token: $0.value) }.sorted { $0.key < $1.key }
            return .tokensListed(environment: environment, tokens, problem: nil)
        } catch {
            return .tokensListed(environment: environment, [], problem: String(describing: error))
        }
    }

    /// Drops the token `only` names (every one when `nil`).
    ///
    /// - Returns: the sentence that says why they were not dropped, or `nil`.
    package static func drop(collection: String, environment: String, only: String?) -> String? {
        do {
            _ = try OAuth2TokenStore(collection: collection, environment: environment).drop(only)
            return nil
        } catch {
            return "The tokens of \"\(environment)\" were not dropped: \(error)"
        }
    }

    /// Shows what the user has to do for an interactive OAuth2 grant, opening the browser when
    /// there is one.
    package static func prompt(send: @escaping @Sendable (AppAction) -> Void) -> @Sendable (OAuth2Prompt) -> Void {
        { prompt in
            // The sentence holds the whole URL (the overlay wraps it), for a terminal without a browser.
            send(
                .showText(
                    title: "OAuth2 sign-in",
                    lines: [
                        prompt.instructions(opened: Browser.open(prompt.url)), "",
                        "The request is sent once the sign-in completes; Esc closes this note.",
                    ]))
        }
    }
}
