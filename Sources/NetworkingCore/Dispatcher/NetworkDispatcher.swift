import Foundation

/// Sends requests through an `HTTPTransport` to the base URL a server provider answers at send
/// time, running adapters, the retry policy and event monitors on the way.
///
/// ```swift
/// let dispatcher = NetworkDispatcher(serverProvider: environment)
/// dispatcher.future(from: BasicRequest(path: "/posts/1"))
///     .response { response in print(response.statusCode) }
///     .error { error in print(error) }
///     .send()
/// ```
///
/// The provider is held weakly: a released provider fails the next future with
/// `TransportError.serverProviderReleased`.
public final class NetworkDispatcher: Dispatcher, @unchecked Sendable {
    // Sound because everything else is a `Sendable` `let` (`urlCache` is `Locked`), and
    // `serverProvider` (weak, so a `var`; not `Sendable`, as PiuPiu's providers are not) is set
    // once in `init` and only read afterwards; the provider is asked for its base URL on the
    // thread that starts the future.
    weak var serverProvider: (any ServerProvider)?
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// The queue futures run their callbacks on.
    public let callbackQueue: DispatchQueue
    /// Adapters run in order on every prepared request.
    public let requestAdapters: [any RequestAdapter]
    /// Adapters run in order on every response.
    public let responseAdapters: [any ResponseAdapter]
    /// When to send again after a failure or a retryable status; `nil` never retries.
    public let retryPolicy: RetryPolicy?
    /// Monitors told of every request, response, failure and retry.
    public let eventMonitors: [any EventMonitor]
    /// The default transfer options for every request.
    public let options: TransferOptions
    /// How many `.retry(with:)` answers from response adapters one future follows at most.
    public let maximumAdapterRetries: Int
    /// Answers a 401's challenge (HTTP Digest) with credentials; `nil` delivers the 401.
    public let challengeHandler: (any AuthenticationChallengeHandler)?
    /// Keeps what `Set-Cookie` says and sends it back in `Cookie`; `nil` keeps no cookies.
    public let cookieJar: CookieJar?
    /// What a redirect the transport follows may carry: credentials stay with their origin,
    /// https → http only when allowed.
    public let redirectPolicy: RedirectPolicy
    /// How many 401 challenges one request answers at most (a second answer only helps when
    /// the server says the first one's nonce was stale).
    static let maximumChallengeAnswers = 2
    /// The base URL taken apart last, and the URL built last on it: a request to the same path
    /// on the same base URL reuses it (building the text and parsing it into a URL is the
    /// dearest step of a send); any other request builds its own. One lock for both: every
    /// request of every thread takes it, and each lock taken is a count shared by all of them.
    private let urlCache = Locked(URLCache())
    /// The redirect handlers of a request whose options have none of their own (see
    /// `transferOptions`): for a request with a `Cookie` of its own, and for one without.
    let redirects: (ownCookie: any RedirectHandler, jarCookies: any RedirectHandler)

    private struct URLCache {
        var base: BaseURLParts?
        /// Built on `base`: the two are replaced together.
        var built: BuiltURL?
    }

    private struct BuiltURL {
        let path: String
        let queryItems: [URLQueryItem]
        let url: URL

        func matches(_ request: any Request) -> Bool {
            path == request.path && queryItems == request.queryItems
        }
    }

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - serverProvider: answers the base URL at send time; held weakly.
    ///   - transport: sends the requests (by default `AsyncHTTPClientTransport.shared`, one
    ///     client for the process, shut down at exit).
    ///   - callbackQueue: the queue callbacks run on: the main queue by default, as in PiuPiu.
    ///     A program whose main thread does not run the main queue (no `dispatchMain()`, no
    ///     run loop, no async `main`) passes a queue of its own.
    ///   - requestAdapters: run on every prepared request, in order.
    ///   - responseAdapters: run on every response, in order.
    ///   - retryPolicy: when to retry; `nil` (the default) never retries.
    ///   - eventMonitors: told of every event.
    ///   - options: default transfer options.
    ///   - maximumAdapterRetries: how many adapter retries a future follows (default 3).
    ///   - challengeHandler: answers a 401's challenge with credentials (a
    ///     `DigestAuthenticator`); `nil` (the default) delivers every 401.
    ///   - cookieJar: the cookies a request carries (unless it has its own `Cookie` header)
    ///     and where every response's `Set-Cookie` is kept; `nil` (the default) keeps none.
    ///   - redirectPolicy: what a redirect may carry (by default, no credential header to
    ///     another origin and no https → http).
    public init(
        serverProvider: any ServerProvider,
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared,
        callbackQueue: DispatchQueue = .main,
        requestAdapters: [any RequestAdapter] = [],
        responseAdapters: [any ResponseAdapter] = [],
        retryPolicy: RetryPolicy? = nil,
        eventMonitors: [any EventMonitor] = [],
        options: TransferOptions = TransferOptions(),
        maximumAdapterRetries: Int = 3,
        challengeHandler: (any AuthenticationChallengeHandler)? = nil,
        cookieJar: CookieJar? = nil,
        redirectPolicy: RedirectPolicy = RedirectPolicy()
    ) {
        self.redirectPolicy = redirectPolicy
        self.challengeHandler = challengeHandler
        self.cookieJar = cookieJar
        self.serverProvider = serverProvider
        self.transport = transport
        self.callbackQueue = callbackQueue
        self.requestAdapters = requestAdapters
        self.responseAdapters = responseAdapters
        self.retryPolicy = retryPolicy
        self.eventMonitors = eventMonitors
        self.options = options
        self.maximumAdapterRetries = maximumAdapterRetries
        self.redirects = (
            DispatcherRedirects(cookieJar: cookieJar, ownCookie: true, policy: redirectPolicy, then: nil),
            DispatcherRedirects(cookieJar: cookieJar, ownCookie: false, policy: redirectPolicy, then: nil)
        )
    }

