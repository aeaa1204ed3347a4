import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import WSClient

/// Limits of a WebSocket session; each can be raised.
public struct WebSocketOptions: Sendable {
    /// How long the connection and the upgrade may take.
    public var connectTimeout: Duration
    /// The largest message accepted (or sent), in bytes; a bigger one closes the session with
    /// 1009 (message too big).
    public var maximumMessageSize: Int
    /// How many events may wait for the reader before the connection stops reading (the server
    /// is then slowed by TCP flow control; nothing is dropped).
    public var bufferedEvents: Int
    /// How long a close handshake may wait for the server's answer.
    public var closeTimeout: Duration
    /// The TLS of a wss:// connection (made with `TLSSettings.tlsConfiguration()`); the
    /// system's trust roots when `nil`.
    public var tls: TLSConfiguration?
    /// The proxy the connection is tunnelled through (`CONNECT`, or SOCKS5), or `nil` to connect
    /// directly. `NetworkDispatcher.webSocket` sets the one its transport would use for the URL.
    public var proxy: ProxyServer?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - connectTimeout: the time for the connection and the upgrade (10 s).
    ///   - maximumMessageSize: the largest message in bytes (16 MiB).
    ///   - bufferedEvents: the events that may wait for the reader (1,000).
    ///   - closeTimeout: the time the server has to answer a close (5 s).
    ///   - tls: the TLS of a wss:// connection (the system's defaults).
    public init(
        connectTimeout: Duration = .seconds(10), maximumMessageSize: Int = 16 << 20, bufferedEvents: Int = 1_000,
        closeTimeout: Duration = .seconds(5),
        tls: TLSConfiguration? = nil
    ) {
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.maximumMessageSize = maximumMessageSize
        self.bufferedEvents = bufferedEvents
        self.closeTimeout = closeTimeout
    }
}

/// Why a WebSocket session could not open or send.
public enum WebSocketError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The URL is not a ws://, wss://, http:// or https:// URL with a host.
    case invalidURL(String)
    /// The server answered the upgrade request without switching to WebSocket.
    case upgradeFailed(url: String)
    /// The server refused the upgrade with this status and body (the start of it, as text).
    case upgradeRefused(url: String, status: Int, body: String)
    /// The connection failed before the upgrade (refused, DNS, TLS, time-out).
    case transport(TransportError)
    /// The session is closed (or closing); nothing more can be sent.
    case notOpen
    /// A message to send is bigger than `WebSocketOptions.maximumMessageSize`.
    case messageTooLarge(size: Int, limit: Int)
    /// The credentials are for a scheme that answers a challenge (digest), which an upgrade,
    /// answered once, cannot do.
    case challengeAuthentication(url: String)

    /// One sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidURL(let url):
            return "\(url) is not a WebSocket URL; use ws://host/path or wss://host/path."
        case .upgradeFailed(let url):
            return
                "The server at \(url) did not switch to WebSocket (no 101 Switching Protocols): check the path, "
                + "the headers and the credentials."
        case .upgradeRefused(let url, let status, let body):
            let check: String
            switch status {
            case 401, 403: check = "check the credentials"
            case 404, 410: check = "check the path"
            case 407: check = "check the proxy's credentials"
            case 426: check = "the server wants another protocol version"
            case 500...: check = "the server failed; its logs say why"
            default: check = "check the path, the headers and the credentials"
            }
            let said = body.isEmpty ? "" : " It said: " + body.split(whereSeparator: \.isNewline).joined(separator: " ")
            return
                "The server at \(url) refused the WebSocket upgrade with \(HTTPStatus(code: status)): \(check).\(said)"
        case .transport(let error):
            return error.description
        case .notOpen:
            return "The WebSocket session is closed; reconnect to send."
        case .messageTooLarge(let size, let limit):
            return
                "The message is \(size) bytes, over the limit of \(limit) bytes; "
                + "raise the maximum message size to send it."
        case .challengeAuthentication(let url):
            return
                "Digest authentication cannot open the WebSocket at \(url): it answers the server's challenge with a "
                + "second request, and an upgrade is answered once. "
                + "Use basic or bearer auth (or a token in a header) for this endpoint."
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// A WebSocket connection opened with the upgrade of a `PreparedRequest` (its URL, headers and
/// credentials), built on swift-websocket's `WebSocketClient`.
///
/// ```swift
/// let session = try await WebSocketSession.connect(PreparedRequest(url: URL(string: "ws://127.0.0.1:8080/ws/echo")!))
/// try await session.send(text: "hello")
/// for await event in session.events { print(event) }   // .entry(sent "hello"), .entry(received "hello") …
/// ```
///
/// `events` reports every message, ping and close in order, sent ones included, and ends with
/// `.closed`. It is bounded by `WebSocketOptions.bufferedEvents` (back-pressure, not loss).
public final class WebSocketSession: Sendable {
    /// The URL connected to (ws:// or wss://).
    public let url: URL
    /// The headers sent with the upgrade request.
    public let requestHeaders: HTTPHeaders
    /// When the upgrade succeeded.
    public let openedAt: Date
    /// Every entry and then the closing, in order; one reader at a time.
    public let events: WebSocketEvents
    /// The limits in force.
    public let options: WebSocketOptions

