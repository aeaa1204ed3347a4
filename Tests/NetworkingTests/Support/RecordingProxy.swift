import Foundation
import NIOCore
import NIOPosix

/// A small HTTP proxy on 127.0.0.1 (SwiftNIO) that records what it relays: `CONNECT host:port`
/// tunnels and absolute-form requests (`GET http://host:port/path HTTP/1.1`, forwarded in
/// origin form with `Connection: close`), each with the `Proxy-Authorization` it came with.
///
/// `requiredAuthorization` makes it answer `407 Proxy Authentication Required` to a request
/// without that exact header value; `alwaysRefuse` answers 407 to everything; `connectPorts`
/// refuses (403) a `CONNECT` to other ports, as Squid's default `SSL_ports` does. It also
/// speaks SOCKS5 without authentication (`SOCKS5 CONNECT host:port` is recorded).
///
/// Both sides of a relay are on one event loop, and each side stops reading while the other
/// cannot take more (as a real proxy's bounded buffers do): a server that writes without end
/// to a client that reads slowly, or not at all, waits instead of filling the proxy's memory
/// and keeping its event loop busy.
package final class RecordingProxy: Sendable {
    /// One request the proxy got.
    package struct Record: Sendable, Equatable {
        /// `CONNECT 127.0.0.1:8443 HTTP/1.1` or `GET http://127.0.0.1:8080/x HTTP/1.1`.
        package var requestLine: String
        /// The `Proxy-Authorization` value, if any.
        package var proxyAuthorization: String?
        /// Whether it was answered 407.
        package var refused: Bool
    }

    package let port: Int
    private let channel: any Channel
    private let state: RecordBook

    /// Everything recorded so far, in order.
    package var records: [Record] { state.all }

    /// The proxy's URL, with credentials when given.
    package func url(user: String? = nil, password: String? = nil) -> String {
        guard let user else { return "http://127.0.0.1:\(port)" }
        return "http://\(user)\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)"
    }

    /// Starts a proxy on a free port.
    ///
    /// - Parameters:
    ///   - requiredAuthorization: the exact `Proxy-Authorization` value it lets through (`nil`: any).
    ///   - alwaysRefuse: answer 407 to every request.
    ///   - connectPorts: the only ports `CONNECT` may reach (`nil`: any).
    package static func start(
        requiredAuthorization: String? = nil, alwaysRefuse: Bool = false, connectPorts: Set<Int>? = nil
    ) async throws -> RecordingProxy {
        let state = RecordBook()
        let policy = Policy(
            requiredAuthorization: requiredAuthorization, alwaysRefuse: alwaysRefuse, connectPorts: connectPorts)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(FrontHandler(policy: policy, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RecordingProxy(port: channel.localAddress?.port ?? 0, channel: channel, state: state)
    }

    private init(port: Int, channel: any Channel, state: RecordBook) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// Stops listening (tunnels in progress end with their connections).
    package func stop() async {
        try? await channel.close()
    }

    /// The records, under a lock (written on event loops, read by tests).
    final class RecordBook: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [Record] = []

        var all: [Record] { lock.withLock { records } }
        func append(_ record: Record) { lock.withLock { records.append(record) } }
    }

    struct Policy: Sendable {
        var requiredAuthorization: String?
        var alwaysRefuse: Bool
        var connectPorts: Set<Int>?
    }

    // MARK: - Relaying

    /// The client's side: reads the request head, decides, then relays bytes to the server.
    private final class FrontHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private enum Phase {
            case head(ByteBuffer)
            case connecting([ByteBuffer])
            case relaying(any Channel)
            case done
        }

        private let policy: Policy
        private let state: RecordBook
        private var phase: Phase = .head(ByteBuffer())
        private var socksGreeted = false

        init(policy: Policy, state: RecordBook) {
            self.policy = policy
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            switch phase {
            case .head(var buffer):
                buffer.writeBuffer(&bytes)
                if buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) == 5 {
                    return socks(&buffer, context: context)
                }
                let text = String(buffer: buffer)
                guard let end = text.range(of: "\r\n\r\n") else {
                    phase = .head(buffer)
                    return
                }
                let head = String(text[..<end.lowerBound])
                let rest =
                    buffer.getSlice(
                        at: buffer.readerIndex + head.utf8.count + 4,
                        length: buffer.readableBytes - head.utf8.count - 4) ?? ByteBuffer()
                start(head: head, rest: rest, context: context)
            case .connecting(var pending):
                pending.append(bytes)
                phase = .connecting(pending)
            case .relaying(let server):
                server.writeAndFlush(bytes, promise: nil)
                if !server.isWritable {
                    try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                }
            case .done:
                break
            }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            // The client takes more again: read from the server again.
            if case .relaying(let server) = phase, context.channel.isWritable {
                try? server.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            }
            context.fireChannelWritabilityChanged()
        }

        func channelInactive(context: ChannelHandlerContext) {
            if case .relaying(let server) = phase { server.close(promise: nil) }
            phase = .done
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func start(head: String, rest: ByteBuffer, context: ChannelHandlerContext) {
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst()
            let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
                .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
            let refused = policy.alwaysRefuse || (policy.requiredAuthorization.map { $0 != authorization } ?? false)
            state.append(Record(requestLine: requestLine, proxyAuthorization: authorization, refused: refused))
            if refused {
                reply(
                    "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    context)
                return
            }
            let parts = requestLine.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3 else {
                return reply("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
            }
            var first = ByteBuffer()
            let target: (host: String, port: Int)
            if parts[0] == "CONNECT" {
                guard let colon = parts[1].lastIndex(of: ":"), let port = Int(parts[1][parts[1].index(after: colon)...])
                else {
                    return reply("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
                }
                target = (String(parts[1][..<colon]), port)
                if let allowed = policy.connectPorts, !allowed.contains(port) {
                    return reply("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
                }
            } else {
                guard let url = URL(string: parts[1]), let host = url.host else {
                    return reply("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
                }
                target = (host, url.port ?? 80)
                var path = url.path.isEmpty ? "/" : url.path
                if let query = url.query { path += "?" + query }
                let kept = lines.filter {
                    let name = $0.lowercased()
                    return !name.hasPrefix("proxy-") && !name.hasPrefix("connection:") && !name.hasPrefix("keep-alive:")
                }
                first.writeString(
                    ([parts[0] + " " + path + " " + parts[2]] + kept + ["Connection: close", "", ""]).joined(
                        separator: "\r\n"))
            }
            var forwarded = first
            var leftover = rest
            forwarded.writeBuffer(&leftover)
            let isTunnel = parts[0] == "CONNECT"
            open(target, forwarded: forwarded, context: context) { context in
                if isTunnel { self.reply("HTTP/1.1 200 Connection Established\r\n\r\n", context, close: false) }
            } failed: { context in
                self.reply("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
            }
        }

        /// SOCKS5 without authentication: the greeting, then `CONNECT` to an address or a name.
        private func socks(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) {
            let start = buffer.readerIndex
            if !socksGreeted {
                guard let count = buffer.getInteger(at: start + 1, as: UInt8.self),
                    buffer.readableBytes >= 2 + Int(count)
                else {
                    phase = .head(buffer)
                    return
                }
                buffer.moveReaderIndex(forwardBy: 2 + Int(count))
                socksGreeted = true
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [5, 0])), promise: nil)
                if buffer.readableBytes == 0 {
                    phase = .head(buffer)
                    return
                }
            }
            let at = buffer.readerIndex
            guard buffer.readableBytes >= 5, let kind = buffer.getInteger(at: at + 3, as: UInt8.self) else {
                phase = .head(buffer)
                return
            }
            let hostLength: Int
            switch kind {
            case 1: hostLength = 4
            case 4: hostLength = 16
            default: hostLength = 1 + Int(buffer.getInteger(at: at + 4, as: UInt8.self) ?? 0)
            }
            guard buffer.readableBytes >= 4 + hostLength + 2,
                let bytes = buffer.getBytes(at: at + 4, length: hostLength),
                let port = buffer.getInteger(at: at + 4 + hostLength, as: UInt16.self)
            else {
                phase = .head(buffer)
                return
            }
            let host: String
            switch kind {
            case 1: host = bytes.map(String.init).joined(separator: ".")
            case 4:
                host = stride(from: 0, to: 16, by: 2).map {
                    String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
                }.joined(separator: ":")
            default: host = String(decoding: bytes.dropFirst(), as: UTF8.self)
            }
            buffer.moveReaderIndex(forwardBy: 4 + hostLength + 2)
            state.append(Record(requestLine: "SOCKS5 CONNECT \(host):\(port)", proxyAuthorization: nil, refused: false))
            open((host, Int(port)), forwarded: buffer, context: context) { context in
                context.writeAndFlush(
                    self.wrapOutboundOut(ByteBuffer(bytes: [5, 0, 0, 1, 0, 0, 0, 0, 0, 0])), promise: nil)
            } failed: { context in
                self.phase = .done
                context.writeAndFlush(
                    self.wrapOutboundOut(ByteBuffer(bytes: [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])), promise: nil)
                context.close(promise: nil)
            }
        }

        /// Connects to the server, then relays; `connected` answers the client first.
        private func open(
            _ target: (host: String, port: Int), forwarded: ByteBuffer, context: ChannelHandlerContext,
            connected: @escaping (ChannelHandlerContext) -> Void, failed: @escaping (ChannelHandlerContext) -> Void
        ) {
            phase = .connecting(forwarded.readableBytes > 0 ? [forwarded] : [])
            let client = context.channel
            let bootstrap = ClientBootstrap(group: context.eventLoop)
                .channelInitializer { server in
                    server.eventLoop.makeCompletedFuture {
                        try server.pipeline.syncOperations.addHandler(BackHandler(client: client))
                    }
                }
            // Every server the tests relay to is on this machine: an address is connected to
            // as it is, without a name lookup (NIO resolves names with getaddrinfo on Dispatch's
            // shared queue, which a suite of tests running in parallel can keep busy).
            let host = target.host == "localhost" ? "127.0.0.1" : target.host
            let connecting =
                (try? SocketAddress(ipAddress: host, port: target.port)).map { bootstrap.connect(to: $0) }
                ?? bootstrap.connect(host: target.host, port: target.port)
            connecting
                .assumeIsolated()
                .whenComplete { result in
                    switch result {
                    case .success(let server):
                        guard case .connecting(let pending) = self.phase else {
                            server.close(promise: nil)
                            return
                        }
                        self.phase = .relaying(server)
                        connected(context)
                        for chunk in pending { server.write(chunk, promise: nil) }
                        server.flush()
                    case .failure:
                        failed(context)
                    }
                }
        }

        private func reply(_ text: String, _ context: ChannelHandlerContext, close: Bool = true) {
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            if close {
                phase = .done
                context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            } else {
                context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
            }
        }
    }

    /// The server's side: relays its bytes back to the client (on the client's event loop).
    private final class BackHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let client: any Channel

        init(client: any Channel) { self.client = client }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            client.writeAndFlush(unwrapInboundIn(data), promise: nil)
            if !client.isWritable { try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false) }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            // The server takes more again: read from the client again.
            if context.channel.isWritable { try? client.syncOptions?.setOption(ChannelOptions.autoRead, value: true) }
            context.fireChannelWritabilityChanged()
        }

        func channelInactive(context: ChannelHandlerContext) {
            client.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
