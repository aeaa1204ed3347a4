import Foundation
import NetworkingCore
import Terminal
import Workspace

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
            trailing: [
                Span(
                    expiry(cookie.expires, timeZone: timeZone)
                        + (flags.isEmpty ? "" : "  " + flags.joined(separator: " ")), role: .dim)
            ])
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

/// Draws the Cookies panel.
enum CookiesView {
    static func render(_ panel: CookiesPanel, state: AppState, into grid: inout CellGrid) {
        panel.render(
            title: "Cookies of \(panel.environment) · x deletes · X deletes all · Esc closes",
            reading: "Reading the jar…",
            empty: "No cookies: none was set in \(panel.environment) yet.", into: &grid
        ) { CookiesPanel.row($0, timeZone: state.timeZone) }
    }
}
