import Foundation

/// A proxy: where it listens, how it is spoken to, the credentials it wants, and the setting
/// it came from.
///
/// Requests reach their server through an HTTP proxy as curl sends them: https tunnelled with
/// `CONNECT`, plain http in absolute form (`GET http://host:port/path`); the credentials go to
/// the proxy as `Proxy-Authorization: Basic …`, never to the server. A SOCKS5 proxy
/// (`socks5://`, `socks5h://`) is spoken to without authentication, and resolves the server's
/// name itself. `source` names the setting a person would fix (`the HTTPS_PROXY variable`,
/// `the proxy: of environment "staging"`), so an error can say where the proxy came from.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How the proxy is spoken to.
    public enum Kind: String, Sendable, Hashable {
        /// An HTTP proxy (`CONNECT` for https, absolute form for http), with optional Basic
        /// credentials.
        case http
        /// A SOCKS5 proxy, without authentication.
        case socks5
    }

    /// How the proxy is spoken to.
    public var kind: Kind
    /// The proxy's host name or IP address (an IPv6 address without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name of the proxy's Basic authentication.
    public var username: String?
    /// The password of the proxy's Basic authentication.
    public var password: String?
    /// The setting the proxy came from, as a person would look for it.
    public var source: String

    /// The port a proxy URL without one gets (curl's).
    public static let defaultPort = 1080

    /// Creates a proxy.
    public init(
        host: String, port: Int, username: String? = nil, password: String? = nil, source: String = "the proxy setting",
        kind: Kind = .http
    ) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.source = source
    }

    /// A proxy URL that cannot be used, with why.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The setting the value came from.
        public var source: String
        /// The value, its password masked.
        public var value: String
        /// Why it cannot be used.
        public var reason: String

        public var description: String { "\(source) is \"\(value)\", which cannot be used as a proxy: \(reason)." }
    }

    /// Reads a proxy URL as curl does: `http://user:password@host:port`, `socks5://host:port`,
    /// `host:port` or `host` (http and port 1080 when not given); user and password are
    /// percent-decoded.
    ///
    /// - Parameters:
    ///   - text: the URL.
    ///   - source: the setting it came from.
    /// - Throws: `Failure` for another scheme than http, socks5 and socks5h, SOCKS5 with
    ///   credentials, no host, or a bad port.
    public init(parsing text: String, source: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func fail(_ reason: String) -> Failure {
            Failure(source: source, value: ProxyServer.masking(trimmed), reason: reason)
        }
        var rest = Substring(trimmed)
        var kind = Kind.http
        if let separator = rest.range(of: "://") {
            let scheme = rest[..<separator.lowerBound].lowercased()
            switch scheme {
            case "http": break
            case "socks5", "socks5h": kind = .socks5
            case "https":
                throw fail(
                    "a proxy reached over TLS (https://) is not supported; "
                        + "use http:// (requests to https servers are still encrypted end to end through it)"
                )
            default:
                throw fail("only http:// and socks5:// proxies are supported, not \(scheme)://")
            }
            rest = rest[separator.upperBound...]
        }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                username = String(userInfo[..<colon]).removingPercentEncoding ?? String(userInfo[..<colon])
                let secret = userInfo[userInfo.index(after: colon)...]
                password = String(secret).removingPercentEncoding ?? String(secret)
            } else {
                username = String(userInfo).removingPercentEncoding ?? String(userInfo)
            }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("the IPv6 address has no closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw fail("text follows the IPv6 address")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw fail("it names no host") }
        var port = Self.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw fail("the port \"\(portText)\" is not a number from 1 to 65535")
            }
            port = number
        }
        if kind == .socks5, username != nil { throw fail(Self.socksCredentials) }
        self.init(host: String(host), port: port, username: username, password: password, source: source, kind: kind)
    }

    /// Why a SOCKS5 proxy cannot take a user and password.
    public static let socksCredentials =
        "a SOCKS5 proxy with a user and password is not supported (SOCKS5 without authentication only); "
        + "use an http:// proxy for Basic credentials"

    /// The proxy as a URL with its password masked (`http://ada:••••••@proxy:3128`), for
    /// messages and displays.
    public var description: String {
        var text = kind.rawValue + "://"
        if let username {
            text += username
            if password != nil { text += ":" + Self.mask }
            text += "@"
        }
        return text + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// The `Proxy-Authorization` value for the credentials, or `nil` without a user name (or
    /// for SOCKS5).
    public var authorizationHeader: String? {
        guard kind == .http, let username else { return nil }
        return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
    }

    /// What identifies the connections made through this proxy (not where it came from).
    struct Endpoint: Hashable {
        let kind: Kind
        let host: String
        let port: Int
        let username: String?
        let password: String?
    }

    var endpoint: Endpoint {
        Endpoint(kind: kind, host: host.lowercased(), port: port, username: username, password: password)
    }

    /// What a masked password is shown as.
    static let mask = "••••••"

    /// A proxy URL as written, with the password of its user info masked.
    static func masking(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        guard start < at, let colon = text[start..<at].firstIndex(of: ":") else { return text }
        return String(text[...colon]) + mask + String(text[at...])
    }
}
