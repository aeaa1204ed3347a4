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
enum ForwardProxyExchange {
    /// Sends a request through the proxy and answers when the head has arrived.
    ///
    /// - Parameters:
    ///   - request: the request, with an `http` URL.
    ///   - extraHeaders: headers the transport adds (`Accept-Encoding`).
    ///   - proxy: the HTTP proxy.
    ///   - connectTimeout: the time the connection to the proxy may take.
    ///   - deadline: when the head must have arrived.
    /// - Returns: the response, its body still arriving.
    /// - Throws: NIO's and async-http-client's errors (the transport maps them).
    static func execute(_ request: PreparedRequest, extraHeaders: [(String, String)], through proxy: ProxyServer,
                        connectTimeout: Duration, deadline: NIODeadline) async throws -> HTTPClientResponse {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(connectTimeout.nanoseconds))
                .connect(host: proxy.host, port: proxy.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch ChannelError.connectTimeout {
            throw HTTPClientError.connectTimeout
        }
        let eventLoop = channel.channel.eventLoop
        let headPromise = eventLoop.makePromise(of: HTTPResponseHead.self)
        let timer = eventLoop.scheduleTask(deadline: deadline) { headPromise.fail(HTTPClientError.deadlineExceeded) }
        let body = BodyChannel()
        let requestHead = head(of: request, extraHeaders: extraHeaders, proxy: proxy)
        let exchange = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    // A proxy may answer (a 407) and close before the request is all written:
                    // its answer is still read, and the write's failure is the error only
                    // when there is none.
                    var writeFailure: (any Error)?
                    do {
                        try await outbound.write(.head(requestHead))
                        if let bytes = request.body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes)))) }
                        try await outbound.write(.end(nil))
                    } catch {
                        writeFailure = error
                    }
                    var parts = inbound.makeAsyncIterator()
                    // 1xx answers (100 Continue) come before the real head.
                    var head: HTTPResponseHead
                    repeat {
                        guard case .head(let received)? = try? await parts.next() else { throw writeFailure ?? HTTPClientError.remoteConnectionClosed }
                        head = received
                    } while head.status.code < 200 && head.status.code != 101
                    headPromise.succeed(head)
                    while let part = try await parts.next() {
                        switch part {
                        case .head: throw HTTPClientError.invalidProxyResponse
                        case .body(let buffer):
                            guard await body.send(Data(buffer.readableBytesView)) else { return }
                        case .end:
                            body.finish()
                            return
                        }
                    }
                    throw HTTPClientError.remoteConnectionClosed
                }
            } catch {
                headPromise.fail(error)
                body.fail(error)
            }
        }
        body.onTermination { exchange.cancel() }
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await headPromise.futureResult.get()
            } onCancel: {
                headPromise.fail(HTTPClientError.cancelled)
            }
            timer.cancel()
        } catch {
            timer.cancel()
            exchange.cancel()
            body.fail(error)
            throw error
        }
        if head.status == .proxyAuthenticationRequired {
            exchange.cancel()
            body.fail(HTTPClientError.proxyAuthenticationRequired)
            throw HTTPClientError.proxyAuthenticationRequired
        }
        return HTTPClientResponse(version: head.version, status: head.status, headers: head.headers, body: .stream(ProxiedBody(channel: body)))
    }

    /// The request head in absolute form, with `Host`, the proxy's credentials, and a
    /// connection that closes after the exchange.
    private static func head(of request: PreparedRequest, extraHeaders: [(String, String)], proxy: ProxyServer) -> HTTPRequestHead {
        var headers = NIOHTTP1.HTTPHeaders()
        if !request.headers.contains("Host") {
            let host = request.url.host ?? ""
            let shown = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: request.url.port.map { "\(shown):\($0)" } ?? shown)
        }
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if let username = proxy.username {
            headers.add(name: "Proxy-Authorization", value: "Basic " + Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString())
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
        return HTTPRequestHead(version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
                               uri: target?.string ?? request.url.absoluteString, headers: headers)
    }
}

/// The body of a response through a forward proxy: the chunks of a `BodyChannel`, as buffers.
private struct ProxiedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let channel: BodyChannel

    struct AsyncIterator: AsyncIteratorProtocol {
        let channel: BodyChannel
        mutating func next() async throws -> ByteBuffer? {
            try await channel.next().map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }
}
