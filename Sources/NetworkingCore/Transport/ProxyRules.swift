import Foundation

/// Which proxy each request goes through: one for http URLs, one for https (and ws/wss), and
/// the hosts reached directly.
///
/// `environment(_:)` reads them as curl does: `http_proxy`/`HTTP_PROXY` for http,
/// `https_proxy`/`HTTPS_PROXY` for https, `all_proxy`/`ALL_PROXY` when those are unset, and
/// `no_proxy`/`NO_PROXY` (the lowercase name first). A variable that names no usable proxy
/// fails the requests that would use it with a sentence naming the variable.
public struct ProxyRules: Sendable, Hashable {
    /// The proxy of http and ws URLs, or why the one given cannot be used.
    public var http: Result<ProxyServer, ProxyServer.Failure>?
    /// The proxy of https and wss URLs, or why the one given cannot be used.
    public var https: Result<ProxyServer, ProxyServer.Failure>?
    /// The hosts reached without a proxy.
    public var noProxy: NoProxyList

    /// Creates rules.
    public init(
        http: Result<ProxyServer, ProxyServer.Failure>? = nil, https: Result<ProxyServer, ProxyServer.Failure>? = nil,
        noProxy: NoProxyList = NoProxyList(entries: [])
    ) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// One proxy for every URL, except the hosts of `noProxy`.
    public init(server: ProxyServer, noProxy: NoProxyList = NoProxyList(entries: [])) {
        self.init(http: .success(server), https: .success(server), noProxy: noProxy)
    }

    /// The rules the proxy variables of a process environment give; `nil` when none is set.
    ///
    /// - Parameter variables: the process environment.
    /// - Returns: the rules, or `nil` when no proxy variable is set.
    public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> ProxyRules? {
        func first(_ names: [String]) -> (name: String, value: String)? {
            for name in names {
                if let value = variables[name], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        func server(_ names: [String]) -> Result<ProxyServer, ProxyServer.Failure>? {
            guard let found = first(names) ?? first(["all_proxy", "ALL_PROXY"]) else { return nil }
            let source = "the \(found.name) variable"
            do {
                return .success(try ProxyServer(parsing: found.value, source: source))
            } catch let failure as ProxyServer.Failure {
                return .failure(failure)
            } catch {
                return .failure(
                    ProxyServer.Failure(source: source, value: found.value, reason: String(describing: error)))
            }
        }
        let http = server(["http_proxy", "HTTP_PROXY"])
        let https = server(["https_proxy", "HTTPS_PROXY"])
        guard http != nil || https != nil else { return nil }
        return ProxyRules(http: http, https: https, noProxy: NoProxyList(first(["no_proxy", "NO_PROXY"])?.value ?? ""))
    }

    /// The proxy a request to this URL goes through, or `nil` to go directly.
    ///
    /// - Parameter url: the request's URL.
    /// - Returns: the proxy, or `nil`.
    /// - Throws: `ProxyServer.Failure` when the setting for the URL's scheme cannot be used.
    public func proxy(for url: URL) throws -> ProxyServer? {
        let secure = ["https", "wss"].contains(url.scheme?.lowercased() ?? "")
        guard let choice = secure ? https : http, !noProxy.matches(url) else { return nil }
        return try choice.get()
    }
}
