import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

import class NetworkingCore.EventLoopExecutor

/// The demo's connections: HTTP/1.1 with the WebSocket upgrade (HummingbirdWebSocket), made to
/// answer two kinds of first request that the upgrade pipeline of HummingbirdWebSocket 2.8 on
/// swift-nio 2.101 leaves without an answer, the connection open for ever:
///
/// - a request that cannot be parsed (`WHAT /v1/echo`: a method the HTTP parser does not know)
///   gets `400 Bad Request`, as from Hummingbird's plain HTTP/1.1 server;
/// - a request asking to upgrade to another protocol (`curl --http2` sends `Upgrade: h2c`) is
///   served as HTTP/1.1, as RFC 9110 §7.8 lets a server do. NIO's upgrade handler drops the
///   head of such a request instead of passing it on, so its `Upgrade` header is hidden from
///   that handler and put back behind it.
struct DemoChildChannel: ServerChildChannel {
    let base: HTTP1WebSocketUpgradeChannel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try pipeline.context(
                handlerType: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            let hidden = HiddenUpgrade()
            try pipeline.addHandler(ForeignUpgradeHider(hidden: hidden), position: .before(upgrader.handler))
            try pipeline.addHandler(FirstRequestGuard(hidden: hidden))
            return value
        }
    }

    /// Serves the connection on its own event loop (`EventLoopExecutor`): Hummingbird would run
    /// the handlers on Swift's global executor, every request then crossing threads twice (the
    /// loop wakes a pool thread for the request, the handler wakes the loop for the response).
    /// Measured under `explorer load -c 32` of `Get user`: see docs/benchmarks.md.
    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the demo's WebSocket upgrades (see `DemoChildChannel`).
    static func demo(
        shouldUpgrade:
            @escaping @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<
                WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
            >
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            DemoChildChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, configuration: .init(), shouldUpgrade: shouldUpgrade))
        }
    }
}

/// The `Upgrade` values of a first request that named no WebSocket, between the two handlers of
/// one connection (both run on its event loop).
private final class HiddenUpgrade {
    var values: [String] = []
}

/// Before the upgrade handler, for the first request only: takes out an `Upgrade` header that
/// does not ask for a WebSocket.
private final class ForeignUpgradeHider: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    private let hidden: HiddenUpgrade

    init(hidden: HiddenUpgrade) {
        self.hidden = hidden
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let protocols = head.headers["upgrade"]
        if !protocols.isEmpty, !protocols.contains(where: { $0.lowercased().contains("websocket") }) {
            hidden.values = protocols
            head.headers.remove(name: "upgrade")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// Behind the upgrade handler until the first request (or WebSocket frame) has passed it: puts
/// back a hidden `Upgrade` header, and answers an HTTP parse error before that with `400 Bad
/// Request` and a close.
private final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let hidden: HiddenUpgrade

    init(hidden: HiddenUpgrade) {
        self.hidden = hidden
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a request that was not upgraded had its header hidden, so only then is this an
        // HTTP part (after an upgrade, WebSocket frames pass).
        if !hidden.values.isEmpty, case .head(var head) = unwrapInboundIn(data) {
            for value in hidden.values { head.headers.add(name: "Upgrade", value: value) }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Length", value: "0")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
            promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
