import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The default transport on Linux, built on swift-server/async-http-client.
///
/// One long-lived `HTTPClient` with a connection pool serves every request; call `shutdown()`
/// when done (a transport released without it shuts its client down in the background).
/// Bodies are streamed chunk by chunk into their destination with progress; redirects are
/// followed (or not) with their history; gzip/deflate are decompressed.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// How the transport's client behaves.
    public struct Configuration: Sendable {
        /// Where requests go through a proxy.
        public enum Proxy: Sendable, Hashable {
            /// Never use a proxy.
            case none
            /// Use `HTTPS_PROXY`/`HTTP_PROXY` (either case) from the process environment, if set.
            case environment
            /// Use this HTTP proxy.
            case server(host: String, port: Int)
        }

        /// Whether redirects are followed.
        public var followRedirects: Bool
        /// How many redirects are followed at most.
        public var maximumRedirects: Int
        /// The time a connection may take to establish.
        public var connectTimeout: Duration
        /// The longest silence while reading, or `nil` for none.
        public var readTimeout: Duration?
        /// The time a whole request may take unless its options say otherwise.
        public var requestTimeout: Duration
        /// Whether gzip and deflate bodies are decompressed (and `Accept-Encoding` sent).
        public var decompression: Bool
        /// The largest body accepted, in bytes, unless a request's options say otherwise.
        public var maximumBodySize: Int?
        /// Whether invalid TLS certificates are accepted: for local development only.
        public var allowsInvalidCertificates: Bool
        /// The proxy.
        public var proxy: Proxy
        /// Whether HTTP/2 may be negotiated over TLS.
        public var allowsHTTP2: Bool

        /// Creates a configuration.
        public init(
            followRedirects: Bool = true,
            maximumRedirects: Int = 10,
            connectTimeout: Duration = .seconds(10),
            readTimeout: Duration? = .seconds(60),
            requestTimeout: Duration = .seconds(300),
            decompression: Bool = true,
            maximumBodySize: Int? = nil,
            allowsInvalidCertificates: Bool = false,
            proxy: Proxy = .environment,
            allowsHTTP2: Bool = true
        ) {
            self.followRedirects = followRedirects
            self.maximumRedirects = maximumRedirects
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.requestTimeout = requestTimeout
            self.decompression = decompression
            self.maximumBodySize = maximumBodySize
            self.allowsInvalidCertificates = allowsInvalidCertificates
            self.proxy = proxy
            self.allowsHTTP2 = allowsHTTP2
        }
    }

    /// The configuration the client was made with.
    public let configuration: Configuration
    /// The underlying client.
    public let client: HTTPClient
    private let ownsClient: Bool
    let isShutDown = Locked(false)

    /// Creates a transport with its own client.
    ///
    /// - Parameter configuration: how the client behaves.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration(configuration))
        self.ownsClient = true
    }

    /// Creates a transport on an existing client, which the caller keeps owning and shuts down.
    ///
    /// - Parameters:
    ///   - client: the client.
    ///   - configuration: the per-request parts (timeouts, body limit) to apply.
    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.client = client
        self.ownsClient = false
    }

    deinit {
        let needsShutdown = ownsClient && !isShutDown.withLock { $0 }
        if needsShutdown { client.shutdown { _ in } }
    }

    /// Shuts the client down, closing its connections; later requests fail. Safe to call twice.
    ///
    /// - Throws: the client's shutdown error, if any.
    public func shutdown() async throws {
        let first = isShutDown.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first, ownsClient else { return }
        try await client.shutdown()
    }

    // MARK: - Sending

    /// Sends a request, streaming its body into the options' destination.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: the deadline, body limit and destination.
    ///   - progress: called as body bytes arrive.
    /// - Returns: the response.
    /// - Throws: `TransportError`.
    public func send(_ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let timeout = options.timeout ?? configuration.requestTimeout
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(timeout.nanoseconds)
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let headReceived = Date()
            let finalURL = response.url ?? request.url
            let headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
            let expected = response.headers.first(name: "content-length").flatMap { Int64($0) }
            var sink = try BodySink(
                url: finalURL, limit: options.maximumBodySize ?? configuration.maximumBodySize,
                expected: configuration.decompression && response.headers.contains(name: "content-encoding") ? nil : expected,
                destination: options.bodyDestination,
                head: ResponseHead(status: HTTPStatus(code: Int(response.status.code)), headers: headers, httpVersion: Self.describe(response.version)),
                progress: progress)
            sink.begin()
            for try await chunk in response.body {
                try sink.append(chunk.readableBytesView)
            }
            let body = try sink.finish()
            return TransportResponse(
                status: HTTPStatus(code: Int(response.status.code)), headers: headers, body: body, url: finalURL,
                httpVersion: Self.describe(response.version), headReceived: headReceived, finished: Date(),
                bytesReceived: sink.count, redirects: Self.redirects(in: response.history))
        } catch {
            if Task.isCancelled { throw TransportError.cancelled }
            throw TransportErrorMapping.map(error, url: request.url, redirectLimit: configuration.maximumRedirects)
        }
    }

    // MARK: - Helpers

    private static func describe(_ version: HTTPVersion) -> String {
        version.major >= 2 ? "HTTP/\(version.major)" : "HTTP/\(version.major).\(version.minor)"
    }

    private static func redirects(in history: [HTTPClientRequestResponse]) -> [ResponseTimings.Redirect] {
        guard history.count > 1 else { return [] }
        return zip(history, history.dropFirst()).compactMap { hop, next in
            guard let from = URL(string: hop.request.url), let to = URL(string: next.request.url) else { return nil }
            return ResponseTimings.Redirect(from: from, to: to, status: HTTPStatus(code: Int(hop.responseHead.status.code)))
        }
    }

    private static func clientConfiguration(_ configuration: Configuration) -> HTTPClient.Configuration {
        var client = HTTPClient.Configuration(
            certificateVerification: configuration.allowsInvalidCertificates ? .none : .fullVerification,
            redirectConfiguration: configuration.followRedirects
                ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow,
            timeout: .init(
                connect: .nanoseconds(configuration.connectTimeout.nanoseconds),
                read: configuration.readTimeout.map { .nanoseconds($0.nanoseconds) }),
            proxy: proxy(for: configuration.proxy),
            decompression: configuration.decompression ? .enabled(limit: .none) : .disabled)
        // Fail at once when nothing listens, instead of retrying until the deadline.
        client.connectionPool.retryConnectionEstablishment = false
        client.httpVersion = configuration.allowsHTTP2 ? .automatic : .http1Only
        return client
    }

    private static func proxy(for proxy: Configuration.Proxy) -> HTTPClient.Configuration.Proxy? {
        switch proxy {
        case .none: return nil
        case .server(let host, let port): return .server(host: host, port: port)
        case .environment:
            let environment = ProcessInfo.processInfo.environment
            let value = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].lazy
                .compactMap { environment[$0] }.first { !$0.isEmpty }
            guard let value, let url = URL(string: value.contains("://") ? value : "http://" + value),
                let host = url.host
            else { return nil }
            return .server(host: host, port: url.port ?? 80)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let parts = components
        let (seconds, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : seconds + parts.attoseconds / 1_000_000_000
    }
}
