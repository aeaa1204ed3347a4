import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NetworkingCore

/// Sends gRPC calls to the base URL a server provider answers at call time: `grpc://host:port`
/// (plaintext HTTP/2, prior knowledge) or `grpcs://host:port` (TLS).
///
/// As `NetworkDispatcher` does for HTTP, it asks its provider at each call, so switching the
/// environment switches the next call's server. A call of one request message (unary or
/// server-streaming) runs directly on an HTTP/2 stream of swift-nio-http2, all of it on its
/// connection's event loop; other calls run through a grpc-swift client (over
/// `HTTP2ClientTransport.Posix`). Each keeps one connection per target, security, `:authority`
/// and event loop, and reuses it for every call there; `shutdown()` closes them. A caller
/// running on one of the dispatcher's event loops (`executors`) calls through a connection of
/// that loop, and the call runs there: it reads its answers with no hop between threads. Other
/// callers share the first loop's connection.
///
/// ```swift
/// let dispatcher = GRPCDispatcher(serverProvider: environment)
/// let response = try await dispatcher.unary(
///     "/greet.Greeter/SayHello", request, as: HelloReply.self)
/// print(response.message?.text ?? "", response.status)
/// ```
///
/// The provider is held weakly: a released provider fails the next call with
/// `TransportError.serverProviderReleased`.
public final class GRPCDispatcher: @unchecked Sendable {
    // Sound because everything else is a `Sendable` `let`, and `serverProvider` (weak, so a
    // `var`; not `Sendable`, as the HTTP dispatcher's providers are not) is set once in `init`
    // and only read afterwards, on the thread that opens a call.
    private weak var serverProvider: (any ServerProvider)?
    /// How `grpcs://` connections are secured: a CA, a client certificate, no verification.
    public let tls: TLSSettings
    /// Run in order on every call's metadata before it is sent.
    public let metadataAdapters: [any GRPCMetadataAdapter]
    /// The largest request and response message, in bytes, unless a call's options say otherwise.
    public let maximumMessageSize: Int
    /// The queue the callbacks of the futures run on.
    public let callbackQueue: DispatchQueue
    /// The event loops the dispatcher's connections and calls run on, as task executors.
    ///
    /// A task that prefers one of them (`Task(executorPreference:)`, a task group's
    /// `addTask(executorPreference:)`) and reads a call's `events` resumes on the thread that
    /// read the answer, where on Swift's global executor every event would wake another thread.
    /// It pays with a call or two at once on each loop (one at a time, against a server in the
    /// same process, 1.14× the calls a second of grpc-swift-2's own client; see
    /// docs/benchmarks.md); many at once crowd the loop's I/O out, and work that blocks holds up
    /// every call of that loop meanwhile: keep those on the global executor.
    public var executors: [EventLoopExecutor] { clients.executors }
    let clients: GRPCClientPool
    let connections: GRPCConnectionPool

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - serverProvider: answers the base URL at call time; held weakly.
    ///   - tls: how `grpcs://` connections are secured (the HTTP dispatcher's settings).
    ///   - metadataAdapters: run on every call's metadata, in order (credentials).
    ///   - maximumMessageSize: the largest request and response message (4 MiB by default).
    ///   - callbackQueue: the queue future callbacks run on (the main queue by default).
    public init(
        serverProvider: any ServerProvider, tls: TLSSettings = TLSSettings(),
        metadataAdapters: [any GRPCMetadataAdapter] = [], maximumMessageSize: Int = 4 * 1024 * 1024,
        callbackQueue: DispatchQueue = .main
    ) {
        self.serverProvider = serverProvider
        self.tls = tls
        self.metadataAdapters = metadataAdapters
        self.maximumMessageSize = maximumMessageSize
        self.callbackQueue = callbackQueue
        let clients = GRPCClientPool(tls: tls, eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        self.clients = clients
        connections = GRPCConnectionPool(tls: tls, loops: clients.executors.map(\.eventLoop))
    }

    /// Opens a call: the raw call every other is built on, bytes in and events out.
    ///
    /// The base URL is asked for now; the call goes out once its shape is known (see `GRPCCall`).
    /// Send with `send(_:)`, close with `finish()`, read `events`.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method` (the leading slash may be left out).
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    /// - Returns: the call, started.
    public func open(_ path: String, metadata: GRPCMetadata = [], options: GRPCCallOptions = GRPCCallOptions())
        -> GRPCCall
    {
        let path = path.hasPrefix("/") ? path : "/" + path
        let call = GRPCCall(path: path, maximumRequestSize: options.maximumRequestSize ?? maximumMessageSize)
        let baseURL = currentBaseURL()
        let loop = clients.loopOfCaller()
        let responseLimit = options.maximumResponseSize ?? maximumMessageSize
        let executor = loop.map { clients.executors[$0] }
        let run = GRPCCallRun(
            call: call, baseURL: baseURL, metadata: metadata, options: options, adapters: metadataAdapters,
            responseLimit: responseLimit, clients: clients, loop: loop ?? 0)
        let direct = GRPCDirectCall(
            call: call, baseURL: baseURL, metadata: metadata, options: options, adapters: metadataAdapters,
            responseLimit: responseLimit, connections: connections, loop: loop ?? 0, callerExecutor: executor)
        call.launch.set { shape in
            switch shape {
            case .single(let message): direct.start(message)
            case .stream: call.run(on: executor) { await run.run() }
            }
        }
        return call
    }

    /// A dispatcher let go without `shutdown()` closes its connections once their calls end
    /// (a grpc-swift client's task would otherwise keep it, and its sockets, for good).
    deinit {
        connections.close()
        clients.close()
    }

    /// Shuts down every connection, letting calls in flight finish. A later call connects anew.
    public func shutdown() async {
        await connections.shutdown()
        await clients.shutdown()
    }

    /// How many connections (direct ones and grpc-swift clients) the dispatcher keeps: one per
    /// target, security, authority and loop its calls went through, for each path.
    public var connectionCount: Int { connections.count + clients.count }

    private func currentBaseURL() -> Result<URL, any Error> {
        guard let provider = serverProvider else { return .failure(TransportError.serverProviderReleased) }
        guard let url = provider.baseURL else { return .failure(TransportError.missingBaseURL) }
        return .success(url)
    }
}
