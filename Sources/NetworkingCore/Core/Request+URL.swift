import Foundation

extension Request {
    /// Resolves the request against a base URL: the base path is kept, the path and query are
    /// percent-encoded, base query items come first, and an empty query leaves no `?`.
    ///
    /// A `?query` inside `path` is kept and merged with `queryItems`. A `path` that is an
    /// absolute http(s) or grpc(s) URL is sent there, with neither the base path nor the base query.
    ///
    /// - Parameter baseURL: the server's base URL, e.g. `https://api.example.com/v1`.
    /// - Returns: the request with its absolute URL.
    /// - Throws: `TransportError.invalidURL` when no valid URL results.
    public func prepared(baseURL: URL) throws -> PreparedRequest {
        try prepared(on: BaseURLParts(baseURL))
    }

    /// Resolves the request against a base URL taken apart once.
    func prepared(on base: BaseURLParts) throws -> PreparedRequest {
        prepared(at: try url(on: base))
    }

    /// The request sent to `url`, already resolved (the dispatcher reuses the URL it built last).
    func prepared(at url: URL) -> PreparedRequest {
        var prepared = PreparedRequest(method: method, url: url, headers: headers, body: httpBody)
        prepared.originBoundHeaders = originBoundHeaders
        return prepared
    }

    /// The absolute URL of the request on a base URL; see `prepared(baseURL:)`.
    ///
    /// - Parameter baseURL: the base URL.
    /// - Returns: the absolute URL.
    /// - Throws: `TransportError.invalidURL`.
    public func url(relativeTo baseURL: URL) throws -> URL {
        try url(on: BaseURLParts(baseURL))
    }

    /// The absolute URL of the request on a base URL taken apart once.
    func url(on base: BaseURLParts) throws -> URL {
        var requestPath = path
        var origin = base.origin
        var basePath = base.path
        var baseQuery = base.query
        // An absolute http(s) or grpc(s) URL replaces the base, as a reference does in RFC 3986
        // (5.2.2): a collection's endpoint on another server than its environment's.
        // (Only a path that starts with an h or a g is searched: `range(of:)` is the dearest
        // step of building a URL, and most paths start with /.)
        if requestPath.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "h") || $0 | 0x20 == UInt8(ascii: "g") }) == true,
            let scheme = requestPath.range(of: "://"),
            ["http", "https", "grpc", "grpcs"].contains(requestPath[..<scheme.lowerBound].lowercased())
        {
            let end =
                requestPath[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
                ?? requestPath.endIndex
            origin = String(requestPath[..<end])
            basePath = ""
            baseQuery = nil
            requestPath = String(requestPath[end...])
        }
        var pathQuery: String?
        if let mark = requestPath.firstIndex(of: "?") {
            pathQuery = String(requestPath[requestPath.index(after: mark)...])
            requestPath = String(requestPath[..<mark])
        }
        if let hash = requestPath.firstIndex(of: "#") { requestPath = String(requestPath[..<hash]) }

        var relative = Substring(requestPath)
        while relative.hasPrefix("/") { relative.removeFirst() }
        let encoded = PercentEncoding.encode(String(relative), allowed: .path, keepEscapes: true)
        var text = origin
        text +=
            relative.isEmpty && !requestPath.hasPrefix("/")
            ? (basePath.isEmpty ? "/" : basePath)
            : basePath + "/" + encoded

        var queryParts: [String] = []
        if let baseQuery, !baseQuery.isEmpty { queryParts.append(baseQuery) }
        if let pathQuery, !pathQuery.isEmpty {
            queryParts.append(PercentEncoding.encode(pathQuery, allowed: .rawQuery, keepEscapes: true))
        }
        for item in queryItems {
            let name = PercentEncoding.encode(item.name, allowed: .queryComponent, keepEscapes: false)
            if let value = item.value {
                queryParts.append(
                    name + "=" + PercentEncoding.encode(value, allowed: .queryComponent, keepEscapes: false))
            } else {
                queryParts.append(name)
            }
        }
        if !queryParts.isEmpty { text += "?" + queryParts.joined(separator: "&") }
        guard let url = URL(string: text) else {
            throw TransportError.invalidURL(base.url.absoluteString + "/" + path)
        }
        return url
    }
}

/// A base URL taken apart: what every request's URL starts with. A dispatcher keeps the one of
/// the base URL its provider last answered, so that only the request's own part is built per
/// request. A class: every request of a dispatcher carries the same one, and a copy of it is
/// one count, not one for each of its strings.
final class BaseURLParts: Sendable {
    /// The base URL.
    let url: URL
    /// `scheme://user@host:port`, as the base URL spells it.
    let origin: String
    /// The base path, percent-encoded, without a trailing `/`.
    let path: String
    /// The base query, percent-encoded, if any.
    let query: String?

