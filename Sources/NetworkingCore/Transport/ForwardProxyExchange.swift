import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain `http://` request sent to an HTTP proxy in absolute form, as curl and browsers send
/// it: `GET http://host:port/path HTTP/1.1` on a connection to the proxy, with
/// `Proxy-Authorization` when the proxy has credentials. (async-http-client always tunnels
/// with `CONNECT`, which many proxies, Squid's default configuration among them, allow to
/// port 443 only.)
///
/// One connection per request, closed when the body has been read; the body is handed over
/// with back-pressure. A `407` from the proxy is `HTTPClientError.proxyAuthenticationRequired`,
/// as it is for a tunnel.
///
/// Everything up to the head happens on the connection's event loop, as in async-http-client:
/// connecting, writing the request, reading the head, and the deadline. The caller's task
/// waits once, for the head. (Swift's cooperative pool has as many threads as the machine has
/// cores: a step of the exchange that waited for one of them could wait behind every job
/// queued before it, and the deadline would count that wait as the proxy's.)
enum ForwardProxyExchange {
    /// Sends a request through the proxy and answers when the head has arrived.
    ///
    /// - Parameters:
    ///   - request: the request, with an `http` URL.
    ///   - extraHeaders: headers the transport adds (`Accept-Encoding`).
    ///   - proxy: the HTTP proxy.
    ///   - connectTimeout: the time the connection to the proxy may take.
    ///   - deadline: when the head must have arrived.
    /// - Returns: the response, its body still arriving, and the channel it comes through
    ///   (which the response's body owns: letting go of that gives the transfer up).
    /// - Throws: NIO's and async-http-client's errors (the transport maps them).
    static func execute(
        _ request: PreparedRequest, extraHeaders: [(String, String)], through proxy: ProxyServer,
        connectTimeout: Duration, deadline: NIODeadline
    ) async throws -> (HTTPClientResponse, BodyChannel) {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let headPromise = eventLoop.makePromise(of: HTTPResponseHead.self)
        let body = BodyChannel()
        let requestHead = head(of: request, extraHeaders: extraHeaders, proxy: proxy)
        let requestBody = request.body
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(connectTimeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        ExchangeHandler(
                            head: requestHead, body: requestBody, headPromise: headPromise, bodyChannel: body))
                }
            }
        // An address is connected to as it is, without a lookup (NIO runs getaddrinfo on
        // Dispatch's global queue, where a busy process can keep it waiting past the timeout).
        let connecting =
            (try? SocketAddress(ipAddress: proxy.host, port: proxy.port)).map { bootstrap.connect(to: $0) }
            ?? bootstrap.connect(host: proxy.host, port: proxy.port)
        let timer = eventLoop.scheduleTask(deadline: deadline) { headPromise.fail(HTTPClientError.deadlineExceeded) }
        connecting.whenFailure { error in
            if case ChannelError.connectTimeout = error {
                headPromise.fail(HTTPClientError.connectTimeout)
            } else {
                headPromise.fail(error)
            }
        }
        headPromise.futureResult.whenComplete { _ in timer.cancel() }
        // A head that does not come (the deadline, cancellation, an error) closes the connection,
        // and so does a reader that gives the body up.
        headPromise.futureResult.whenFailure { _ in connecting.whenSuccess { $0.close(promise: nil) } }
        body.onTermination { connecting.whenSuccess { $0.close(promise: nil) } }

        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await headPromise.futureResult.get()
            } onCancel: {
                headPromise.fail(HTTPClientError.cancelled)
            }
        } catch {
            body.fail(error)
            throw error
        }
        if head.status == .proxyAuthenticationRequired {
            body.fail(HTTPClientError.proxyAuthenticationRequired)
            throw HTTPClientError.proxyAuthenticationRequired
        }
        return (
            HTTPClientResponse(
                version: head.version, status: head.status, headers: head.headers,
                body: .stream(ChannelBody(channel: body))), body
        )
    }

    /// The request head in absolute form, with `Host`, the proxy's credentials, and a
    /// connection that closes after the exchange.
    private static func head(of request: PreparedRequest, extraHeaders: [(String, String)], proxy: ProxyServer)
        -> HTTPRequestHead
    {
        var headers = NIOHTTP1.HTTPHeaders()
        if !request.headers.contains("Host") {
            let host = request.url.host ?? ""
            let shown = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: request.url.port.map { "\(shown):\($0)" } ?? shown)
        }
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if let username = proxy.username {
            headers.add(
                name: "Proxy-Authorization",
                value: "Basic " + Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString())
        }
        if let body = request.body, !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        headers.replaceOrAdd(name: "Connection", value: "close")
        // The absolute form names the origin and the path, never credentials or a fragment.
        var target = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        target?.user = nil
        target?.password = nil
        target?.fragment = nil
        return HTTPRequestHead(
            version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            uri: target?.string ?? request.url.absoluteString, headers: headers)
    }
}

