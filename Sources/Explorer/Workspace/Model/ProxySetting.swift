import Foundation
import NetworkingCore

/// An environment's `proxy:`: the HTTP (or SOCKS5) proxy its requests go through, or none at all.
///
/// ```yaml
/// proxy: http://ada:{{proxy_password}}@proxy.corp:3128
/// proxy: { url: http://proxy.corp:3128, user: ada, password: "{{proxy_password}}", no_proxy: [localhost, .internal] }
/// proxy: none          # directly, even when HTTP_PROXY/HTTPS_PROXY are set
/// ```
///
/// Without `proxy:` the process's `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` apply.
/// Values are templates, expanded when a request is sent; the password (in the URL or in
/// `password:`) is a secret, masked on screen, in history and in exports.
package enum ProxySetting: Sendable, Codable, Hashable {
    /// `proxy: none`.
    case none
    /// A proxy for every request of the environment, except the hosts of `noProxy`.
    case server(Server)

    /// A proxy as the collection writes it (templates not expanded).
    package struct Server: Sendable, Codable, Hashable {
        /// `http://[user[:password]@]host[:port]`.
        package var url: String
        /// The user, besides (or instead of) the URL's.
        package var user: String?
        /// The password, besides (or instead of) the URL's.
        package var password: String?
        /// The hosts reached directly (`NO_PROXY` patterns); `nil`: the process's `NO_PROXY`.
        package var noProxy: [String]?
        /// Where the setting is written. Not part of equality.
        package var location: FileLocation?

        /// Creates a setting.
        package init(
            url: String, user: String? = nil, password: String? = nil, noProxy: [String]? = nil,
            location: FileLocation? = nil
        ) {
            self.url = url
            self.user = user
            self.password = password
            self.noProxy = noProxy
            self.location = location
        }

        package static func == (lhs: Server, rhs: Server) -> Bool {
            lhs.url == rhs.url && lhs.user == rhs.user && lhs.password == rhs.password && lhs.noProxy == rhs.noProxy
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(url)
            hasher.combine(user)
            hasher.combine(password)
            hasher.combine(noProxy)
        }

        /// Whether the setting is written as a bare URL (`proxy: http://…`).
        var isBareURL: Bool { user == nil && password == nil && noProxy == nil }
    }

    /// A proxy URL without its `user:password@`.
    package static func withoutCredentials(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard start <= at else { return url }
        return String(url[..<start]) + String(url[url.index(after: at)...])
    }

    /// The setting's name in a message: `the proxy: of environment "staging"`.
    static func source(environment: String) -> String { "the proxy: of environment \"\(environment)\"" }
}

extension Environment {
    /// The proxy choice of the environment's requests for a transport, its templates expanded:
    /// `nil` without `proxy:` (the transport's own choice, the process's proxy variables).
    ///
    /// - Parameters:
    ///   - overrides: the `--var` overrides (those set with `setOverrides` when `nil`).
    ///   - processEnvironment: the process environment (`{{env.NAME}}`, and `NO_PROXY` when
    ///     the setting has no `no_proxy`).
    /// - Throws: `ResolveError` at the setting's `file:line:column` when a variable is
    ///   undefined or the URL is not an http proxy.
    package func proxyChoice(
        overrides: [String: String]? = nil,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> AsyncHTTPClientTransport.Configuration.Proxy? {
        guard let proxy else { return nil }
        guard case .server(let setting) = proxy else { return AsyncHTTPClientTransport.Configuration.Proxy.none }
        let scope = self.scope(overrides: overrides, processEnvironment: processEnvironment)
        func expand(_ text: String) throws -> String {
            do {
                return try scope.expand(text).text
            } catch {
                throw ResolveError(
                    scopeFailure: error, context: "the proxy of environment \"\(name)\"",
                    at: setting.location ?? location)
            }
        }
        var server: ProxyServer
        do {
            server = try ProxyServer(parsing: try expand(setting.url), source: ProxySetting.source(environment: name))
        } catch let failure as ProxyServer.Failure {
            throw ResolveError.invalidProxy(
                environment: name, reason: "\"\(failure.value)\" is not a proxy URL: \(failure.reason)",
                at: setting.location ?? location)
        }
        if let user = setting.user { server.username = try expand(user) }
        if let password = setting.password { server.password = try expand(password) }
        if server.kind == .socks5, server.username != nil {
            throw ResolveError.invalidProxy(
                environment: name, reason: ProxyServer.socksCredentials, at: setting.location ?? location)
        }
        let noProxy =
            setting.noProxy.map { NoProxyList(entries: $0) }
            ?? NoProxyList(processEnvironment["no_proxy"] ?? processEnvironment["NO_PROXY"] ?? "")
        return .rules(ProxyRules(server: server, noProxy: noProxy))
    }

    /// The proxy's expanded password (in `password:` or the URL), to mask; empty when none.
    func proxySecrets(in scope: VariableScope) -> [String] {
        guard case .server(let setting)? = proxy else { return [] }
        var secrets: [String] = []
        if let password = setting.password, let value = try? scope.expand(password).text { secrets.append(value) }
        if let url = try? scope.expand(setting.url).text,
            let server = try? ProxyServer(parsing: url, source: ""), let password = server.password
        {
            secrets.append(password)
            // The URL's own spelling too, when it is percent-encoded.
            if let at = url.lastIndex(of: "@"), let colon = url[..<at].lastIndex(of: ":") {
                secrets.append(String(url[url.index(after: colon)..<at]))
            }
        }
        return secrets.filter { !$0.isEmpty }
    }
}