    private let queue: WebSocketEventQueue
    private let connection: Locked<Connection>
    private let runTask: Locked<Task<Void, Never>?>

    private struct Connection {
        var outbound: WebSocketOutboundWriter?
        var closeRequest: (code: Int, reason: String)?
        var closed = false
    }

    private init(url: URL, headers: HTTPHeaders, options: WebSocketOptions, queue: WebSocketEventQueue) {
        self.url = url
        self.requestHeaders = headers
        self.openedAt = Date()
        self.options = options
        self.queue = queue
        self.events = WebSocketEvents(queue: queue)
        self.connection = Locked(Connection())
        self.runTask = Locked(nil)
    }

    /// The WebSocket URL for a request URL: `http` becomes `ws`, `https` becomes `wss`.
    ///
    /// - Parameter url: a ws, wss, http or https URL.
    /// - Returns: the URL with a WebSocket scheme, or `nil` for another scheme or no host.
    public static func webSocketURL(for url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.host?.isEmpty == false
        else { return nil }
        switch components.scheme?.lowercased() {
        case "ws", "wss": break
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: return nil
        }
        if components.path.isEmpty { components.path = "/" }
        return components.url
    }

    /// Opens a session: connects, sends the upgrade request with the request's headers, and
    /// returns once the server switched protocols.
    ///
    /// - Parameters:
    ///   - request: the URL (ws, wss, http or https) and the headers of the upgrade request; its
    ///     method and body are not used.
    ///   - options: the session's limits.
    /// - Returns: the open session.
    /// - Throws: `WebSocketError` (invalid URL, failed upgrade, transport failure or time-out).
    public static func connect(_ request: PreparedRequest, options: WebSocketOptions = WebSocketOptions()) async throws
        -> WebSocketSession
    {
        guard let url = webSocketURL(for: request.url) else {
            throw WebSocketError.invalidURL(request.url.absoluteString)
        }
        var fields = HTTPFields()
        for field in request.headers {
            // The client writes Host and Origin itself; a second one would make the upgrade invalid.
            guard let name = HTTPField.Name(field.name), !["host", "origin"].contains(field.name.lowercased()) else {
                continue
            }
            fields.append(HTTPField(name: name, value: field.value))
        }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: min(max(options.maximumMessageSize, 1 << 14), 1 << 26),
            additionalHeaders: fields,
            closeTimeout: options.closeTimeout,
            validateUTF8: false
        )
        let queue = WebSocketEventQueue(capacity: options.bufferedEvents)
        let session = WebSocketSession(url: url, headers: request.headers, options: options, queue: queue)
        let opening = Opening()
        var logger = Logger(label: "networking.websocket")
        logger.logLevel = .critical
        let handler: WebSocketDataHandler<WebSocketClient.Context> = { inbound, outbound, _ in
            session.connection.withLock { $0.outbound = outbound }
            opening.finish(.success(()))
            var messages = inbound.messages(maxSize: options.maximumMessageSize).makeAsyncIterator()
            while let message = try await messages.next() {
                switch message {
                case .text(let text):
                    await queue.push(.entry(.text(text, .received)))
                case .binary(let buffer):
                    await queue.push(
                        .entry(
                            WebSocketEntry(direction: .received, kind: .binary, data: Data(buffer.readableBytesView))))
                }
            }
        }
        let client: WebSocketClient
        if let proxy = options.proxy {
            var connectHeaders = HTTPFields()
            if let authorization = proxy.authorizationHeader { connectHeaders[.proxyAuthorization] = authorization }
            let settings = WebSocketProxySettings(
                host: proxy.host, port: proxy.port,
                type: proxy.kind == .socks5 ? .socks : .http(connectHeaders: connectHeaders),
                timeout: options.connectTimeout)
            client = WebSocketClient(
                url: url.absoluteString, configuration: configuration, tlsConfiguration: options.tls,
                proxySettings: settings,
                logger: logger, handler: handler)
        } else {
            client = WebSocketClient(
                url: url.absoluteString, configuration: configuration, tlsConfiguration: options.tls, logger: logger,
                handler: handler)
        }
        let task = Task {
            let closing: WebSocketClosing
            do {
                let frame = try await client.run()
                closing = session.closing(after: frame, failure: nil)
            } catch {
                if opening.finish(.failure(Self.openingError(error, url: url, proxy: options.proxy))) { return }
                closing = session.closing(after: nil, failure: Self.sessionFailure(error))
            }
            if opening.finish(.failure(WebSocketError.upgradeFailed(url: url.absoluteString))) { return }
            session.connection.withLock {
                $0.closed = true
                $0.outbound = nil
            }
            if closing.initiator == .server {
                await queue.push(
                    .entry(WebSocketEntry(direction: .received, kind: .close, data: Data(closing.reason.utf8))))
            }
            await queue.push(.closed(closing))
            queue.finish()
        }
        session.runTask.withLock { $0 = task }
        let timeout = Task {
            try await Task.sleep(for: options.connectTimeout)
            if opening.finish(.failure(WebSocketError.transport(.timedOut(url: url, phase: "opening the WebSocket")))) {
                task.cancel()
            }
        }
        defer { timeout.cancel() }
        do {
            try await opening.wait()
        } catch {
            task.cancel()
            queue.finish()
            throw error
        }
        return session
    }

    // MARK: - Sending

    /// Sends a text message.
    ///
    /// - Parameter text: the message.
    /// - Throws: `WebSocketError.notOpen` after a close, `.messageTooLarge` past the limit.
    public func send(text: String) async throws {
        let size = text.utf8.count
        guard size <= options.maximumMessageSize else {
            throw WebSocketError.messageTooLarge(size: size, limit: options.maximumMessageSize)
        }
        try await write(.text(text, .sent)) { try await $0.writeTextMessage(text) }
    }

    /// Sends a binary message.
    ///
    /// - Parameter data: the message.
    /// - Throws: `WebSocketError.notOpen` after a close, `.messageTooLarge` past the limit.
    public func send(binary data: Data) async throws {
        guard data.count <= options.maximumMessageSize else {
            throw WebSocketError.messageTooLarge(size: data.count, limit: options.maximumMessageSize)
        }
        try await write(WebSocketEntry(direction: .sent, kind: .binary, data: data)) {
            try await $0.writeBinaryMessage(ByteBuffer(bytes: data))
        }
    }

    /// Sends a ping (the server answers with a pong, which the client takes in).
    ///
    /// - Parameter payload: up to 125 bytes carried by the ping.
    /// - Throws: `WebSocketError.notOpen` after a close.
    public func ping(_ payload: Data = Data()) async throws {
        let data = payload.prefix(125)
        try await write(WebSocketEntry(direction: .sent, kind: .ping, data: data)) {
            try await $0.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(bytes: data))))
        }
    }

    /// Starts the close handshake with a code and a reason; `events` ends with `.closed` once
    /// the server answered (or `closeTimeout` passed).
    ///
    /// - Parameters:
    ///   - code: the close code (1000 normal closure, 1001 going away, 3000–4999 the application's).
    ///   - reason: up to 123 bytes of text.
    /// - Throws: `WebSocketError.notOpen` when already closed.
    public func close(code: Int = 1000, reason: String = "") async throws {
        var reason = reason
        while reason.utf8.count > 123 { reason.removeLast() }
        let outbound = try connection.withLock { connection -> WebSocketOutboundWriter in
            guard let outbound = connection.outbound, connection.closeRequest == nil, !connection.closed else {
                throw WebSocketError.notOpen
            }
            connection.closeRequest = (code, reason)
            return outbound
        }
        await queue.push(.entry(WebSocketEntry(direction: .sent, kind: .close, data: Data(reason.utf8))))
        do {
            try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason.isEmpty ? nil : reason)
        } catch {
            throw WebSocketError.notOpen
        }
    }

    /// Drops the connection without a close handshake (what a lost network does).
    public func cancel() {
        runTask.withLock { $0 }?.cancel()
    }

    /// How many events wait to be read (at most `options.bufferedEvents`).
    public var waitingEvents: Int { queue.waiting }

    /// Waits until the session has ended.
    public func waitUntilClosed() async {
        await runTask.withLock { $0 }?.value
    }

    private func write(_ entry: WebSocketEntry, _ body: (WebSocketOutboundWriter) async throws -> Void) async throws {
        let outbound = try connection.withLock { connection -> WebSocketOutboundWriter in
            guard let outbound = connection.outbound, connection.closeRequest == nil, !connection.closed else {
                throw WebSocketError.notOpen
            }
            return outbound
        }
        do {
            try await body(outbound)
        } catch {
            throw WebSocketError.notOpen
        }
        await queue.push(.entry(entry))
    }

    // MARK: - Ending

    private func closing(after frame: WebSocketCloseFrame?, failure: String?) -> WebSocketClosing {
        let request = connection.withLock { $0.closeRequest }
        if let request {
            return WebSocketClosing(
                code: request.code, reason: request.reason, initiator: .client, failure: frame == nil ? failure : nil)
        }
        if let frame {
            return WebSocketClosing(
                code: Int(UInt16(webSocketErrorCode: frame.closeCode)), reason: frame.reason ?? "", initiator: .server,
                failure: failure)
        }
        if Task.isCancelled {
            return WebSocketClosing(code: 1006, initiator: .connection, failure: "the client dropped the connection")
        }
        return WebSocketClosing(
            code: 1006, initiator: .connection,
            failure: failure ?? "the server closed the connection without a close frame")
    }

    private static func openingError(_ error: any Error, url: URL, proxy: ProxyServer?) -> any Error {
        if let error = error as? WebSocketError { return error }
        let target = "\(url.host ?? url.absoluteString):\(url.port ?? NoProxyList.defaultPort(of: url))"
        if let error = error as? WebSocketClientError {
            if error == .invalidURL { return WebSocketError.invalidURL(url.absoluteString) }
            if error == .webSocketUpgradeFailed { return WebSocketError.upgradeFailed(url: url.absoluteString) }
            if let proxy, error == .proxyHandshakeInvalidResponse {
                return WebSocketError.transport(
                    .proxyFailed(
                        proxy: proxy.description, source: proxy.source, target: target,
                        reason: "it refused the tunnel (its answer to CONNECT was not 2xx)"))
            }
            if let proxy, error == .proxyHandshakeTimeout {
                return WebSocketError.transport(
                    .proxyFailed(
                        proxy: proxy.description, source: proxy.source, target: target,
                        reason: "it did not answer CONNECT in time"))
            }
            if let proxy, error == .proxyHandshakeFailed {
                // swift-websocket reports a 407 this way (and a proxy that closed the connection).
                return WebSocketError.transport(
                    .proxyFailed(
                        proxy: proxy.description, source: proxy.source, target: target,
                        reason:
                            "it refused the tunnel: 407 Proxy Authentication Required (check the user and password in "
                            + "\(proxy.source)) or it closed the connection"
                    ))
            }
            return WebSocketError.transport(.other(error.description))
        }
        if error is CancellationError { return WebSocketError.transport(.cancelled) }
        var httpURL = URLComponents(url: url, resolvingAgainstBaseURL: false)
        httpURL?.scheme = url.scheme == "wss" ? "https" : "http"
        let mapped = TransportErrorMapping.map(error, url: httpURL?.url ?? url, redirectLimit: 0, proxy: proxy)
        return WebSocketError.transport(mapped as? TransportError ?? .other(String(describing: error)))
    }

    private static func sessionFailure(_ error: any Error) -> String {
        if let error = error as? WebSocketClientError { return error.description }
        if error is CancellationError { return "the client dropped the connection" }
        return String(describing: error)
    }
}

