import GRPCCore
import GRPCNIOTransportHTTP2
import NetworkingCore
import Synchronization

/// One grpc-swift client per target, security and authority, made on first use, kept running
/// and reused by every later call to it, shut down together.
final class GRPCClientPool: Sendable {
    typealias Client = GRPCClient<HTTP2ClientTransport.Posix>

    /// What makes two calls share a client.
    struct Key: Hashable, Sendable {
        var target: GRPCTarget
        var authority: String?
    }

    private struct Running: Sendable {
        let client: Client
        /// Runs the client's connections until it is shut down.
        let task: Task<Void, Never>
    }

    private let tls: TLSSettings
    private let clients = Mutex<[Key: Running]>([:])

    init(tls: TLSSettings) { self.tls = tls }

    /// The client for a key, made and started when there is none.
    ///
    /// - Throws: `TLSSettings.Failure` when a file of the TLS settings does not read.
    func client(for key: Key) throws -> Client {
        if let running = clients.withLock({ $0[key] }) { return running.client }
        let (security, config) = try GRPCTransportSecurity.make(target: key.target, authority: key.authority, tls: tls)
        let transport = try HTTP2ClientTransport.Posix(
            target: key.target.resolvable, transportSecurity: security, config: config)
        let client = GRPCClient(transport: transport)
        return clients.withLock { clients in
            // Another call may have made one meanwhile: the first made is kept.
            if let running = clients[key] { return running.client }
            let task = Task<Void, Never> { try? await client.runConnections() }
            clients[key] = Running(client: client, task: task)
            return client
        }
    }

    /// Shuts down the client of a key that failed to connect, so that the next call connects
    /// anew instead of failing until the client's backoff lets it try again.
    func discard(_ key: Key) {
        let running = clients.withLock { $0.removeValue(forKey: key) }
        running?.client.beginGracefulShutdown()
    }

    /// How many clients are running.
    var count: Int { clients.withLock { $0.count } }

    /// Shuts every client down, letting calls in flight finish; a later call makes new ones.
    func shutdown() async {
        let running = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for entry in running { entry.client.beginGracefulShutdown() }
        for entry in running { await entry.task.value }
    }
}
