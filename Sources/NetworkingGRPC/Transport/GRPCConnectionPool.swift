import NIOCore
import NIOSSL
import NetworkingCore
import Synchronization

/// The direct path's connections: one per target, security, authority and event loop, made on
/// first use and reused by every later call there; forgotten when it closes, fails or gets a
/// GOAWAY (the next call connects anew), all closed by `shutdown()`.
final class GRPCConnectionPool: Sendable {
    private let tls: TLSSettings
    private let connections = Mutex<[GRPCClientPool.Key: GRPCConnection]>([:])
    /// The loops connections run on, in the group's order (the client pool's executors' loops).
    let loops: [any EventLoop]

    init(tls: TLSSettings, loops: [any EventLoop]) {
        self.tls = tls
        self.loops = loops
    }

    /// The usable connection of a key, made (and connecting) when there is none.
    ///
    /// - Throws: `TLSSettings.Failure` when a file of the TLS settings does not read.
    func connection(for key: GRPCClientPool.Key) throws -> GRPCConnection {
        if let connection = connections.withLock({ $0[key] }), connection.isUsable { return connection }
        var sslContext: NIOSSLContext?
        if key.target.usesTLS {
            var configuration = try tls.tlsConfiguration()
            configuration.applicationProtocols = ["grpc-exp", "h2"]
            sslContext = try NIOSSLContext(configuration: configuration)
        }
        let serverName = GRPCTransportSecurity.serverName(target: key.target, authority: key.authority)
        // Made outside the lock: a connection refused at once tells `forget` before `init` returns.
        let made = GRPCConnection(
            target: key.target, sslContext: sslContext, serverName: serverName, loop: loops[key.loop]
        ) { [weak self] closed in
            self?.forget(closed, key: key)
        }
        let (connection, spare) = connections.withLock { connections -> (GRPCConnection, GRPCConnection?) in
            // Another call may have made one meanwhile: the first made is kept.
            if let existing = connections[key], existing.isUsable { return (existing, made) }
            // One that failed already is not kept (its `forget` came first).
            connections[key] = made.isUsable ? made : nil
            return (made, nil)
        }
        spare?.close()
        return connection
    }

    /// Forgets a connection that is no longer usable (when it is still the key's).
    func forget(_ connection: GRPCConnection, key: GRPCClientPool.Key) {
        connections.withLock { connections in
            if connections[key] === connection { connections[key] = nil }
        }
    }

    /// How many connections are kept.
    var count: Int { connections.withLock { $0.count } }

    /// Closes every connection once its calls in flight have ended; a later call connects anew.
    func shutdown() async {
        for connection in close() {
            let channel = try? await connection.channel.get()
            try? await channel?.closeFuture.get()
        }
    }

    /// `shutdown()` without the wait, for a dispatcher that is let go.
    @discardableResult
    func close() -> [GRPCConnection] {
        let all = connections.withLock { connections in
            defer { connections.removeAll() }
            return Array(connections.values)
        }
        for connection in all { connection.close() }
        return all
    }
}
