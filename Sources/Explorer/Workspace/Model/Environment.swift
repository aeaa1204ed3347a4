import Foundation
import NetworkingCore
import Synchronization

/// One environment of a collection (local, staging, production ...), and the server provider
/// requests are sent through.
///
/// `baseURL` is asked at send time: it expands the `base_url` template with the variables in
/// effect now (command-line overrides set through `setOverrides`, the environment's own, the
/// collection's, `{{env.NAME}}`), so switching or editing the environment reaches every later
/// request without rebuilding a dispatcher. The configuration is immutable; only the
/// overrides (and the collection's redirect setting, set by the loader) change, in a `Mutex`,
/// so the class is safe to share.
package final class Environment: ServerProvider, Sendable, CustomStringConvertible {
    /// The environment's name, unique in its collection.
    package let name: String
    /// The `base_url` template, e.g. `https://api.example.com/v1` or `http://{{host}}/v1`.
    package let baseURLTemplate: String
    /// Whether a request must be confirmed before it is sent (`protected: true`).
    package let isProtected: Bool
    /// The environment's variables, in file order.
    package let variables: [KeyValue]
    /// Headers added to every request sent in this environment (an endpoint's own win).
    package let headers: [KeyValue]
    /// Names of variables whose values are masked on screen and in history.
    package let secrets: [String]
    /// The collection's variables (lower precedence than the environment's).
    let collectionVariables: [KeyValue]
    /// The `.env` file read beside the collection.
    let dotEnv: [String: String]
    /// Where the environment is written, when it came from a file.
    let location: FileLocation?
    /// Where its `base_url` value is written, when it came from a file.
    let baseURLLocation: FileLocation?
    /// The `description:` the user wrote.
    let summary: String?
    /// The `auth:` of requests sent in this environment, unless a folder or endpoint sets its own.
    package let auth: Authentication?
    /// Whether its requests keep and send cookies (`cookies: false` turns the jar off).
    package let keepsCookies: Bool
    /// Its `tls:` settings (files as written: relative ones are read from the collection's folder).
    package let tls: TLSSettings?
    /// Its `proxy:` (templates not expanded), or `nil` for the process's proxy variables.
    package let proxy: ProxySetting?
    /// Its own `allow_insecure_redirects:`, or `nil` when it leaves it to the collection.
    package let insecureRedirects: Bool?
    /// The collection's `allow_insecure_redirects:` (set by the loader).
    package var collectionAllowsInsecureRedirects: Bool {
        get { mutable.withLock { $0.collectionAllowsInsecureRedirects } }
        set { mutable.withLock { $0.collectionAllowsInsecureRedirects = newValue } }
    }
    /// Whether an https URL may redirect to plain http: the environment's setting, else the
    /// collection's, else no.
    package var allowsInsecureRedirects: Bool { insecureRedirects ?? collectionAllowsInsecureRedirects }
    /// Its own `trace:`, or `nil` when it leaves it to the collection (set by the loader).
    package var traces: Bool? {
        get { mutable.withLock { $0.traces } }
        set { mutable.withLock { $0.traces = newValue } }
    }
    /// The collection's `trace:` (set by the loader).
    package var collectionTraces: Bool {
        get { mutable.withLock { $0.collectionTraces } }
        set { mutable.withLock { $0.collectionTraces = newValue } }
    }
    /// Whether its requests send a `traceparent` header: its own `trace:`, else the collection's.
    package var tracesRequests: Bool { traces ?? collectionTraces }
    /// Its `follow_redirects:`, or `nil` when it leaves it to the default (follow).
    package let followRedirects: Bool?
    /// Its `resolve:`, in file order: `host:port` to the IP address connected to instead of
    /// the name's (curl's `--resolve`); the URL, `Host`, cookies and TLS stay the host's.
    package let resolve: [KeyValue]
    /// Its `proxy_tunnel:`: plain http also goes through the proxy in a `CONNECT` tunnel.
    package let proxyTunnel: Bool

    /// What changes after init: the `--var` overrides and the collection's redirect setting.
    private struct Mutable {
        var overrides: [String: String] = [:]
        var collectionAllowsInsecureRedirects = false
        var traces: Bool?
        var collectionTraces = false
    }
    private let mutable = Mutex(Mutable())
    /// The URL of a `base_url` written without templates, read once; `nil` when it has
    /// templates or is not a valid base URL (then `baseURL` expands it and says so each time).
    private let literalBaseURL: URL?

    /// Creates an environment.
    /// This environment, every setting kept, under another name in a collection with these
    /// variables and `.env` values (an import merged into a collection).
    package func moved(named newName: String, collectionVariables: [KeyValue], dotEnv: [String: String]) -> Environment
    {
        Environment(
            name: newName, baseURLTemplate: baseURLTemplate, isProtected: isProtected, variables: variables,
            headers: headers, secrets: secrets, collectionVariables: collectionVariables, dotEnv: dotEnv,
            summary: summary, auth: auth, keepsCookies: keepsCookies, tls: tls, proxy: proxy,
            insecureRedirects: insecureRedirects, followRedirects: followRedirects, resolve: resolve,
            proxyTunnel: proxyTunnel)
    }

    package init(
        name: String,
        baseURLTemplate: String,
        isProtected: Bool = false,
        variables: [KeyValue] = [],
        headers: [KeyValue] = [],
        secrets: [String] = [],
        collectionVariables: [KeyValue] = [],
        dotEnv: [String: String] = [:],
        location: FileLocation? = nil,
        baseURLLocation: FileLocation? = nil,
        summary: String? = nil,
        auth: Authentication? = nil,
        keepsCookies: Bool = true,
        tls: TLSSettings? = nil,
        proxy: ProxySetting? = nil,
        insecureRedirects: Bool? = nil,
        followRedirects: Bool? = nil,
        resolve: [KeyValue] = [],
        proxyTunnel: Bool = false
    ) {
        self.followRedirects = followRedirects
        self.resolve = resolve
        self.proxyTunnel = proxyTunnel
        self.insecureRedirects = insecureRedirects
        self.tls = tls
        self.proxy = proxy
        self.auth = auth
        self.keepsCookies = keepsCookies
        self.baseURLLocation = baseURLLocation
        self.summary = summary
        self.name = name
        self.baseURLTemplate = baseURLTemplate
        self.literalBaseURL = baseURLTemplate.contains("{{") ? nil : Self.baseURL(baseURLTemplate)
        self.isProtected = isProtected
        self.variables = variables
        self.headers = headers
        self.secrets = secrets
        self.collectionVariables = collectionVariables
        self.dotEnv = dotEnv
        self.location = location
    }

    /// The `--var` overrides in effect for `baseURL`.
    var overrides: [String: String] {
        mutable.withLock { $0.overrides }
    }

    /// Sets the command-line overrides used when `baseURL` is asked.
    package func setOverrides(_ overrides: [String: String]) {
        mutable.withLock { $0.overrides = overrides }
    }

    /// The variable scope of this environment now, with the given overrides.
    func scope(
        overrides: [String: String]? = nil, processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) -> VariableScope {
        VariableScope(
            overrides: overrides ?? self.overrides,
            environmentVariables: variables,
            collectionVariables: collectionVariables,
            processEnvironment: processEnvironment,
            dotEnv: dotEnv
        )
    }

    /// A whole URL as a path under this environment's `base_url` as written
    /// (`http://127.0.0.1:8080/v1/echo` → `/echo` when `base_url` is `http://127.0.0.1:8080/v1`),
    /// so that an endpoint saved with it follows the environment; nil when the URL is elsewhere
    /// or `base_url` has templates. Scheme and host compare without case, the path with it.
    ///
    /// - Parameter url: the URL, without its query.
    /// - Returns: the path, starting with `/`.
    package func relativePath(of url: String) -> String? {
        guard !baseURLTemplate.contains("{{") else { return nil }
        func split(_ text: String) -> (origin: String, path: Substring)? {
            guard let scheme = text.range(of: "://") else { return nil }
            let pathStart = text[scheme.upperBound...].firstIndex(of: "/") ?? text.endIndex
            return (text[..<pathStart].lowercased(), text[pathStart...])
        }
        guard let base = split(baseURLTemplate.trimmingCharacters(in: .whitespaces)), let target = split(url) else {
            return nil
        }
        var basePath = base.path
        while basePath.hasSuffix("/") { basePath = basePath.dropLast() }
        guard base.origin == target.origin, target.path.hasPrefix(basePath) else { return nil }
        let rest = target.path.dropFirst(basePath.count)
        if rest.isEmpty { return "/" }
        return rest.hasPrefix("/") ? String(rest) : nil
    }

    /// The base URL with its templates expanded, or `nil` when a variable is undefined or
    /// the result is not an absolute http(s) URL. A `base_url` without templates is read once:
    /// the dispatcher asks at every send, and building a scope (the whole process
    /// environment among it) took a fifth of `explorer load`'s time.
    package var baseURL: URL? {
        if let literalBaseURL { return literalBaseURL }
        return try? resolvedBaseURL(in: scope())
    }

    /// The base URL expanded in a scope.
    ///
    /// - Throws: `ResolveError.undefinedVariable` or `ResolveError.invalidBaseURL`.
    func resolvedBaseURL(in scope: VariableScope) throws -> URL {
        let text: String
        do {
            text = try scope.expand(baseURLTemplate).text
        } catch {
            throw ResolveError(
                scopeFailure: error, context: "the base_url of environment \"\(name)\"", at: baseURLLocation ?? location
            )
        }
        guard let url = Self.baseURL(text) else {
            throw ResolveError.invalidBaseURL(environment: name, url: text, at: baseURLLocation ?? location)
        }
        return url
    }

    /// An expanded `base_url` as a URL, when it is an absolute http(s), ws(s) or grpc(s) one.
    private static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https", "ws", "wss", "grpc", "grpcs"].contains(scheme), url.host != nil
        else { return nil }
        return url
    }

    /// The expanded values of the secret variables and the proxy's password, for masking
    /// (empty values are skipped).
    func secretValues(in scope: VariableScope) -> [String] {
        secrets.compactMap { try? scope.value(of: $0) }.filter { !$0.isEmpty } + proxySecrets(in: scope)
    }

    package var description: String { "\(name) (\(baseURLTemplate))" }
}

