import Foundation

/// The names the mock answers in a request's `Host`: this machine's (`127.0.0.1`,
/// `localhost`), and those `--allow-host` adds (`*`: any).
///
/// The mock listens on 127.0.0.1 only, but a web page can still reach it by DNS rebinding:
/// its own name, resolved again to 127.0.0.1, makes the browser send the page's requests to
/// the mock with `Host: that-name:PORT`, and the page reads the answers (the history's
/// recorded responses among them). A name that is not allowed is answered `421 Misdirected
/// Request`, so such a page reads nothing.
package struct MockAllowedHosts: Sendable, Hashable {
    /// The names of this machine, always answered.
    package static let local = ["127.0.0.1", "localhost"]

    /// The names added (lowercased, without a port), `*` for any.
    package private(set) var added: [String]

    /// Creates the set of names.
    ///
    /// - Parameter added: names answered besides this machine's (`api.test`, `*` for any);
    ///   a port written after a name is ignored.
    package init(adding added: [String] = []) {
        self.added = added.map { Self.hostName(of: $0) }.filter { !$0.isEmpty }
    }

    /// Whether a request whose `Host` (or HTTP/2 `:authority`) is `authority` is answered: a
    /// request without one is (an HTTP/1.0 client sends none; a browser always does).
    package func allows(_ authority: String?) -> Bool {
        guard let authority else { return true }
        let name = Self.hostName(of: authority)
        return added.contains("*") || Self.local.contains(name) || added.contains(name)
    }

    /// The host name of `name[:port]` or `[v6]:port`, lowercased, without a final dot.
    static func hostName(of authority: String) -> String {
        var text = Substring(authority.trimmingCharacters(in: .whitespaces).lowercased())
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.lastIndex(of: ":") {
            text = text[..<colon]
        }
        while text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }
}