    /// A lazy future of the response to a request, with the dispatcher's default options.
    ///
    /// - Parameter request: the request.
    /// - Returns: a future of the response, whatever its status.
    public func future(from request: any Request) -> ResponseFuture<Response<Data?>> {
        future(from: request, options: options)
    }

    /// A lazy future of the response to a request, with per-request options (a deadline, a body
    /// limit, a file or stream as body destination).
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: the transfer options.
    /// - Returns: a future of the response, whatever its status.
    public func future(from request: any Request, options: TransferOptions) -> ResponseFuture<Response<Data?>> {
        DispatchedFuture(dispatcher: self, request: request, options: options)
    }

    // MARK: - Cookies

    /// The request with the jar's cookies for its URL, unless it carries its own `Cookie`.
    func withCookies(_ request: PreparedRequest) -> PreparedRequest {
        guard let cookieJar, !request.headers.contains("Cookie"), let cookies = cookieJar.cookieHeader(for: request.url)
        else { return request }
        var request = request
        request.headers.add(name: "Cookie", value: cookies)
        return request
    }

    /// Keeps a response's `Set-Cookie` fields in the jar.
    func keepCookies(of headers: HTTPHeaders, from url: URL) {
        guard let cookieJar else { return }
        cookieJar.store(setCookie: headers.values(for: "Set-Cookie"), from: url)
    }

    // MARK: - Sending

    /// The request's absolute URL on the base URL: the one built last when it is the same, else
    /// built (on the base URL taken apart last, while the provider answers the same).
    fileprivate func url(of request: any Request, on baseURL: URL) throws -> URL {
        // Compared under the lock and read in place, only the URL copied out: every concurrent
        // request reads this, and each reference copied is a count shared by all of them.
        let (reused, knownBase): (URL?, BaseURLParts?) = urlCache.withLock { cache in
            guard cache.base?.url == baseURL else { return (nil, nil) }
            if cache.built?.matches(request) == true { return (cache.built?.url, nil) }
            return (nil, cache.base)
        }
        if let reused { return reused }
        let base = try knownBase ?? BaseURLParts(baseURL)
        let url = try request.url(on: base)
        let built = BuiltURL(path: request.path, queryItems: request.queryItems, url: url)
        urlCache.withLock { $0 = URLCache(base: base, built: built) }
        return url
    }

