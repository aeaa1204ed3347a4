import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-shot HTTP listener on 127.0.0.1 that receives an authorization code's redirect
/// (RFC 8252 §7.3: a loopback redirect for a native app).
///
/// It answers `GET /callback?…` with a page telling the user to return to the application and
/// hands the query's items to `callback(timeout:)`; anything else gets a 404 (a browser may
/// ask for `/favicon.ico` first). It listens until closed.
final class OAuth2RedirectListener: Sendable {
    /// The redirect URI to register and send: `http://127.0.0.1:PORT/callback`.
    let redirectURI: String
    private let channel: any Channel
    private let received:
        NIOLockedValueBox<(items: [String: String]?, waiter: CheckedContinuation<[String: String], any Error>?)>

    private init(
        channel: any Channel, port: Int,
        received: NIOLockedValueBox<
            (items: [String: String]?, waiter: CheckedContinuation<[String: String], any Error>?)
        >
    ) {
        self.channel = channel
        self.redirectURI = "http://127.0.0.1:\(port)/callback"
        self.received = received
    }

    /// Starts listening on `port` (0: any free port).
    ///
    /// - Throws: `OAuth2Error.listenerFailed` when the port cannot be bound.
    static func start(port: Int) async throws -> OAuth2RedirectListener {
        let received = NIOLockedValueBox<
            (items: [String: String]?, waiter: CheckedContinuation<[String: String], any Error>?)
        >((nil, nil))
        let deliver: @Sendable ([String: String]) -> Void = { items in
            let waiter = received.withLockedValue { state -> CheckedContinuation<[String: String], any Error>? in
                guard state.items == nil else { return nil }
                state.items = items
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: items)
        }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.pipeline.configureHTTPServerPipeline().flatMap {
                        channel.pipeline.addHandler(CallbackHandler(deliver: deliver))
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
            guard let bound = channel.localAddress?.port else {
                throw OAuth2Error(.listenerFailed("no port was bound"))
            }
            return OAuth2RedirectListener(channel: channel, port: bound, received: received)
        } catch let error as OAuth2Error {
            throw error
        } catch {
            throw OAuth2Error(.listenerFailed("port \(port): \(error)"))
        }
    }

    /// The redirect's query items, once it arrives.
    ///
    /// - Throws: `OAuth2Error.timedOut` after `timeout`; `CancellationError` when cancelled.
    func callback(timeout: Duration) async throws -> [String: String] {
        try await withThrowingTaskGroup(of: [String: String].self) { group in
            group.addTask {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let ready = self.received.withLockedValue { state -> [String: String]? in
                            if let items = state.items { return items }
                            state.waiter = continuation
                            return nil
                        }
                        if let ready { continuation.resume(returning: ready) }
                    }
                } onCancel: {
                    let waiter = self.received.withLockedValue { state in
                        defer { state.waiter = nil }
                        return state.waiter
                    }
                    waiter?.resume(throwing: CancellationError())
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw OAuth2Error(.timedOut(seconds: Int(timeout.components.seconds)))
            }
            defer { group.cancelAll() }
            guard let items = try await group.next() else { throw CancellationError() }
            return items
        }
    }

    /// Stops listening.
    func close() {
        channel.close(promise: nil)
    }
}

/// Answers each request on a connection: the callback with a page, anything else with 404.
private final class CallbackHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let deliver: @Sendable ([String: String]) -> Void

    init(deliver: @escaping @Sendable ([String: String]) -> Void) { self.deliver = deliver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let components = URLComponents(string: head.uri)
        let page: String
        let status: HTTPResponseStatus
        if components?.path == "/callback" {
            var items: [String: String] = [:]
            // The redirect's query is form-encoded (RFC 6749 §4.1.2): `+` is a space.
            for field in PercentEncoding.formFields(components?.percentEncodedQuery ?? "")
            where items[field.name] == nil {
                items[field.name] = field.value
            }
            deliver(items)
            status = .ok
            page =
                items["error"] == nil
                ? "<h1>Signed in</h1><p>The application has the authorization; you can close this tab.</p>"
                : "<h1>Not authorized</h1><p>\(Self.escaped(items["error_description"] ?? items["error"] ?? ""))</p>"
                    + "<p>You can close this tab.</p>"
        } else {
            status = .notFound
            page = "<h1>Not found</h1>"
        }
        let body = "<!doctype html><meta charset=utf-8><title>Authorization</title>" + page
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
