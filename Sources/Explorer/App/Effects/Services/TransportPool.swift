import Foundation
import NetworkingCore
import Synchronization
import Workspace

/// The HTTP clients of a session: one shared, and one per environment whose `tls:`, `proxy:`,
/// `resolve:` or `proxy_tunnel:` make it differ, each made once and shut down with the session.
package final class TransportPool: Sendable {
    /// What makes an environment's transport differ from the shared one.
    private struct Key: Hashable {
        let tls: TLSSettings?
        let proxy: AsyncHTTPClientTransport.Configuration.Proxy?
        let resolve: [String: String]
        let proxyTunnel: Bool
    }

    /// The transport of every environment that needs nothing of its own.
    package let shared: AsyncHTTPClientTransport
    /// The collection file, which relative `tls:` paths are read from.
    private let collectionFile: URL?
    private let made = Mutex<[Key: AsyncHTTPClientTransport]>([:])

    package init(shared: AsyncHTTPClientTransport, collectionPath: String?) {
        self.shared = shared
        collectionFile = collectionPath.map { URL(fileURLWithPath: $0) }
    }

    /// The transport of an environment: the shared one, or one with its `tls:` settings and
    /// its `proxy:` (templates expanded now, with the environment's overrides).
    ///
    /// - Throws: `TLSSettings.Failure` when a file of its `tls:` does not read;
    ///   `ResolveError` when its `proxy:` does not expand to a usable proxy.
    package func transport(for environment: Environment) throws -> AsyncHTTPClientTransport {
        let key = Key(
            tls: environment.tlsSettings(collectionFile: collectionFile), proxy: try environment.proxyChoice(),
            resolve: environment.resolvedAddresses, proxyTunnel: environment.proxyTunnel)
        guard key.tls != nil || key.proxy != nil || !key.resolve.isEmpty || key.proxyTunnel else { return shared }
        if let existing = made.withLock({ $0[key] }) { return existing }
        var configuration = shared.configuration
        if let settings = key.tls { try configuration.apply(settings) }
        if let proxy = key.proxy { configuration.proxy = proxy }
        configuration.resolve = key.resolve
        configuration.proxyTunnel = key.proxyTunnel
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        // Made outside the lock (it starts event loops); the first one kept wins a race.
        let (kept, isSpare) = made.withLock { made -> (AsyncHTTPClientTransport, Bool) in
            if let existing = made[key] { return (existing, true) }
            made[key] = transport
            return (transport, false)
        }
        if isSpare { Task { try? await transport.shutdown() } }
        return kept
    }

    /// Which proxy a request to `url` goes through, as the Request pane says it; `nil` when it
    /// goes directly or the environment's `proxy:` cannot be used (sending says why).
    package func proxyNote(for environment: Environment, url: String) -> String? {
        guard let url = URL(string: url), let transport = try? transport(for: environment),
            let proxy = try? transport.proxy(for: url)
        else { return nil }
        return "via proxy \(proxy) (\(proxy.source))"
    }

    /// Closes every client; call once no request is in flight.
    package func shutdown() async {
        try? await shared.shutdown()
        for transport in made.withLock({ Array($0.values) }) { try? await transport.shutdown() }
    }
}
