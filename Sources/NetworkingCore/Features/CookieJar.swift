import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One cookie as RFC 6265 stores it: what `Set-Cookie` said, resolved against the URL that
/// set it (§5.3).
public struct Cookie: Sendable, Hashable, Codable {
    /// The cookie's name.
    public var name: String
    /// Its value, as the server sent it.
    public var value: String
    /// The host it belongs to (lowercased, without a leading dot).
    public var domain: String
    /// Whether only `domain` itself gets it (no `Domain` attribute), not its subdomains.
    public var hostOnly: Bool
    /// The path it is sent under (`/` and below when the server said `/`).
    public var path: String
    /// When it expires; `nil` for a session cookie (kept until the jar is cleared).
    public var expires: Date?
    /// Sent over https only.
    public var secure: Bool
    /// Not for scripts (kept and shown; a terminal client sends it like any other).
    public var httpOnly: Bool
    /// The `SameSite` attribute as written (`Strict`, `Lax`, `None`), kept and shown.
    public var sameSite: String?
    /// When it was first stored (orders cookies of equal path length, §5.4).
    public var created: Date

    /// Creates a cookie.
    public init(
        name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/", expires: Date? = nil,
        secure: Bool = false, httpOnly: Bool = false, sameSite: String? = nil, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.created = created
    }

    /// Whether it has expired at `now`.
    public func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether a request to `url` carries it (§5.4: host, path, `Secure`).
    public func matches(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let hostMatches = hostOnly ? host == domain : Cookie.domain(host, matches: domain)
        let secureMatches = !secure || Cookie.isSecureChannel(url)
        let requestPath = Cookie.requestPath(of: url)
        return hostMatches && secureMatches && Cookie.path(requestPath.isEmpty ? "/" : requestPath, matches: path)
    }

    /// Whether `Secure` cookies may travel to `url`: https (wss for a WebSocket), or the
    /// machine itself, as RFC 6265bis, browsers and curl treat loopback: an address of
    /// 127.0.0.0/8 or `::1`, read as an address (`127.evil.example` is a name, not loopback),
    /// or the names `localhost` and `*.localhost`, which resolve to loopback only.
    static func isSecureChannel(_ url: URL) -> Bool {
        if ["https", "wss"].contains(url.scheme?.lowercased() ?? "") { return true }
        let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host.hasSuffix(".localhost") || isLoopbackAddress(host)
    }

    /// Whether a host is a loopback address written as one: IPv4 127.0.0.0/8 in dotted
    /// decimal, or IPv6 `::1`, as `inet_pton` reads them.
    static func isLoopbackAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
    }

    /// §5.1.3: `host` is `domain` or a subdomain of it (never an IP address's "subdomain").
    static func domain(_ host: String, matches domain: String) -> Bool {
        host == domain
            || (host.hasSuffix("." + domain) && !host.allSatisfy { $0.isNumber || $0 == "." } && !host.contains(":"))
    }

    /// §5.1.4: the request path is the cookie path, or below it.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        requestPath == cookiePath
            || (requestPath.hasPrefix(cookiePath)
                && (cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"))
    }

    /// The URL's path as it goes on the request line: percent-encoded, with its trailing `/`
    /// (`URL.path` drops it, and `/a/b/` must match a cookie of `Path=/a/b/`).
    static func requestPath(of url: URL) -> String {
        url.path(percentEncoded: true)
    }

    /// §5.1.4: the default path of a URL: its path up to, not including, the last `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }
}

/// The cookies of one environment: `Set-Cookie` stored as RFC 6265 says (§5.2 parsing, §5.3
/// storage), the `Cookie` header of a request built from them (§5.4).
///
/// Bounded: at most `maximumPerDomain` cookies per domain and `maximumCount` in all (the
/// oldest go first), each at most 4096 bytes of name and value (a bigger one is ignored).
/// Safe to share between requests.
public final class CookieJar: Sendable {
    /// Cookies kept per domain at most (RFC 6265 §6.1 asks for at least 50).
    public let maximumPerDomain: Int
    /// Cookies kept in all at most (§6.1: at least 3000).
    public let maximumCount: Int
    /// The largest name and value, in bytes, a cookie may have (§6.1: at least 4096).
    public static let maximumCookieSize = 4096
    private let stored: Locked<[Cookie]>
    private let changes = Locked(0)

    /// How many times `store` or `remove` changed the jar: compare two readings to know
    /// whether it needs saving.
    public var revision: Int { changes.withLock { $0 } }

    /// Creates a jar.
    ///
    /// - Parameters:
    ///   - cookies: cookies kept from before (a file).
    ///   - maximumPerDomain: cookies kept per domain at most.
    ///   - maximumCount: cookies kept in all at most.
    public init(cookies: [Cookie] = [], maximumPerDomain: Int = 50, maximumCount: Int = 3000) {
        self.maximumPerDomain = maximumPerDomain
        self.maximumCount = maximumCount
        self.stored = Locked(cookies)
    }

    /// The cookies not expired at `now`, in the order they were stored.
    public func cookies(at now: Date = Date()) -> [Cookie] {
        stored.withLock { $0.filter { !$0.isExpired(at: now) } }
    }