    /// Takes a base URL apart.
    ///
    /// - Throws: `TransportError.invalidURL` when it has no scheme or host.
    init(_ baseURL: URL) throws {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            components.scheme != nil, components.host != nil
        else { throw TransportError.invalidURL(baseURL.absoluteString) }
        url = baseURL
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
        query = components.percentEncodedQuery
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let origin = components.string else { throw TransportError.invalidURL(baseURL.absoluteString) }
        self.origin = origin
    }
}

/// RFC 3986 percent-encoding with explicit allowed sets: what the URL builder uses, public so
/// that code showing a URL before it is sent (with the parts that came from variables marked)
/// encodes it exactly as it will be sent.
public enum PercentEncoding {
    /// Unreserved characters (RFC 3986 §2.3), never encoded.
    public static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    /// Characters left as they are in a path (segments and `/`).
    public static let pathAllowed = unreserved.union("!$&'()*+,;=:@/".utf8)
    /// Characters left as they are in a query written by hand (`a=1&b=2`).
    public static let rawQueryAllowed = unreserved.union("!$&'()*+,;=:@/?".utf8)
    /// Characters left as they are in one query name or value (`&`, `=`, `+`, `#` are encoded).
    public static let queryComponentAllowed = unreserved.union("!$'()*,;:@/?".utf8)

    /// Percent-encodes every byte outside `allowed`; with `keepEscapes`, an existing `%XX`
    /// stays as it is.
    ///
    /// - Parameters:
    ///   - string: the text.
    ///   - allowed: the bytes left as they are.
    ///   - keepEscapes: whether `%XX` already in the text stays (it is encoded as `%25XX` otherwise).
    /// - Returns: the encoded text.
    public static func encode(_ string: String, allowed: Set<UInt8>, keepEscapes: Bool = true) -> String {
        encode(string, keepEscapes: keepEscapes) { allowed.contains($0) }
    }

    /// `encode(_:allowed:keepEscapes:)` with the allowed bytes as a 256-entry table: what the
    /// URL builder uses on every request (a table lookup, not a hash, per byte).
    static func encode(_ string: String, allowed table: ByteTable, keepEscapes: Bool) -> String {
        encode(string, keepEscapes: keepEscapes) { table.contains($0) }
    }

    private static func encode(_ string: String, keepEscapes: Bool, isAllowed: (UInt8) -> Bool) -> String {
        // Most paths and query values need no escape: give them back as they are.
        if string.utf8.allSatisfy(isAllowed) { return string }
        let bytes = Array(string.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isAllowed(byte) {
                out.append(byte)
            } else if keepEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                isHex(bytes[index + 1]), isHex(bytes[index + 2])
            {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Form-encodes one name or value (`application/x-www-form-urlencoded`) as curl's
    /// `--data-urlencode` does: unreserved characters stay, a space becomes `+`, every other
    /// byte is `%XX`. (WHATWG's form encoder also keeps `*` and encodes `~`; servers read both
    /// the same.)
    ///
    /// - Parameter string: the name or value.
    /// - Returns: the encoded text.
    public static func formEncode(_ string: String) -> String {
        encode(string, allowed: ByteTable.formField, keepEscapes: false)
            .replacingOccurrences(of: " ", with: "+")
    }

    /// An `application/x-www-form-urlencoded` body: `name=value` pairs, each side
    /// `formEncode`d, joined by `&` in order (a `nil` value is sent as empty).
    ///
    /// - Parameter fields: the fields, in order.
    /// - Returns: the body text.
    public static func form(_ fields: [URLQueryItem]) -> String {
        fields.map { formEncode($0.name) + "=" + formEncode($0.value ?? "") }.joined(separator: "&")
    }

    /// The fields of `application/x-www-form-urlencoded` text, in order: `+` is a space and
    /// escapes are decoded (an invalid escape is kept as written); a pair without `=` has an
    /// empty value.
    ///
    /// - Parameter text: the text (a form body, or a query written as a form).
    /// - Returns: the names and values.
    package static func formFields(_ text: some StringProtocol) -> [(name: String, value: String)] {
        func decoded(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(Substring(parts[0])), parts.count > 1 ? decoded(Substring(parts[1])) : "")
        }
    }

    /// A set of bytes as a table.
    struct ByteTable: Sendable {
        private var member = [Bool](repeating: false, count: 256)

        init(_ bytes: Set<UInt8>) { for byte in bytes { member[Int(byte)] = true } }

        func contains(_ byte: UInt8) -> Bool { member[Int(byte)] }

        static let path = ByteTable(pathAllowed)
        static let rawQuery = ByteTable(rawQueryAllowed)
        static let queryComponent = ByteTable(queryComponentAllowed)
        static let formField = ByteTable(unreserved.union([UInt8(ascii: " ")]))
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 48 + value : 55 + value
    }
}
