import Foundation
import NetworkingCore
import Yams

/// An environment of a collection file: its base URL, variables, headers, secrets, `auth:`,
/// cookies, `tls:`, `proxy:` and `resolve:`.
extension Reader {
    /// An entry of `environments:` with the collection's settings it inherits: its
    /// `allow_insecure_redirects:` and `trace:`.
    mutating func environment(
        _ node: Node, collectionVariables: [KeyValue], dotEnv: [String: String], allowsInsecureRedirects: Bool,
        traces: Bool
    ) throws -> Environment {
        let environment = try environment(node, collectionVariables: collectionVariables, dotEnv: dotEnv)
        environment.collectionAllowsInsecureRedirects = allowsInsecureRedirects
        environment.collectionTraces = traces
        environment.traces = try node.mapping?.value("trace").map { try flag($0, key: "trace") }
        return environment
    }

    mutating func environment(_ node: Node, collectionVariables: [KeyValue], dotEnv: [String: String]) throws
        -> Environment
    {
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(
                location(node), key: "environments", expected: "a list of mappings with name and base_url")
        }
        guard let nameNode = mapping.value("name") else {
            throw missing(
                "name", in: "this environment", node: node, mapping: mapping, known: CollectionLoader.environmentKeys)
        }
        let name = try string(nameNode, key: "name")
        checkKeys(mapping, known: CollectionLoader.environmentKeys, in: "environment \"\(name)\"")
        guard let baseNode = mapping.value("base_url") else {
            throw missing(
                "base_url", in: "environment \"\(name)\"", node: node, mapping: mapping,
                known: CollectionLoader.environmentKeys)
        }
        let base = try string(baseNode, key: "base_url").trimmingCharacters(in: .whitespaces)
        if !Template.containsVariables(base) {
            let url = URL(string: base)
            let scheme = url?.scheme?.lowercased()
            if url?.host == nil || !["http", "https", "ws", "wss", "grpc", "grpcs"].contains(scheme ?? "") {
                // A warning, so the other environments stay usable; sending here fails clearly.
                warnings.append(
                    CollectionWarning(
                        location: location(baseNode),
                        message:
                            "the base_url of environment \"\(name)\" is \"\(base)\", which is not an absolute http(s), ws(s) or grpc(s) URL; sending in it will fail"
                    ))
            }
        }
        var isProtected = false
        if let node = mapping.value("protected") {
            guard let flag = node.flag else {
                throw CollectionError.wrongType(location(node), key: "protected", expected: "true or false")
            }
            isProtected = flag
        }
        var keepsCookies = true
        if let node = mapping.value("cookies") {
            guard let flag = node.flag else {
                throw CollectionError.wrongType(location(node), key: "cookies", expected: "true or false")
            }
            keepsCookies = flag
        }
        let insecureRedirects = try mapping.value("allow_insecure_redirects").map {
            try flag($0, key: "allow_insecure_redirects")
        }
        let followRedirects = try mapping.value("follow_redirects").map { try flag($0, key: "follow_redirects") }
        let proxyTunnel = try mapping.value("proxy_tunnel").map { try flag($0, key: "proxy_tunnel") } ?? false
        let resolve = try mapping.value("resolve").map { try resolveEntries($0) } ?? []
        let tls = try mapping.value("tls").map { try tlsSettings($0, in: "environment \"\(name)\"") }
        let proxy = try mapping.value("proxy").map { try proxySetting($0, in: "environment \"\(name)\"") }
        var secrets: [String] = []
        if let node = mapping.value("secrets") {
            switch node {
            case .sequence(let sequence): secrets = try sequence.map { try string($0, key: "secrets") }
            case .scalar(let scalar): secrets = [scalar.string]
            default:
                throw CollectionError.wrongType(location(node), key: "secrets", expected: "a list of variable names")
            }
        }
        return Environment(
            name: name,
            baseURLTemplate: base,
            isProtected: isProtected,
            variables: try mapping.value("variables").map { try pairs($0, key: "variables") } ?? [],
            headers: try mapping.value("headers").map { try pairs($0, key: "headers") } ?? [],
            secrets: secrets,
            collectionVariables: collectionVariables,
            dotEnv: dotEnv,
            location: location(node),
            baseURLLocation: location(baseNode),
            summary: try mapping.value("description").map { try string($0, key: "description") },
            auth: try mapping.value("auth").map { try authentication($0, in: "environment \"\(name)\"") },
            keepsCookies: keepsCookies,
            tls: tls,
            proxy: proxy,
            insecureRedirects: insecureRedirects,
            followRedirects: followRedirects,
            resolve: resolve,
            proxyTunnel: proxyTunnel
        )
    }

    /// `resolve: { "host:port": address }`: each key `HOST:PORT`, each value an IP address.
    func resolveEntries(_ node: Node) throws -> [KeyValue] {
        let expected = "a mapping of \"host:port\" to an IP address, e.g. { \"api.example.com:443\": 127.0.0.1 }"
        guard let mapping = node.mapping else {
            throw CollectionError.wrongType(location(node), key: "resolve", expected: expected)
        }
        return try mapping.map { pair in
            let (keyNode, valueNode) = (pair.key, pair.value)
            let hostPort = try string(keyNode, key: "resolve")
            switch Environment.resolveEntry(
                hostPort: hostPort, address: try string(valueNode, key: "resolve.\(hostPort)"))
            {
            case .success(let entry): return entry
            case .failure(let problem):
                throw CollectionError.wrongType(location(keyNode), key: "resolve", expected: "\(expected); \(problem)")
            }
        }
    }

    /// `proxy: URL`, `proxy: { url, user, password, no_proxy }` or `proxy: none`.
    mutating func proxySetting(_ node: Node, in container: String) throws -> ProxySetting {
        let expected =
            "a proxy URL (http://user:password@host:port), none, or a mapping (url, user, password, no_proxy)"
        if case .scalar = node {
            let text = try string(node, key: "proxy").trimmingCharacters(in: .whitespaces)
            if text == "none" { return .none }
            try checkProxyURL(text, at: node)
            return .server(ProxySetting.Server(url: text, location: location(node)))
        }
        guard let mapping = node.mapping else {
            throw CollectionError.wrongType(location(node), key: "proxy", expected: expected)
        }
        checkKeys(mapping, known: CollectionLoader.proxyKeys, in: "the proxy of \(container)")
        guard let urlNode = mapping.value("url") else {
            throw CollectionError.missingKey(location(node), key: "url", in: "the proxy of \(container)")
        }
        var setting = ProxySetting.Server(
            url: try string(urlNode, key: "proxy.url").trimmingCharacters(in: .whitespaces), location: location(urlNode)
        )
        try checkProxyURL(setting.url, at: urlNode, key: "proxy.url")
        setting.user = try mapping.value("user").map { try string($0, key: "proxy.user") }
        setting.password = try mapping.value("password").map { try string($0, key: "proxy.password") }
        if let list = mapping.value("no_proxy") {
            switch list {
            case .sequence(let sequence): setting.noProxy = try sequence.map { try string($0, key: "proxy.no_proxy") }
            case .scalar: setting.noProxy = NoProxyList(try string(list, key: "proxy.no_proxy")).entries
            default:
                throw CollectionError.wrongType(
                    location(list), key: "proxy.no_proxy",
                    expected: "a list of hosts, domains, IP addresses or CIDR ranges (NO_PROXY patterns)")
            }
        }
        return .server(setting)
    }

    /// A proxy URL without `{{templates}}` must read now; one with them is read when sent.
    private func checkProxyURL(_ text: String, at node: Node, key: String = "proxy") throws {
        guard !Template.containsVariables(text) else { return }
        do {
            _ = try ProxyServer(parsing: text, source: key)
        } catch let failure as ProxyServer.Failure {
            throw CollectionError.wrongType(
                location(node), key: key,
                expected:
                    "a proxy URL (http://user:password@host:port) or none; \"\(failure.value)\" cannot be used: \(failure.reason)"
            )
        }
    }

    /// `tls: { ca_cert, client_cert, client_key, client_key_password, insecure, min_version }`.
    mutating func tlsSettings(_ node: Node, in container: String) throws -> TLSSettings {
        guard let mapping = node.mapping else {
            throw CollectionError.wrongType(
                location(node), key: "tls",
                expected: "a mapping (ca_cert, client_cert, client_key, client_key_password, insecure, min_version)")
        }
        checkKeys(mapping, known: CollectionLoader.tlsKeys, in: "the tls of \(container)")
        var settings = TLSSettings()
        settings.caCertificateFile = try mapping.value("ca_cert").map { try string($0, key: "tls.ca_cert") }
        settings.clientCertificateFile = try mapping.value("client_cert").map { try string($0, key: "tls.client_cert") }
        settings.clientKeyFile = try mapping.value("client_key").map { try string($0, key: "tls.client_key") }
        settings.clientKeyPassword = try mapping.value("client_key_password").map {
            try string($0, key: "tls.client_key_password")
        }
        if let flag = mapping.value("insecure") {
            guard let value = flag.flag else {
                throw CollectionError.wrongType(location(flag), key: "tls.insecure", expected: "true or false")
            }
            settings.insecure = value
        }
        if let version = mapping.value("min_version") {
            let text = try string(version, key: "tls.min_version")
            guard let value = TLSSettings.Version(rawValue: text) else {
                throw CollectionError.wrongType(
                    location(version), key: "tls.min_version", expected: "\"1.2\" or \"1.3\"")
            }
            settings.minimumVersion = value
        }
        if (settings.clientCertificateFile == nil) != (settings.clientKeyFile == nil) {
            throw CollectionError.wrongType(
                location(node), key: "tls",
                expected: "client_cert and client_key together (one was given without the other)")
        }
        return settings
    }
}