    /// Removes the cookies a predicate picks (all of them by default).
    public func remove(where predicate: (Cookie) -> Bool = { _ in true }) {
        stored.withLock { $0.removeAll(where: predicate) }
        changes.withLock { $0 += 1 }
    }

    /// Stores what a response's `Set-Cookie` fields say.
    ///
    /// - Parameters:
    ///   - setCookie: every `Set-Cookie` value of the response.
    ///   - url: the URL that answered (after redirects).
    ///   - now: the time expiry is counted from.
    /// - Returns: whether anything changed.
    @discardableResult
    public func store(setCookie values: [String], from url: URL, now: Date = Date()) -> Bool {
        let parsed = values.compactMap { Self.parse($0, from: url, now: now) }
        guard !parsed.isEmpty else { return false }
        defer { changes.withLock { $0 += 1 } }
        stored.withLock { cookies in
            for cookie in parsed {
                var cookie = cookie
                if let index = cookies.firstIndex(where: {
                    $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
                }) {
                    cookie.created = cookies[index].created
                    cookies.remove(at: index)
                }
                // An expiry in the past is how a server deletes a cookie (§5.3 step 11).
                guard !cookie.isExpired(at: now) else { continue }
                cookies.append(cookie)
            }
            cookies.removeAll { $0.isExpired(at: now) }
            for domain in Set(cookies.map(\.domain)) {
                let inDomain = cookies.filter { $0.domain == domain }
                if inDomain.count > maximumPerDomain {
                    let dropped = Set(
                        inDomain.sorted { $0.created < $1.created }.prefix(inDomain.count - maximumPerDomain).map(
                            Key.init))
                    cookies.removeAll { dropped.contains(Key($0)) }
                }
            }
            if cookies.count > maximumCount {
                cookies = Array(cookies.sorted { $0.created < $1.created }.suffix(maximumCount))
            }
        }
        return true
    }

    /// The `Cookie` value for a request to `url`: matching cookies, longest path first, then
    /// oldest first (§5.4); `nil` when none matches.
    public func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let matching = cookies(at: now).enumerated().filter { $0.element.matches(url) }.sorted { a, b in
            if a.element.path.count != b.element.path.count { return a.element.path.count > b.element.path.count }
            return a.element.created != b.element.created ? a.element.created < b.element.created : a.offset < b.offset
        }
        return matching.isEmpty
            ? nil : matching.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    private struct Key: Hashable {
        let name: String, domain: String, path: String
        init(_ cookie: Cookie) { (name, domain, path) = (cookie.name, cookie.domain, cookie.path) }
    }

    /// §5.2 and §5.3: one `Set-Cookie` value, or `nil` when a user agent ignores it (no `=`,
    /// empty name, too big, a `Domain` the URL's host is not in or that is a public suffix,
    /// `Secure` from http).
    static func parse(_ value: String, from url: URL, now: Date) -> Cookie? {
        guard let host = url.host?.lowercased() else { return nil }
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let cookieValue = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + cookieValue.utf8.count <= maximumCookieSize else { return nil }
        var cookie = Cookie(
            name: name, value: cookieValue, domain: host, path: Cookie.defaultPath(of: url), created: now)
        var maxAge: Date?
        var expires: Date?
        var domainAttribute: String?
        for attribute in parts {
            let equals = attribute.firstIndex(of: "=")
            let key = (equals.map { String(attribute[..<$0]) } ?? attribute).trimmingCharacters(in: .whitespaces)
                .lowercased()
            let argument =
                equals.map { attribute[attribute.index(after: $0)...].trimmingCharacters(in: .whitespaces) } ?? ""
            switch key {
            case "expires": expires = CookieDate.parse(argument) ?? expires
            case "max-age":
                if let seconds = Int(argument) {
                    maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(seconds))
                }
            case "domain":
                // The last non-empty Domain is the one that counts (§5.3 step 4, "the last
                // attribute in the cookie-attribute-list"), so it is checked after the loop.
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                if !domain.isEmpty { domainAttribute = domain }
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : Cookie.defaultPath(of: url)
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            case "samesite": cookie.sameSite = argument.isEmpty ? nil : argument
            default: continue
            }
        }
        if let domain = domainAttribute {
            guard Cookie.domain(host, matches: domain) else { return nil }
            // §5.3 step 5: a public suffix (`com`, `co.uk`, `github.io`, by the Public Suffix
            // List) would reach every site under it: refused, unless it is the host itself,
            // whose cookie it then is alone.
            if PublicSuffixList.shared.isPublicSuffix(domain) {
                guard domain == host else { return nil }
            } else {
                cookie.domain = domain
                cookie.hostOnly = false
            }
        }
        cookie.expires = maxAge ?? expires
        // A secure cookie set over plain http would let a network attacker plant it (RFC 6265bis).
        if cookie.secure, !Cookie.isSecureChannel(url) { return nil }
        return cookie
    }
}

/// The dates of `Expires` (RFC 6265 §5.1.1), in the forms servers send: IMF-fixdate, RFC 850
/// and asctime.
enum CookieDate {
    static func parse(_ text: String) -> Date? {
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz",
            "EEE MMM d HH:mm:ss yyyy",
        ] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