    /// Sends the request, with adapters, challenges and retries; a failure while the Task is
    /// cancelled is `TransportError.cancelled`.
    ///
    /// Called only from `DispatchedFuture.runOperation()`, which runs off any actor: it runs
    /// there too, with no executor check of its own on the way in or out.
    ///
    /// - Parameters:
    ///   - original: the request.
    ///   - url: its absolute URL on `baseURL` (a request a response adapter answers with is
    ///     resolved on `baseURL` in turn).
    nonisolated(nonsending) fileprivate func run(
        _ original: any Request, url: consuming URL, baseURL: URL, options: TransferOptions,
        future: ResponseFuture<Response<Data?>>
    ) async throws -> Response<Data?> {
        do {
            var request = original
            var url = consume url
            var attempt = 1
            var adapterRetries = 0
            var challengeAnswers = 0
            var answer: PreparedRequest?
            var ownCookie = false
            attempts: while true {
                try Task.checkCancellation()
                var prepared: PreparedRequest
                if let answer {
                    prepared = answer
                } else {
                    prepared = request.prepared(at: url)
                    for adapter in requestAdapters { prepared = try await adapter.adapt(prepared) }
                    ownCookie = prepared.headers.contains("Cookie")
                    if cookieJar != nil { prepared = withCookies(prepared) }
                }
                answer = nil
                for monitor in eventMonitors { monitor.requestWillSend(prepared) }

                let started = Date()
                let sent: TransportResponse
                do {
                    sent = try await transport.send(prepared, options: transferOptions(options, ownCookie: ownCookie)) {
                        future.update(progress: $0)
                    }
                } catch {
                    if Task.isCancelled { throw TransportError.cancelled }
                    for monitor in eventMonitors { monitor.request(prepared, didFailWith: error) }
                    if let delay = retryPolicy?.delay(afterAttempt: attempt, request: prepared, error: error) {
                        for monitor in eventMonitors {
                            monitor.request(prepared, willRetryAttempt: attempt + 1, after: delay)
                        }
                        try await Task.sleep(for: delay)
                        attempt += 1
                        continue attempts
                    }
                    throw error
                }

                // Moved into the response, not copied: their references (the URL and headers every
                // request to this path shares) are not counted up and down again.
                let response = Response(consume sent, request: consume prepared, started: started)
                if cookieJar != nil { keepCookies(of: response.headers, from: response.url) }
                for monitor in eventMonitors { monitor.request(response.request, didReceive: response) }

                if challengeAnswers < Self.maximumChallengeAnswers, let handler = challengeHandler,
                    let answered = try await handler.answer(
                        ResponseHead(
                            status: response.statusCode, headers: response.headers, httpVersion: response.httpVersion),
                        to: response.request)
                {
                    challengeAnswers += 1
                    answer = answered
                    continue attempts
                }

                adapters: for adapter in responseAdapters {
                    switch try await adapter.adapt(response, for: request) {
                    case .continue:
                        continue adapters
                    case .complete:
                        return response
                    case .retry(let next):
                        guard adapterRetries < maximumAdapterRetries else { return response }
                        adapterRetries += 1
                        request = next
                        url = try self.url(of: next, on: baseURL)
                        continue attempts
                    }
                }

                if let delay = retryPolicy?.delay(afterAttempt: attempt, request: response.request, response: response)
                {
                    for monitor in eventMonitors {
                        monitor.request(response.request, willRetryAttempt: attempt + 1, after: delay)
                    }
                    try await Task.sleep(for: delay)
                    attempt += 1
                    continue attempts
                }
                return response
            }
        } catch {
            throw Task.isCancelled ? TransportError.cancelled : error
        }
    }
}

/// A dispatcher's future of one request: the request, its options and where it goes are kept in
/// the future itself, so that a request costs one allocation, not three (a future and the two
/// closures of its operation), and no copy of what they would capture.
///
/// Unchecked `Sendable`, sound because its `let`s are `Sendable` and its one `var`,
/// `destination`, is handed from `beginOperation()` to `runOperation()` in order (see there).
private final class DispatchedFuture: ResponseFuture<Response<Data?>>, @unchecked Sendable {
    let dispatcher: NetworkDispatcher
    let request: any Request
    let options: TransferOptions
    /// The request's URL and the base URL it is on: written by `beginOperation()` on the thread
    /// that starts the future, read by `runOperation()` after it (in the same Task, or in the
    /// Task `start()` makes after it), and by nothing else.
    private var destination: (url: URL, baseURL: URL)?

    init(dispatcher: NetworkDispatcher, request: any Request, options: TransferOptions) {
        self.dispatcher = dispatcher
        self.request = request
        self.options = options
        super.init(operationCallbackQueue: dispatcher.callbackQueue)
    }

    override func beginOperation() throws {
        // Asked on the thread that starts the future, as the provider expects.
        guard let provider = dispatcher.serverProvider else { throw TransportError.serverProviderReleased }
        guard let baseURL = provider.baseURL else { throw TransportError.missingBaseURL }
        destination = (try dispatcher.url(of: request, on: baseURL), baseURL)
    }

    override func runOperation() async throws -> Response<Data?> {
        // Set: the future runs its operation only after `beginOperation()` returned. Moved out,
        // not copied: the URL is the one every request to this path shares, and each count
        // of it taken is an atomic operation on memory both cores write.
        guard let (url, baseURL) = destination.take() else {
            preconditionFailure("DispatchedFuture: run before it began")
        }
        return try await dispatcher.run(request, url: consume url, baseURL: baseURL, options: options, future: self)
    }
}
