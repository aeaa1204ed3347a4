import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The default transport on Linux, built on swift-server/async-http-client.
///
/// One long-lived `HTTPClient` with a connection pool serves the requests that go directly, and
/// one more per proxy in use (made on first use: async-http-client has one proxy per client);
/// the proxy is chosen per request by its URL (`Configuration.Proxy`): https is tunnelled with
/// `CONNECT`, plain http goes to an HTTP proxy in absolute form (`ForwardProxyExchange`). Call
/// `shutdown()` when done (a transport released without it shuts its clients down in the
/// background).
/// Bodies are streamed chunk by chunk with back-pressure (`stream`) or into a destination with
/// progress (`send`); redirects are followed hop by hop (or not) with their history, each hop
/// shaped by the request's `RedirectHandler`; gzip/deflate are
/// decompressed under size and ratio limits.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// How the transport's client behaves.
    public struct Configuration: Sendable {
        /// Where requests go through a proxy. The choice is made per request, by its URL.
        public enum Proxy: Sendable, Hashable {
            /// Never use a proxy.
            case none
            /// The proxy variables of the process environment, read when the transport is made:
            /// `http_proxy` for http URLs, `https_proxy` for https, `all_proxy` otherwise,
            /// `no_proxy` for the hosts reached directly (each in either case; see `ProxyRules`).
            case environment
            /// Use this HTTP proxy for every request.
            case server(host: String, port: Int)
            /// Use these rules: a proxy per scheme, with credentials, and the hosts reached directly.
            case rules(ProxyRules)
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
        /// Whether gzip and deflate bodies are decompressed (and `Accept-Encoding: gzip, deflate`
        /// sent when the request names none).
        public var decompression: Bool
        /// The largest body accepted, in bytes, unless a request's options say otherwise.
        public var maximumBodySize: Int?
        /// The largest size a compressed body may inflate to, unless a request's options say
        /// otherwise.
        public var maximumDecompressedSize: Int?
        /// The largest ratio of inflated to compressed bytes, unless a request's options say
        /// otherwise. Text rarely compresses beyond 20:1; deflate cannot pass about 1032:1, so
        /// the default 200 stops a bomb after its first pieces and lets real bodies through.
        public var maximumDecompressionRatio: Int?
        /// Whether invalid TLS certificates are accepted: for local development only.
        public var allowsInvalidCertificates: Bool
        /// The proxy.
        public var proxy: Proxy
        /// Whether HTTP/2 may be negotiated over TLS.
        public var allowsHTTP2: Bool
        /// The TLS settings of every connection (a CA, a client certificate, the lowest
        /// version), made with `TLSSettings.tlsConfiguration()`; the system's defaults when `nil`.
        public var tls: TLSConfiguration?
        /// Addresses to connect to instead of resolving a name, as curl's `--resolve
        /// HOST:PORT:ADDRESS`: keyed by `host:port` (an IPv6 host in brackets), each an IP
        /// address. The URL, the `Host` header, cookies and the TLS name check stay the host's.
        /// Applies to connections made directly; through a proxy, the proxy resolves the name.
        public var resolve: [String: String]
        /// Whether plain http also goes through an HTTP proxy in a `CONNECT` tunnel (curl's
        /// `--proxytunnel`) instead of in absolute form.
        public var proxyTunnel: Bool
        /// The most requests a connection carries before it is closed and the next request
        /// opens another; `nil` for no limit. `1` opens a connection for every request, as a
        /// load tool's `--disable-keepalive` does (and curl in a shell loop). Values below 1
        /// count as 1.
        public var maximumRequestsPerConnection: Int?

        /// Creates a configuration.
        public init(
            followRedirects: Bool = true,
            maximumRedirects: Int = 10,
            connectTimeout: Duration = .seconds(10),
            readTimeout: Duration? = .seconds(60),
            requestTimeout: Duration = .seconds(300),
            decompression: Bool = true,
            maximumBodySize: Int? = nil,
            maximumDecompressedSize: Int? = nil,
            maximumDecompressionRatio: Int? = 200,
            allowsInvalidCertificates: Bool = false,
            proxy: Proxy = .environment,
            allowsHTTP2: Bool = true,
            tls: TLSConfiguration? = nil,
            resolve: [String: String] = [:],
            proxyTunnel: Bool = false,
            maximumRequestsPerConnection: Int? = nil
        ) {
            self.maximumRequestsPerConnection = maximumRequestsPerConnection
            self.tls = tls
            self.resolve = resolve
            self.proxyTunnel = proxyTunnel
            self.followRedirects = followRedirects
            self.maximumRedirects = maximumRedirects
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.requestTimeout = requestTimeout
            self.decompression = decompression
            self.maximumBodySize = maximumBodySize
            self.maximumDecompressedSize = maximumDecompressedSize
            self.maximumDecompressionRatio = maximumDecompressionRatio
            self.allowsInvalidCertificates = allowsInvalidCertificates
            self.proxy = proxy
            self.allowsHTTP2 = allowsHTTP2
        }
    }

    /// The configuration the client was made with.
    public let configuration: Configuration
    /// The client of the requests that go directly (without a proxy).
    public let client: HTTPClient
    /// Which proxy each request goes through; `nil` when none does (or the client is the caller's).
    public let proxyRules: ProxyRules?
    private let ownsClient: Bool
    /// Whether redirects are followed here, hop by hop, rather than by async-http-client (a
    /// client the caller gave follows them as it was configured).
    private let routesRedirects: Bool
    let isShutDown = Locked(false)
    /// One client per proxy in use (async-http-client has one proxy per client), made on first use.
    private let proxyClients = Locked<[ProxyServer.Endpoint: HTTPClient]>([:])
    /// One client per host reached at an address of `resolve` (async-http-client's DNS override
    /// is per client), by `host address`, made on first use.
    private let resolvingClients = Locked<[String: HTTPClient]>([:])
    /// A task executor per event loop of the client's group: a task that sends through the
    /// transport from one of them has its exchange run on that loop, on a connection of that
    /// loop, and resumes on the thread that read its response.
    public let executors: [EventLoopExecutor]
    /// Requests sent now through the transport's own clients by callers off its loops (see `send`).
    private let requestsInFlight = Atomic<Int>(0)
    /// The loop the next exchange moved to a loop beside another goes to (see `send`), counted in turn.
    private let nextLoop = Atomic<UInt>(0)

    /// Creates a transport with its own client.
    ///
    /// - Parameter configuration: how the client behaves.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let rules = Self.rules(for: configuration.proxy)
        self.proxyRules = rules
        // The transport follows redirects itself, so that each hop picks its proxy and the
        // request's redirect handler sees each one.
        self.routesRedirects = true
        self.client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Self.clientConfiguration(configuration, proxy: nil, followsRedirects: false))
        self.ownsClient = true
        self.executors = EventLoopExecutor.executors(of: client.eventLoopGroup)
    }

    /// Creates a transport on an existing client, which the caller keeps owning and shuts down.
    ///
    /// Every request goes through that client, with its own proxy; `configuration.proxy` is not used.
    ///
    /// - Parameters:
    ///   - client: the client.
    ///   - configuration: the per-request parts (timeouts, body limit) to apply.
    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.client = client
        self.proxyRules = nil
        self.routesRedirects = false
        self.ownsClient = false
        self.executors = EventLoopExecutor.executors(of: client.eventLoopGroup)
    }

    deinit {
        let needsShutdown = ownsClient && !isShutDown.withLock { $0 }
        if needsShutdown {
            client.shutdown { _ in }
            for proxied in proxyClients.withLock({ Array($0.values) }) { proxied.shutdown { _ in } }
            for resolving in resolvingClients.withLock({ Array($0.values) }) { resolving.shutdown { _ in } }
        }
    }

    /// Shuts the clients down, closing their connections; later requests fail. Safe to call twice.
    ///
    /// - Throws: the client's shutdown error, if any.
    public func shutdown() async throws {
        let first = isShutDown.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first, ownsClient else { return }
        for proxied in proxyClients.withLock({ Array($0.values) }) { try? await proxied.shutdown() }
        for resolving in resolvingClients.withLock({ Array($0.values) }) { try? await resolving.shutdown() }
        try await client.shutdown()
    }

    // MARK: - Proxies

    /// The proxy a request to this URL goes through, or `nil` when it goes directly.
    ///
    /// - Throws: `TransportError.invalidProxy` when the setting for the URL cannot be used.
    public func proxy(for url: URL) throws -> ProxyServer? {
        do {
            return try proxyRules?.proxy(for: url)
        } catch {
            throw TransportError.invalidProxy(String(describing: error))
        }
    }

    /// The client for a request through this proxy (the direct one for `nil`), made on first use.
    private func client(through proxy: ProxyServer?) throws -> HTTPClient {
        guard let proxy else { return client }
        return try proxyClients.withLock { clients in
            if let made = clients[proxy.endpoint] { return made }
            // Checked under the lock, so no client is made after shutdown collected them.
            guard !isShutDown.withLock({ $0 }) else { throw TransportError.other("the transport was shut down") }
            let made = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: Self.clientConfiguration(configuration, proxy: proxy, followsRedirects: false))
            clients[proxy.endpoint] = made
            return made
        }
    }

    /// The address `resolve` gives a URL's host and port, or `nil` to resolve its name.
    func resolvedAddress(for url: URL) -> (host: String, address: String)? {
        guard !configuration.resolve.isEmpty, let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? NoProxyList.defaultPort(of: url)
        let named = host.contains(":") ? "[\(host)]" : host
        guard let address = configuration.resolve.first(where: { $0.key.lowercased() == "\(named):\(port)" })?.value
        else { return nil }
        return (host, address)
    }

    /// The client of a request made directly: the shared one, or one that connects to the
    /// address `resolve` gives the URL's host and port, made on first use.
    private func directClient(for url: URL) throws -> HTTPClient {
        guard let (host, address) = resolvedAddress(for: url) else { return client }
        return try resolvingClients.withLock { clients in
            let key = host + " " + address
            if let made = clients[key] { return made }
            guard !isShutDown.withLock({ $0 }) else { throw TransportError.other("the transport was shut down") }
            var settings = Self.clientConfiguration(configuration, proxy: nil, followsRedirects: false)
            settings.dnsOverride = [host: address]
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
            clients[key] = made
            return made
        }
    }

    // MARK: - Sending

    /// Sends a request and collects its body into the options' destination.
    ///
    /// Where the exchange runs: a caller on one of the client's event loops (`executors`) runs
    /// it itself, on that loop; from elsewhere, while no more requests are in flight than the
    /// client has loops, it runs on a loop (a lone request on the first); otherwise in a task
    /// on Swift's global executor.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: the deadlines, body limits and destination.
    ///   - progress: called as body bytes arrive, where the exchange runs (often an event
    ///     loop: keep it short).
    /// - Returns: the response.
    /// - Throws: `TransportError`.
    public func send(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        // A caller that runs on one of the client's loops (see `executors`) sends with the
        // delegate API, and every head and body come through a `BodyChannel`, which keeps the
        // body's deadlines itself: the exchange runs in the caller's task, on the thread that
        // reads the response, with no task of its own.
        if callerIsOnLoop {
            return try await exchange(request, options: options, throughChannels: true, progress: progress, watch: nil)
        }
        guard ownsClient else { return try await exchangeInATask(request, options: options, progress: progress) }
        // Off the loops with no more requests in flight than there are loops, the exchange
        // moves to a loop and runs there as it would for a caller on it: one hand-over each
        // way. A lone request goes to the first loop, so that requests one after another keep
        // to one loop and the connection made there (async-http-client prefers a connection of
        // the delegate's loop but takes an idle one of another loop, and then every step crosses
        // between the two); a second in flight goes to the loops in turn. Measured with
        // networking-bench against raw HTTPClient.execute: sequential 1.041× quiet and 0.991–
        // 1.045× with both cores loaded, against 1.10–1.17× on the global executor (the loops
        // in turn for a lone request too: 0.97–1.02× quiet, 1.14–1.17× loaded). With more in
        // flight, tasks on few loops share the connections badly (a connection is often on
        // another loop than the task it serves): 1.21–1.34× at 32 concurrent against 0.98×,
        // so those stay on the global executor.
        let inFlight = requestsInFlight.wrappingAdd(1, ordering: .relaxed).newValue
        defer { requestsInFlight.wrappingSubtract(1, ordering: .relaxed) }
        guard inFlight <= executors.count else {
            return try await exchangeInATask(request, options: options, progress: progress)
        }
        let loop =
            inFlight == 1
            ? executors[0]
            : executors[Int(nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(executors.count))]
        let exchange = Task(executorPreference: loop) {
            try await self.exchange(request, options: options, throughChannels: true, progress: progress, watch: nil)
        }
        return try await withTaskCancellationHandler {
            try await exchange.value
        } onCancel: {
            exchange.cancel()
        }
    }

    /// The exchange in a task of its own on Swift's global executor, with async-http-client's
    /// async API: many requests in flight, or a client the caller gave. The body's clock
    /// cancels that task at a deadline (the async API's body can only be stopped by cancelling
    /// the task that reads it); the body is read there directly, with no hand-over between tasks.
    private func exchangeInATask(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        let watch = ExchangeWatch()
        let exchange = Task {
            try await self.exchange(request, options: options, throughChannels: false, progress: progress, watch: watch)
        }
        watch.cancel = { exchange.cancel() }
        return try await withTaskCancellationHandler {
            try await exchange.value
        } onCancel: {
            exchange.cancel()
        }
    }

    /// A request sent and its body read into the options' destination, in the current task.
    ///
    /// - Parameters:
    ///   - throughChannels: every hop goes through the transport's own exchanges, whose
    ///     `BodyChannel` keeps the body's deadlines (see `receiveHead`).
    ///   - watch: the clock of a body that comes through async-http-client's own sequence: it
    ///     cancels the current task (`send`'s own) when a deadline passes. Needed unless
    ///     `throughChannels`.
    private func exchange(
        _ request: PreparedRequest, options: TransferOptions, throughChannels: Bool,
        progress: @escaping @Sendable (TransferProgress) -> Void, watch: ExchangeWatch?
    ) async throws -> TransportResponse {
        let head = try await receiveHead(request, options: options, throughChannels: throughChannels)
        var sink = try BodySink(
            expected: head.expectedBytes, destination: options.bodyDestination, head: head.head, progress: progress)
        sink.begin()
        var decoder = try BodyDecoder(
            url: head.url, contentEncoding: head.contentEncoding, decompress: head.inflates, limits: head.limits)
        if let channel = head.channel {
            // The response owns the channel: while it lives, the transfer is not given up.
            defer { withExtendedLifetime(head.response) {} }
            channel.watch(deadline: head.deadline, idle: head.idle, url: head.url)
            while true {
                let chunk: Data?
                do {
                    chunk = try await channel.next()
                } catch {
                    if Task.isCancelled { throw TransportError.cancelled }
                    throw TransportErrorMapping.map(error, url: head.url, redirectLimit: configuration.maximumRedirects)
                }
                guard let chunk else { break }
                decoder.feed(chunk)
                while let piece = try decoder.next() { try sink.append(piece) }
            }
            while let piece = try decoder.finish() { try sink.append(piece) }
        } else {
            guard let watch else {
                preconditionFailure("a body of async-http-client's own read with no watch to stop it")
            }
            watch.start(deadline: head.deadline, idle: head.idle, url: head.url)
            defer { watch.end() }
            var chunks = head.response.body.makeAsyncIterator()
            while true {
                let chunk: ByteBuffer?
                do {
                    watch.waiting(true)
                    chunk = try await chunks.next()
                    watch.waiting(false)
                } catch {
                    if let expired = watch.expired { throw expired }
                    if Task.isCancelled { throw TransportError.cancelled }
                    throw TransportErrorMapping.map(error, url: head.url, redirectLimit: configuration.maximumRedirects)
                }
                guard let chunk else { break }
                decoder.feed(chunk)
                while let piece = try decoder.next() { try sink.append(piece) }
            }
            while let piece = try decoder.finish() { try sink.append(piece) }
        }
        let body = try sink.finish()
        return TransportResponse(
            status: head.head.status, headers: head.head.headers, body: body, url: head.url,
            httpVersion: head.head.httpVersion, headReceived: head.headReceived, finished: Date(),
            bytesReceived: sink.count, redirects: head.redirects)
    }

    /// Sends a request and answers as soon as its head has arrived; the body follows as a
    /// back-pressured sequence of chunks.
    ///
    /// The total deadline (`options.timeout`, else `requestTimeout`) covers the head and the
    /// whole body; the idle timeout (`options.idleTimeout`, else `readTimeout`) covers each
    /// wait for bytes. gzip and deflate bodies are inflated here in bounded pieces, under the
    /// decompression limits.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: the deadlines and body limits (the destination is ignored).
    /// - Returns: the head, with the body still arriving.
    /// - Throws: `TransportError`, for anything before the head.
    public func stream(_ request: PreparedRequest, options: TransferOptions) async throws -> StreamedResponse {
        let head = try await receiveHead(request, options: options, throughChannels: callerIsOnLoop)
        let channel = BodyChannel()
        let redirectLimit = configuration.maximumRedirects
        let pump = Task {
            do {
                var decoder = try BodyDecoder(
                    url: head.url, contentEncoding: head.contentEncoding, decompress: head.inflates, limits: head.limits
                )
                for try await chunk in head.response.body {
                    decoder.feed(chunk)
                    while let piece = try decoder.next() {
                        guard await channel.send(piece) else { return }
                    }
                }
                while let piece = try decoder.finish() {
                    guard await channel.send(piece) else { return }
                }
                channel.finish()
            } catch {
                channel.fail(
                    Task.isCancelled
                        ? TransportError.cancelled
                        : TransportErrorMapping.map(error, url: head.url, redirectLimit: redirectLimit))
            }
        }
        channel.onTermination { pump.cancel() }
        channel.watch(deadline: head.deadline, idle: head.idle, url: head.url)
        return StreamedResponse(
            head: head.head, url: head.url, headReceived: head.headReceived, redirects: head.redirects,
            body: ResponseBody(channel: channel), expectedBytes: head.expectedBytes)
    }

    /// Whether the caller runs on one of the client's loops (see `executors`), and the client
    /// is the transport's own: then the delegate API serves it (see `DelegatedExchange`).
    private var callerIsOnLoop: Bool {
        ownsClient && executors.contains { $0.eventLoop.inEventLoop }
    }

    /// A response whose head has arrived, and what reading its body needs.
    private struct ArrivedHead {
        var response: HTTPClientResponse
        /// The channel the body comes through, when the transport's own exchange brought the
        /// response (`response.body` reads the same chunks, and owns the channel).
        var channel: BodyChannel?
        var head: ResponseHead
        /// The URL that answered, after the redirects followed.
        var url: URL
        var headReceived: Date
        var redirects: [ResponseTimings.Redirect]
        var contentEncoding: String?
        /// Whether the body is inflated on the way.
        var inflates: Bool
        /// The body's size from `Content-Length`, when it is not inflated.
        var expectedBytes: Int64?
        var limits: BodyDecoder.Limits
        /// The total deadline and the idle timeout, which the body keeps.
        var deadline: ContinuousClock.Instant
        var idle: Duration?
    }

    /// Sends a request, following its redirects, until a head arrives that is the answer.
    ///
    /// - Parameter throughChannels: every hop goes through the transport's own exchanges
    ///   (`DelegatedExchange`, `ForwardProxyExchange`), the body then through their channel:
    ///   for a caller on one of the client's loops, with the transport's own client.
    private func receiveHead(_ request: PreparedRequest, options: TransferOptions, throughChannels: Bool) async throws
        -> ArrivedHead
    {
        let clock = ContinuousClock()
        var hopStarted = clock.now
        let deadline = hopStarted + (options.timeout ?? configuration.requestTimeout)
        let idle = options.idleTimeout ?? configuration.readTimeout
        // Redirects are followed here, hop by hop, so that each hop chooses its proxy and the
        // options' redirect handler sees each one (see AsyncHTTPClientTransport+Redirects);
        // on a client the caller gave, async-http-client follows them as that client says.
        // Like curl and browsers, only the number of hops is bounded: a URL seen before may
        // answer differently now (a cookie set on the way).
        let followsHops = routesRedirects && (options.followsRedirects ?? configuration.followRedirects)
        let hopLimit = options.maximumRedirects ?? configuration.maximumRedirects
        var hop = request
        var hops: [ResponseTimings.Redirect] = []
        var response: HTTPClientResponse
        var channel: BodyChannel?
        while true {
            var headDeadline = deadline
            if let idle { headDeadline = min(headDeadline, hopStarted + idle) }
            let proxy = try self.proxy(for: hop.url)
            let headBy = NIODeadline.now() + .nanoseconds((headDeadline - hopStarted).nanoseconds)
            do {
                if let proxy, proxy.kind == .http, hop.url.scheme?.lowercased() == "http", !configuration.proxyTunnel {
                    // Plain http goes to an HTTP proxy in absolute form, not through a tunnel.
                    (response, channel) = try await ForwardProxyExchange.execute(
                        hop, extraHeaders: addedHeaders(for: hop), through: proxy,
                        connectTimeout: configuration.connectTimeout, deadline: headBy)
                } else {
                    // A client the caller gave has no proxy rules, so `proxy` is nil for it.
                    let client =
                        proxy == nil && ownsClient ? try directClient(for: hop.url) : try client(through: proxy)
                    if throughChannels {
                        // On a loop (the caller's, or the one `send` moved the exchange to), a
                        // client of the transport's own goes through the delegate API (see
                        // DelegatedExchange). From the global executor its delegate would run on
                        // a loop chosen in turn, often not its connection's: measured 1.27× raw
                        // HTTPClient.execute's time at 32 concurrent against 1.10–1.16×.
                        (response, channel) = try await DelegatedExchange.execute(
                            delegated(hop), on: client, deadline: headBy)
                    } else {
                        // Off the loops, and on a client the caller gave (which follows redirects
                        // itself, their history kept by the async API): the async API.
                        response = try await client.execute(outgoing(hop), deadline: headBy)
                        channel = nil
                    }
                }
            } catch {
                if Task.isCancelled { throw TransportError.cancelled }
                if case .deadlineExceeded? = error as? HTTPClientError {
                    // The idle timeout bounds the wait for the whole head: a server that drips it byte by
                    // byte has answered, but not with a complete head.
                    let phase =
                        clock.now >= deadline
                        ? "no answer before the total deadline"
                        : "no complete response head in \((idle ?? .zero).shortDescription)"
                    throw TransportError.timedOut(url: hop.url, phase: phase)
                }
                throw TransportErrorMapping.map(
                    error, url: hop.url, redirectLimit: configuration.maximumRedirects, proxy: proxy)
            }
            guard followsHops, let target = Self.redirectTarget(of: response, from: hop.url) else { break }
            let hopDuration = (clock.now - hopStarted) / .seconds(1)
            guard hops.count < hopLimit else {
                throw TransportError.tooManyRedirects(url: request.url, limit: hopLimit)
            }
            // The redirect's own body is not wanted; reading it frees the connection.
            var drainBy = deadline
            if let idle { drainBy = min(drainBy, clock.now + idle) }
            do {
                try await Self.drain(response.body, by: drainBy)
            } catch is DrainTimedOut {
                throw TransportError.timedOut(url: hop.url, phase: "the redirect's body did not end in time")
            } catch {
                if Task.isCancelled { throw TransportError.cancelled }
                throw TransportErrorMapping.map(
                    error, url: hop.url, redirectLimit: configuration.maximumRedirects, proxy: proxy)
            }
            let status = HTTPStatus(code: Int(response.status.code))
            hops.append(
                ResponseTimings.Redirect(
                    from: hop.url, to: target, status: status,
                    location: response.headers.first(name: "location"), duration: hopDuration))
            var next = Self.redirected(hop, to: target, status: status)
            if let handler = options.redirectHandler {
                let head = ResponseHead(
                    status: status, headers: HTTPHeaders(fields: response.headers),
                    httpVersion: Self.describe(response.version))
                next = try await handler.request(following: head, to: hop, next: next)
            }
            hop = next
            hopStarted = clock.now
        }
        let hopURL = hop.url
        let finalURL = followsHops ? hopURL : (response.url ?? request.url)
        let headers = HTTPHeaders(fields: response.headers)
        let limits = BodyDecoder.Limits(
            bodyBytes: options.maximumBodySize ?? configuration.maximumBodySize,
            decompressedBytes: options.maximumDecompressedSize ?? configuration.maximumDecompressedSize,
            decompressionRatio: options.maximumDecompressionRatio ?? configuration.maximumDecompressionRatio)
        let contentEncoding = response.headers.first(name: "content-encoding")
        let inflates = configuration.decompression && BodyDecoder.decodes(contentEncoding)
        let expected = inflates ? nil : response.headers.first(name: "content-length").flatMap { Int64($0) }
        if let limit = limits.bodyBytes, let expected, expected > Int64(limit) {
            throw TransportError.bodyTooLarge(url: finalURL, limit: .bodyBytes(limit))
        }
        return ArrivedHead(
            response: response, channel: channel,
            head: ResponseHead(
                status: HTTPStatus(code: Int(response.status.code)), headers: headers,
                httpVersion: Self.describe(response.version)),
            url: finalURL, headReceived: Date(), redirects: followsHops ? hops : Self.redirects(in: response.history),
            contentEncoding: contentEncoding, inflates: inflates, expectedBytes: expected, limits: limits,
            deadline: deadline, idle: idle)
    }

    // MARK: - Helpers

    /// A redirect's body still arriving at its limit.
    private struct DrainTimedOut: Error {}

    /// Reads a body to its end and drops it, by a limit: the client has no read timeout of its
    /// own (see `clientConfiguration`), and a redirect's body is read outside the watches that
    /// time a response's.
    ///
    /// - Throws: `DrainTimedOut` at the limit; the body's error.
    private static func drain(_ body: HTTPClientResponse.Body, by limit: ContinuousClock.Instant) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await _ in body {}
                return true
            }
            group.addTask {
                try await Task.sleep(until: limit, clock: .continuous)
                return false
            }
            let ended = try await group.next() ?? false
            group.cancelAll()
            if !ended { throw DrainTimedOut() }
        }
    }

    /// The async-http-client request of a prepared request.
    private func outgoing(_ request: PreparedRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers = outgoingHeaders(request)
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    /// The request of a prepared one, as async-http-client's delegate API takes it.
    private func delegated(_ request: PreparedRequest) throws -> HTTPClient.Request {
        try HTTPClient.Request(
            url: request.url.absoluteString, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            headers: outgoingHeaders(request),
            body: request.body.map { .byteBuffer(ByteBuffer(bytes: $0)) })
    }

    /// A request's headers as sent: its own, then those the transport adds.
    private func outgoingHeaders(_ request: PreparedRequest) -> NIOHTTP1.HTTPHeaders {
        var headers = NIOHTTP1.HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        for (name, value) in addedHeaders(for: request) { headers.add(name: name, value: value) }
        return headers
    }

    /// The headers the transport adds to a request: `Accept-Encoding` when it decompresses and
    /// the request names none.
    private func addedHeaders(for request: PreparedRequest) -> [(String, String)] {
        addsAcceptEncoding(to: request) ? [("Accept-Encoding", "gzip, deflate")] : []
    }

    /// Whether the transport adds `Accept-Encoding: gzip, deflate` to a request.
    private func addsAcceptEncoding(to request: PreparedRequest) -> Bool {
        configuration.decompression && !request.headers.contains("Accept-Encoding")
    }

    private static func describe(_ version: HTTPVersion) -> String {
        version.major >= 2 ? "HTTP/\(version.major)" : "HTTP/\(version.major).\(version.minor)"
    }

    private static func redirects(in history: [HTTPClientRequestResponse]) -> [ResponseTimings.Redirect] {
        guard history.count > 1 else { return [] }
        return zip(history, history.dropFirst()).compactMap { hop, next in
            guard let from = URL(string: hop.request.url), let to = URL(string: next.request.url) else { return nil }
            return ResponseTimings.Redirect(
                from: from, to: to, status: HTTPStatus(code: Int(hop.responseHead.status.code)))
        }
    }

    private static func clientConfiguration(_ configuration: Configuration, proxy: ProxyServer?, followsRedirects: Bool)
        -> HTTPClient.Configuration
    {
        var client = HTTPClient.Configuration(
            certificateVerification: configuration.allowsInvalidCertificates ? .none : .fullVerification,
            redirectConfiguration: followsRedirects
                ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow,
            // No read timeout here: the transport times every wait for bytes itself (the head
            // by the deadline it gives `execute`, a body by its watch, a redirect's body by
            // `drain`), with the request's own idle timeout; the client's would reschedule a
            // timer on every read of every request (4.5% of a small request's time
            // sequentially, 9% at 32 concurrent, in networking-bench).
            timeout: .init(connect: .nanoseconds(configuration.connectTimeout.nanoseconds), read: nil),
            proxy: proxy.map { proxy in
                proxy.kind == .socks5
                    ? HTTPClient.Configuration.Proxy.socksServer(host: proxy.host, port: proxy.port)
                    : HTTPClient.Configuration.Proxy.server(
                        host: proxy.host, port: proxy.port,
                        authorization: proxy.username.map {
                            HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                        })
            },
            // Decompression is done by BodyDecoder, in bounded pieces under per-request limits.
            decompression: .disabled)
        // Fail at once when nothing listens, instead of retrying until the deadline.
        client.connectionPool.retryConnectionEstablishment = false
        client.httpVersion = configuration.allowsHTTP2 ? .automatic : .http1Only
        client.maximumUsesPerConnection = configuration.maximumRequestsPerConnection.map { max(1, $0) }
        if var tls = configuration.tls {
            if configuration.allowsInvalidCertificates { tls.certificateVerification = .none }
            client.tlsConfiguration = tls
        }
        return client
    }

    private static func rules(for proxy: Configuration.Proxy) -> ProxyRules? {
        switch proxy {
        case .none: return nil
        case .environment: return ProxyRules.environment()
        case .server(let host, let port):
            return ProxyRules(server: ProxyServer(host: host, port: port, source: "the transport's proxy setting"))
        case .rules(let rules): return rules
        }
    }
}

extension HTTPHeaders {
    /// The fields of an async-http-client head, in their order.
    init(fields: NIOHTTP1.HTTPHeaders) {
        self.init(fields.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
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
