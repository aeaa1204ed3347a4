import Foundation
import NetworkingCore
import Workspace

/// An absolute URL taken apart for a collection: the origin becomes an environment's
/// `base_url`, the rest an endpoint's path and query.
struct URLParts: Sendable, Hashable {
    /// `scheme://host[:port]`, or the leading `{{variable}}` of a templated URL.
    var origin: String
    /// The path, starting with `/` (just `/` when the URL has none).
    var path: String
    /// The query as decoded pairs, when every item is `name=value` and encoding the pairs
    /// again gives back exactly the text written (so a signed URL is sent byte for byte);
    /// otherwise empty and the query stays in `path` as written.
    var query: [KeyValue]

    /// Splits a URL; a URL without a scheme is taken as `http://`.
    init(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var origin = ""
        if rest.hasPrefix("{{"), let close = rest.range(of: "}}") {
            origin = String(rest[..<close.upperBound])
            rest = rest[close.upperBound...]
        } else {
            if let scheme = rest.range(of: "://") {
                origin = String(rest[..<scheme.upperBound])
                rest = rest[scheme.upperBound...]
            } else {
                origin = "http://"
            }
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            origin += rest[..<end]
            rest = rest[end...]
        }
        var path = rest
        var queryText: Substring?
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            queryText = rest[rest.index(after: mark)...]
        }
        self.origin = origin
        self.path = path.isEmpty ? "/" : String(path)
        self.query = []
        if let queryText, !queryText.isEmpty {
            if let pairs = URLParts.pairs(String(queryText)) {
                query = pairs
            } else {
                self.path += "?" + queryText
            }
        }
    }

    /// Whether `origin` can be an environment's `base_url`: templated, or an absolute http(s) URL.
    var hasUsableOrigin: Bool {
        if Template.containsVariables(origin) { return true }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Decodes `a=1&b=2` into pairs, or `nil` when an item has no `=`, does not decode, or
    /// would not be sent again as written (`+`, `%7e`, a raw `é` …).
    static func pairs(_ query: String) -> [KeyValue]? {
        var out: [KeyValue] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else { return nil }
            let name = decode(item[..<equals])
            let value = decode(item[item.index(after: equals)...])
            guard let name, let value, !name.isEmpty else { return nil }
            out.append(KeyValue(name, value))
        }
        return out
    }

    /// The decoded text, when encoding it as a query name or value gives `text` back
    /// (`{{variables}}` stay as they are, as the resolver keeps them).
    private static func decode(_ text: Substring) -> String? {
        guard let decoded = text.removingPercentEncoding else { return nil }
        var encoded = ""
        for segment in Template(decoded).segments {
            switch segment {
            case .literal(let literal):
                encoded += PercentEncoding.encode(
                    literal, allowed: PercentEncoding.queryComponentAllowed, keepEscapes: false)
            case .variable(let name): encoded += "{{\(name)}}"
            }
        }
        return encoded == text ? decoded : nil
    }
}
