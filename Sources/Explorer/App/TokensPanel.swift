import Foundation
import NetworkingCore
import Terminal
import Workspace

/// One OAuth2 token of an environment, as the Tokens panel lists it.
package struct ListedToken: Sendable, Hashable {
    /// The key it is cached under (`OAuth2Configuration.cacheKey`).
    package var key: String
    /// The token.
    package var token: OAuth2Token
}

/// The Tokens panel (`T`): the active environment's OAuth2 tokens, masked, with their expiry;
/// `x` drops the selected one (the next request obtains a new one), `X` all of them.
typealias TokensPanel = KeptItemsPanel<ListedToken>

extension TokensPanel {
    /// One row: the grant and client, the masked token, where it came from, until when.
    static func row(_ listed: ListedToken, now: Date, timeZone: TimeZone) -> ListItem {
        // The key is "grant token_url client_id scope audience".
        let parts = listed.key.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let grant = parts.first ?? "oauth2"
        let client = parts.count > 2 ? parts[2] : ""
        let issuer = parts.count > 1 ? (URL(string: parts[1]).map { ($0.host ?? "") + $0.path } ?? parts[1]) : ""
        var trailing = expiry(listed.token.expiresAt, now: now, timeZone: timeZone)
        if listed.token.refreshToken != nil { trailing += "  refreshable" }
        return ListItem(
            [Span(client, role: .title), Span("  \(listed.token.tokenType) " + SecretMasker.mask, role: .dim), Span("  \(grant) · \(issuer)")],
            trailing: [Span(trailing, role: listed.token.isFresh(at: now, margin: 0) ? .dim : .warning)])
    }

    /// `expired`, or until when (in the user's zone); `no expiry` when the server gave none.
    static func expiry(_ date: Date?, now: Date, timeZone: TimeZone) -> String {
        guard let date else { return "no expiry" }
        guard date > now else { return "expired" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return "until " + formatter.string(from: date)
    }
}

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
    static func tokensListed(_ environment: String, _ tokens: [ListedToken], problem: String?, _ state: inout AppState) {
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
            return [.dropTokens(collection: state.cookieCollectionKey, environment: panel.environment, only: listed.key)]
        case .deleteAll(let count):
            state.message = "Dropped the \(count) token\(count == 1 ? "" : "s") of \(panel.environment)."
            return [.dropTokens(collection: state.cookieCollectionKey, environment: panel.environment, only: nil)]
        case .ignored:
            break
        }
        return []
    }
}

/// Draws the Tokens panel.
enum TokensView {
    static func render(_ panel: TokensPanel, state: AppState, into grid: inout CellGrid) {
        panel.render(
            title: "OAuth2 tokens of \(panel.environment) · x drops · X drops all · Esc closes", reading: "Reading the tokens…",
            empty: "No tokens: no oauth2 request was sent in \(panel.environment) yet.", into: &grid
        ) { TokensPanel.row($0, now: state.now, timeZone: state.timeZone) }
    }
}
