import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import NetworkingCore
import Synchronization

/// One HTTP/2 connection of the direct path: a channel to a target (TLS first for `grpcs://`),
/// swift-nio-http2's handler and its multiplexer, on which each call opens a stream.
///
/// It is usable until it closes, fails or the server says GOAWAY; then the pool forgets it and
/// the next call connects anew. What it saw before failing (the first error, whether the
/// server's SETTINGS came) tells a call why it could not reach a gRPC server.
final class GRPCConnection: @unchecked Sendable {
    // Sound because `multiplexer`, `firstError`, `sawSettings`, `openStreams` and `closing` are
    // read and written on `loop` only; `usable` is atomic and the rest are `let`s.
    let loop: any EventLoop
    let target: GRPCTarget
    /// The connection's channel once connected (TCP; TLS and HTTP/2 go on over it).
    let channel: EventLoopFuture<any Channel>
    private var multiplexer: NIOHTTP2Handler.StreamMultiplexer?
    private var firstError: (any Error)?
    private var sawSettings = false
    /// The streams open now, and whether the connection closes once there are none.
    private var openStreams = 0
    private var closing = false
    private let usable = Atomic<Bool>(true)

    /// Whether new calls may open streams on it.
    var isUsable: Bool { usable.load(ordering: .relaxed) }

    /// Connects to a target.
    ///
    /// - Parameters:
    ///   - target: where to.
    ///   - sslContext: the TLS context for `grpcs://`, `nil` for plaintext.
    ///   - serverName: the name TLS sends and checks.
    ///   - loop: the loop the connection and its calls run on.
    ///   - closed: told once when the connection stops being usable.
    init(
        target: GRPCTarget, sslContext: NIOSSLContext?, serverName: String?, loop: any EventLoop,
        closed: @escaping @Sendable (GRPCConnection) -> Void
    ) {
        self.loop = loop
        self.target = target
        let made = loop.makePromise(of: (any Channel).self)
        channel = made.futureResult
        let bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(20))
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let sslContext {
                        try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    }
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.initialSettings = [
                        HTTP2Setting(parameter: .maxConcurrentStreams, value: 100),
                        HTTP2Setting(parameter: .maxHeaderListSize, value: 16384),
                        HTTP2Setting(parameter: .initialWindowSize, value: Self.windowSize),
                    ]
                    var stream = NIOHTTP2Handler.StreamConfiguration()
                    stream.targetWindowSize = Self.windowSize
                    connection.targetWindowSize = Self.windowSize
                    let multiplexer = try sync.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: connection, streamConfiguration: stream
                    ) { $0.close() }
                    try sync.addHandler(Observer(connection: self, closed: closed))
                    self.multiplexer = multiplexer
                }
            }
        let connecting: EventLoopFuture<any Channel>
        if target.isIPAddress, let address = try? SocketAddress(ipAddress: target.host, port: target.port) {
            connecting = bootstrap.connect(to: address)
        } else {
            connecting = bootstrap.connect(host: target.host, port: target.port)
        }
        connecting.whenFailure { [self] _ in
            if usable.exchange(false, ordering: .relaxed) { closed(self) }
        }
        connecting.cascade(to: made)
    }

    /// The HTTP/2 window of the connection and of each stream: 8 MiB, as grpc-swift's.
    static let windowSize = 8 * 1024 * 1024

    /// Opens a stream with `handler` on it (on `loop`).
    ///
    /// - Parameter failed: told, on `loop`, why no stream could be opened.
    func openStream(
        _ handler: @escaping @Sendable () -> any ChannelHandler,
        failed: @escaping @Sendable (any Error) -> Void
    ) {
        channel.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .failure(let error): failed(error)
            case .success:
                guard let multiplexer else { return failed(ChannelError.ioOnClosedChannel) }
                let promise = loop.makePromise(of: (any Channel).self)
                multiplexer.createStreamChannel(promise: promise) { stream in
                    stream.eventLoop.makeCompletedFuture { try stream.pipeline.syncOperations.addHandler(handler()) }
                }
                openStreams += 1
                promise.futureResult.assumeIsolated().whenComplete { [self] result in
                    switch result {
                    case .success(let stream):
                        stream.closeFuture.assumeIsolated().whenComplete { _ in self.streamClosed() }
                    case .failure(let error):
                        streamClosed()
                        failed(error)
                    }
                }
            }
        }
    }

    /// Why the connection never spoke HTTP/2 with a server, or `nil` while it did (or may yet):
    /// read on `loop` when a stream ended without a status.
    func failureBeforeHTTP2() -> (any Error)? {
        loop.preconditionInEventLoop()
        if sawSettings || isUsable { return nil }
        return firstError ?? NotHTTP2()
    }

    /// The connection closed before the server's HTTP/2 SETTINGS: not an HTTP/2 server.
    struct NotHTTP2: Error {}

    private func streamClosed() {
        openStreams -= 1
        if closing, openStreams == 0 { channel.whenSuccess { $0.close(promise: nil) } }
    }

    /// Closes the connection once the calls in flight on it have ended; no new call uses it.
    func close() {
        _ = usable.exchange(false, ordering: .relaxed)
        loop.execute { [self] in
            closing = true
            if openStreams == 0 { channel.whenSuccess { $0.close(promise: nil) } }
        }
    }

    /// Watches the connection: the server's SETTINGS and GOAWAY, errors, the close.
    private final class Observer: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame

        let connection: GRPCConnection
        let closed: @Sendable (GRPCConnection) -> Void

        init(connection: GRPCConnection, closed: @escaping @Sendable (GRPCConnection) -> Void) {
            self.connection = connection
            self.closed = closed
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data).payload {
            case .settings(.settings): connection.sawSettings = true
            case .goAway: stopUsing()
            default: break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if connection.firstError == nil { connection.firstError = error }
            stopUsing()
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            stopUsing()
            context.fireChannelInactive()
        }

        private func stopUsing() {
            if connection.usable.exchange(false, ordering: .relaxed) { closed(connection) }
        }
    }
}