/// The exchange on the connection's event loop: writes the request when the connection is up,
/// completes the head promise with the final head (after any 1xx), then pushes the body into
/// the `BodyChannel`, reading no more while the reader has a full buffer.
///
/// A proxy may answer (a 407) and close before the request is all written: its answer is
/// still read, and the write's failure is the error only when no head came.
private final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private enum Phase { case awaitingHead, body, done }

    private let requestHead: HTTPRequestHead
    private let requestBody: Data?
    private let headPromise: EventLoopPromise<HTTPResponseHead>
    private let bodyChannel: BodyChannel
    private var phase = Phase.awaitingHead
    private var writeFailure: (any Error)?
    /// Whether reading waits for room in the body channel, and whether a read was asked for meanwhile.
    private var paused = false
    private var readPending = false

    init(head: HTTPRequestHead, body: Data?, headPromise: EventLoopPromise<HTTPResponseHead>, bodyChannel: BodyChannel)
    {
        self.requestHead = head
        self.requestBody = body
        self.headPromise = headPromise
        self.bodyChannel = bodyChannel
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(requestHead)), promise: nil)
        if let requestBody {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: requestBody)))), promise: nil)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenFailure { error in
            self.writeFailure = self.writeFailure ?? error
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (phase, unwrapInboundIn(data)) {
        case (.awaitingHead, .head(let head)):
            // 1xx answers (100 Continue) come before the real head.
            guard head.status.code >= 200 || head.status.code == 101 else { return }
            phase = .body
            headPromise.succeed(head)
        case (.awaitingHead, _):
            // The end (or a body) of a 1xx answer.
            break
        case (.body, .head):
            fail(HTTPClientError.invalidProxyResponse, context: context)
        case (.body, .body(let buffer)):
            guard !bodyChannel.push(Data(buffer.readableBytesView)) else { return }
            guard bodyChannel.isOpen else {
                // The reader has gone.
                phase = .done
                context.close(promise: nil)
                return
            }
            paused = true
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            bodyChannel.whenRoom {
                loopBound.eventLoop.execute { loopBound.value.0.resume(context: loopBound.value.1) }
            }
        case (.body, .end):
            phase = .done
            bodyChannel.finish()
            context.close(promise: nil)
        case (.done, _):
            break
        }
    }

    func read(context: ChannelHandlerContext) {
        if paused {
            readPending = true
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(writeFailure ?? HTTPClientError.remoteConnectionClosed, context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    /// Reads again once the reader has made room (or has gone: then the connection closes).
    private func resume(context: ChannelHandlerContext) {
        guard paused else { return }
        paused = false
        guard phase == .body, bodyChannel.isOpen else {
            phase = .done
            context.close(promise: nil)
            return
        }
        if readPending {
            readPending = false
            context.read()
        }
    }

    /// Ends the exchange with an error: the head's, or the body's once the head has come.
    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        switch phase {
        case .awaitingHead: headPromise.fail(error)
        case .body: bodyChannel.fail(error)
        case .done: return
        }
        phase = .done
        context.close(promise: nil)
    }
}