/// The events of a session as an `AsyncSequence`; it ends after `.closed`.
public struct WebSocketEvents: AsyncSequence, Sendable {
    public typealias Element = WebSocketEvent
    let queue: WebSocketEventQueue

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: WebSocketEventQueue

        /// The next event, or `nil` after the closing (or when the task is cancelled).
        public mutating func next() async -> WebSocketEvent? { await queue.next() }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// The next event, or `nil` after the closing or when the calling task is cancelled (an
    /// event is never lost to a cancellation: it stays for the next call).
    public func next() async -> WebSocketEvent? { await queue.next() }

    /// The next event, or `.timedOut` when none arrives within `timeout`.
    ///
    /// - Parameter timeout: the longest wait, or `nil` to wait as long as it takes.
    /// - Returns: the event (`nil` after the closing), or `.timedOut`.
    public func next(within timeout: Duration?) async -> WebSocketWait {
        guard let timeout else { return .event(await next()) }
        return await withTaskGroup(of: WebSocketWait.self) { group in
            group.addTask { .event(await queue.next()) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            guard case .timedOut = first else { return first }
            // The reader was cancelled; an event that raced the timeout is still returned.
            if case .event(let event?) = await group.next() ?? .timedOut { return .event(event) }
            return .timedOut
        }
    }
}

/// What waiting for an event with a timeout gives.
public enum WebSocketWait: Sendable {
    /// An event, or `nil` after the closing.
    case event(WebSocketEvent?)
    /// Nothing arrived in time.
    case timedOut
}

/// The one-shot outcome of opening: the first of "upgraded", "failed" and "timed out" wins.
private final class Opening: Sendable {
    private struct State {
        var result: Result<Void, any Error>?
        var waiter: CheckedContinuation<Void, any Error>?
    }
    private let state = Locked(State())

    /// Records the outcome; returns whether this call decided it.
    @discardableResult
    func finish(_ result: Result<Void, any Error>) -> Bool {
        let (decided, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(with: result)
        return decided
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let result = state.withLock { state -> Result<Void, any Error>? in
                if state.result == nil { state.waiter = waiter }
                return state.result
            }
            if let result { waiter.resume(with: result) }
        }
    }
}
