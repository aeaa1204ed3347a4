import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NetworkingCore
import Synchronization

/// One grpc-swift client per target, security, authority and event loop, made on first use,
/// kept running and reused by every later call to it, shut down together.
///
/// A client's connections run on its loop. A caller running on one of the loops (`executors`)
/// calls through its own loop's client, and the call's task runs there too: the call opens its
/// stream, writes and reads its answer on the thread that does the connection's I/O, with no hop
/// between threads. Any other caller calls through the first loop's client, from a task on
/// Swift's global executor: calls one after another keep to one connection, and many at once
/// share the loop's I/O thread with the pool's threads (on the loop, their work crowds the I/O
/// out: measured with grpc-bench, 32 at once ran at about half the rate).
final class GRPCClientPool: Sendable {
    typealias Client = GRPCClient<HTTP2ClientTransport.Posix>

    /// What makes two calls share a client.
    struct Key: Hashable, Sendable {
        var target: GRPCTarget
        var authority: String?
        /// The index of the client's loop in `executors`.
        var loop: Int = 0
    }

    private struct Running: Sendable {
        let client: Client
        /// Runs the client's connections until it is shut down.
        let task: Task<Void, Never>
    }

    private let tls: TLSSettings
    private let clients = Mutex<[Key: Running]>([:])
    /// The loops the clients' connections run on, as task executors, in the group's order.
    let executors: [EventLoopExecutor]

    /// A pool over the loops of a group.
    init(tls: TLSSettings, eventLoopGroup: any EventLoopGroup) {
        self.tls = tls
        executors = EventLoopExecutor.executors(of: eventLoopGroup)
    }

    /// The index of the loop a call opened now goes to: the current thread's when it is one of
    /// the loops (the call's task then runs there), else `nil` (the call goes through the first
    /// loop's client from a task on the global executor).
    func loopOfCaller() -> Int? {
        executors.firstIndex { $0.eventLoop.inEventLoop }
    }

    /// The client for a key, made and started when there is none.
    ///
    /// - Throws: `TLSSettings.Failure` when a file of the TLS settings does not read.
    func client(for key: Key) throws -> Client {
        if let running = clients.withLock({ $0[key] }) { return running.client }
        let (security, config) = try GRPCTransportSecurity.make(target: key.target, authority: key.authority, tls: tls)
        let transport = try HTTP2ClientTransport.Posix(
            target: key.target.resolvable, transportSecurity: security, config: config,
            eventLoopGroup: executors[key.loop].eventLoop)
        let client = GRPCClient(transport: transport)
        return clients.withLock { clients in
            // Another call may have made one meanwhile: the first made is kept.
            if let running = clients[key] { return running.client }
            let task = Task<Void, Never>(executorPreference: executors[key.loop]) { try? await client.runConnections() }
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
        for entry in beginShutdown() { await entry.task.value }
    }

    /// Starts shutting every client down without waiting for them: their connections close
    /// once the calls in flight end.
    @discardableResult
    private func beginShutdown() -> [Running] {
        let running = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for entry in running { entry.client.beginGracefulShutdown() }
        return running
    }

    /// `shutdown()` without the wait, for a dispatcher that is let go.
    func close() { beginShutdown() }
}
