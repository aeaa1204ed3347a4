import Foundation
import NetworkingCore
import Synchronization
import Workspace

/// The HTTP clients of a session: one shared, and one per environment whose `tls:`, `proxy:`,
/// `resolve:` or `proxy_tunnel:` make it differ, each made once and shut down with the session.
///
/// The shared client too is made when a request first needs it, not with the session: an
/// HTTP client starts its event loops (two threads here) and reads in the transport's code,
/// which a session that only browses, or has not sent yet, does not need for its first frame.
package final class TransportPool: Sendable {
    /// What makes an environment's transport differ from the shared one.
    private struct Key: Hashable {
        let tls: TLSSettings?
        let proxy: AsyncHTTPClientTransport.Configuration.Proxy?
        let resolve: [String: String]
        let proxyTunnel: Bool
    }

    /// The transport of every environment that needs nothing of its own, made on first use.
    package var shared: AsyncHTTPClientTransport {
        if let made = sharedTransport.withLock({ $0 }) { return made }
        // Made outside the lock (it starts event loops); the first one kept wins a race.
        let transport = makeShared()
        let (kept, isSpare) = sharedTransport.withLock { kept -> (AsyncHTTPClientTransport, Bool) in
            if let existing = kept { return (existing, true) }
            kept = transport
            return (transport, false)
        }
        if isSpare { Task { try? await transport.shutdown() } }
        return kept
    }
    /// Whether the shared transport has been made (a request or a proxy note needed it).
    package var hasMadeShared: Bool { sharedTransport.withLock { $0 != nil } }
    /// The shared transport's settings, which an environment's own transport starts from.
    private let configuration: AsyncHTTPClientTransport.Configuration
    private let makeShared: @Sendable () -> AsyncHTTPClientTransport
    private let sharedTransport: Mutex<AsyncHTTPClientTransport?>
    /// The collection file, which relative `tls:` paths are read from.
    private let collectionFile: URL?
    private let made = Mutex<[Key: AsyncHTTPClientTransport]>([:])

    /// A pool around a transport already made.
    ///
    /// - Parameters:
    ///   - shared: the transport of every environment that needs nothing of its own.
    ///   - collectionPath: the collection file, which relative `tls:` paths are read from.
    package init(shared: AsyncHTTPClientTransport, collectionPath: String?) {
        configuration = shared.configuration
        makeShared = { shared }
        sharedTransport = Mutex(shared)
        collectionFile = collectionPath.map { URL(fileURLWithPath: $0) }
    }

    /// A pool whose shared transport is made with `configuration` when a request first needs it.
    ///
    /// - Parameters:
    ///   - configuration: the shared transport's settings.
    ///   - collectionPath: the collection file, which relative `tls:` paths are read from.
    ///   - makeShared: makes the shared transport (`AsyncHTTPClientTransport(configuration:)`
    ///     by default; tests count the calls).
    package init(
        configuration: AsyncHTTPClientTransport.Configuration = .init(), collectionPath: String?,
        makeShared: (@Sendable (AsyncHTTPClientTransport.Configuration) -> AsyncHTTPClientTransport)? = nil
    ) {
        self.configuration = configuration
        let make = makeShared ?? { AsyncHTTPClientTransport(configuration: $0) }
        self.makeShared = { make(configuration) }
        sharedTransport = Mutex(nil)
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
        var configuration = self.configuration
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
        try? await sharedTransport.withLock({ $0 })?.shutdown()
        for transport in made.withLock({ Array($0.values) }) { try? await transport.shutdown() }
    }
}
