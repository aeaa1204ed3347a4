import Foundation
import NetworkingCore
import Terminal
import Workspace

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
            [
                Span(client, role: .title), Span("  \(listed.token.tokenType) " + SecretMasker.mask, role: .dim),
                Span("  \(grant) · \(issuer)"),
            ],
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

/// Draws the Tokens panel.
enum TokensView {
    static func render(_ panel: TokensPanel, state: AppState, into grid: inout CellGrid) {
        panel.render(
            title: "OAuth2 tokens of \(panel.environment) · x drops · X drops all · Esc closes",
            reading: "Reading the tokens…",
            empty: "No tokens: no oauth2 request was sent in \(panel.environment) yet.", into: &grid
        ) { TokensPanel.row($0, now: state.now, timeZone: state.timeZone) }
    }
}