extension Environment {
    /// Its `resolve:` as the transport takes it: `host:port` (host in lower case) to address.
    package var resolvedAddresses: [String: String] {
        Dictionary(resolve.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Reads one `resolve` entry: `HOST:PORT` (an IPv6 host in brackets) and an IP address,
    /// as curl's `--resolve HOST:PORT:ADDRESS` takes them.
    ///
    /// - Returns: the entry, or why it cannot be used (a sentence fragment).
    package static func resolveEntry(hostPort: String, address: String) -> Result<KeyValue, ResolveEntryProblem> {
        let hostPort = hostPort.trimmingCharacters(in: .whitespaces)
        let address = address.trimmingCharacters(in: .whitespaces).trimmingCharacters(
            in: CharacterSet(charactersIn: "[]"))
        guard let colon = hostPort.lastIndex(of: ":"), colon != hostPort.startIndex,
            let port = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(port)
        else {
            return .failure(ResolveEntryProblem("\"\(hostPort)\" is not HOST:PORT with a port from 1 to 65535"))
        }
        guard isIPAddress(address) else {
            return .failure(
                ResolveEntryProblem("\"\(address)\" is not an IP address (write 127.0.0.1 or ::1, not a name)"))
        }
        return .success(KeyValue(hostPort, address))
    }

    /// Whether a text is an IPv4 or IPv6 address.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

/// Why a `resolve` entry cannot be used.
package struct ResolveEntryProblem: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

extension Environment {
    /// The environment's `tls:` with its files made absolute (a relative one is in the
    /// collection's folder); `nil` when it has none.
    package func tlsSettings(collectionFile: URL?) -> TLSSettings? {
        guard var tls else { return nil }
        let folder =
            collectionFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        func absolute(_ path: String?) -> String? {
            guard let path else { return nil }
            let expanded = (path as NSString).expandingTildeInPath
            return expanded.hasPrefix("/") ? expanded : folder.appendingPathComponent(expanded).path
        }
        tls.caCertificateFile = absolute(tls.caCertificateFile)
        tls.clientCertificateFile = absolute(tls.clientCertificateFile)
        tls.clientKeyFile = absolute(tls.clientKeyFile)
        return tls
    }
}
