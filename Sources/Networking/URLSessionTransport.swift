import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A second transport, on Foundation's `URLSession`, for platforms or setups that prefer it.
///
/// It streams bodies into their destination with progress, follows redirects (or not) with
/// their history, and maps `URLError`s to `TransportError`. On Linux, `URLSession` cannot accept
/// invalid certificates, does not report the HTTP version (`HTTP/1.1` is assumed) and delivers
/// body bytes without back-pressure, so `stream` buffers what a slow reader has not taken
/// (the body limits still apply). `URLSession` inflates gzip itself: the size limits apply to
/// the inflated bytes, the ratio limit cannot be checked. Call `shutdown()` when done.
public final class URLSessionTransport: HTTPTransport, Sendable {
    /// How the transport behaves.
    public struct Configuration: Sendable {
        /// Whether redirects are followed.
        public var followRedirects: Bool
        /// How many redirects are followed at most.
        public var maximumRedirects: Int
        /// The time a whole request may take unless its options say otherwise.
        public var requestTimeout: Duration
        /// The largest body accepted, in bytes, unless a request's options say otherwise.
        public var maximumBodySize: Int?

        /// Creates a configuration.
        public init(
            followRedirects: Bool = true, maximumRedirects: Int = 10, requestTimeout: Duration = .seconds(300),
            maximumBodySize: Int? = nil
        ) {
            self.followRedirects = followRedirects
            self.maximumRedirects = maximumRedirects
            self.requestTimeout = requestTimeout
            self.maximumBodySize = maximumBodySize
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own ephemeral session.
    ///
    /// - Parameter configuration: how it behaves.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let delegate = SessionDelegate(configuration: configuration)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForResource = configuration.requestTimeout.seconds
        sessionConfiguration.httpMaximumConnectionsPerHost = 8
        self.delegate = delegate
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
    }

    /// Lets running requests finish, then releases the session.
    public func shutdown() {
        session.finishTasksAndInvalidate()
    }

    /// Sends a request, streaming its body into the options' destination.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: the deadline, body limit and destination.
    ///   - progress: called as body bytes arrive.
    /// - Returns: the response.
    /// - Throws: `TransportError`.
    public func send(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        let deadline = options.timeout ?? configuration.requestTimeout
        // URLSession's request timeout is the longest silence; the total deadline is kept below.
        urlRequest.timeoutInterval = (options.idleTimeout ?? deadline).seconds
        let handle = TaskHandle()
        let limits = [options.maximumBodySize ?? configuration.maximumBodySize, options.maximumDecompressedSize]
            .compactMap { $0 }
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            handle.fail(
                TransportError.timedOut(
                    url: request.url, phase: "the total deadline of \(deadline.shortDescription) passed"))
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                let task = session.dataTask(with: urlRequest)
                delegate.register(
                    task.taskIdentifier,
                    Exchange(
                        url: request.url, options: options, limit: limits.min(), handle: handle, progress: progress,
                        continuation: continuation))
                handle.set(task)
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// The data task of one request, cancellable before it exists.
private final class TaskHandle: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
        var failure: (any Error)?
    }
    private let state = Mutex(State())

    /// Why the task was stopped from outside (a deadline), if it was.
    var recordedFailure: (any Error)? {
        state.withLock { $0.failure }
    }

    /// Stops the task with an error to report instead of cancellation.
    func fail(_ error: any Error) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
        cancel()
    }

    func set(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}

/// The state of one request while its task runs; touched only on the session's serial queue.
///
/// Unchecked `Sendable`, sound because of that: after `send` makes it, its `var`s are read and
/// written only by the delegate's callbacks, on the session's one-operation delegate queue.
private final class Exchange: @unchecked Sendable {
    let url: URL
    let options: TransferOptions
    let limit: Int?
    let handle: TaskHandle
    let progress: @Sendable (TransferProgress) -> Void
    let continuation: CheckedContinuation<TransportResponse, any Error>
    var sink: BodySink?
    var response: HTTPURLResponse?
    var headReceived: Date?
    var redirects: [ResponseTimings.Redirect] = []
    var failure: (any Error)?

    init(
        url: URL, options: TransferOptions, limit: Int?, handle: TaskHandle,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        self.url = url
        self.options = options
        self.limit = limit
        self.handle = handle
        self.progress = progress
        self.continuation = continuation
    }
}

private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let configuration: URLSessionTransport.Configuration
    private let exchanges = Mutex<[Int: Exchange]>([:])

    init(configuration: URLSessionTransport.Configuration) {
        self.configuration = configuration
    }

    func register(_ identifier: Int, _ exchange: Exchange) {
        exchanges.withLock { $0[identifier] = exchange }
    }

    private func exchange(for task: URLSessionTask, remove: Bool = false) -> Exchange? {
        let identifier = task.taskIdentifier
        return exchanges.withLock { remove ? $0.removeValue(forKey: identifier) : $0[identifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask), let http = response as? HTTPURLResponse else {
            return completionHandler(.cancel)
        }
        exchange.response = http
        exchange.headReceived = Date()
        let expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        do {
            let head = ResponseHead(
                status: HTTPStatus(code: http.statusCode), headers: Self.headers(of: http), httpVersion: "HTTP/1.1")
            if let limit = exchange.limit, let expected, expected > Int64(limit) {
                throw TransportError.bodyTooLarge(url: http.url ?? exchange.url, limit: .bodyBytes(limit))
            }
            exchange.sink = try BodySink(
                expected: expected, destination: exchange.options.bodyDestination, head: head,
                progress: exchange.progress)
            exchange.sink?.begin()
            completionHandler(.allow)
        } catch {
            exchange.failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask), exchange.failure == nil else { return }
        do {
            if let limit = exchange.limit, (exchange.sink?.count ?? 0) + data.count > limit {
                throw TransportError.bodyTooLarge(url: dataTask.response?.url ?? exchange.url, limit: .bodyBytes(limit))
            }
            try exchange.sink?.append(data)
        } catch {
            exchange.failure = error
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let exchange = exchange(for: task), configuration.followRedirects else { return completionHandler(nil) }
        guard exchange.redirects.count < configuration.maximumRedirects else {
            exchange.failure = TransportError.tooManyRedirects(url: exchange.url, limit: configuration.maximumRedirects)
            completionHandler(nil)
            task.cancel()
            return
        }
        if let from = response.url, let to = request.url {
            exchange.redirects.append(.init(from: from, to: to, status: HTTPStatus(code: response.statusCode)))
        }
        completionHandler(request)
    }

    /// A response's header fields as `HTTPHeaders`.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        return headers
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchange(for: task, remove: true) else { return }
        if let failure = exchange.handle.recordedFailure ?? exchange.failure {
            return exchange.continuation.resume(throwing: failure)
        }
        if let error {
            return exchange.continuation.resume(
                throwing: Self.map(error, url: exchange.url, redirectLimit: configuration.maximumRedirects))
        }
        guard let response = exchange.response else {
            return exchange.continuation.resume(throwing: TransportError.connectionClosed(url: exchange.url))
        }
        let headers = Self.headers(of: response)
        do {
            var sink = exchange.sink
            let body = try sink?.finish()
            exchange.continuation.resume(
                returning: TransportResponse(
                    status: HTTPStatus(code: response.statusCode), headers: headers, body: body,
                    url: response.url ?? exchange.url, httpVersion: "HTTP/1.1", headReceived: exchange.headReceived,
                    finished: Date(), bytesReceived: sink?.count ?? 0, redirects: exchange.redirects))
        } catch {
            exchange.continuation.resume(throwing: error)
        }
    }

    static func map(_ error: any Error, url: URL, redirectLimit: Int) -> any Error {
        guard let urlError = error as? URLError else { return TransportError.other(String(describing: error)) }
        let host = url.host ?? url.absoluteString
        switch urlError.code {
        case .cancelled: return TransportError.cancelled
        case .cannotConnectToHost:
            return TransportError.connectionRefused(host: host, port: url.port ?? (url.scheme == "https" ? 443 : 80))
        case .cannotFindHost, .dnsLookupFailed: return TransportError.dnsFailure(host: host)
        case .timedOut: return TransportError.timedOut(url: url, phase: "no answer in time")
        case .networkConnectionLost: return TransportError.connectionClosed(url: url)
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed:
            return TransportError.notConnected(host: host, reason: urlError.localizedDescription)
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return TransportError.tooManyRedirects(url: url, limit: redirectLimit)
        case .badURL, .unsupportedURL: return TransportError.invalidURL(url.absoluteString)
        case .cannotDecodeContentData, .cannotDecodeRawData:
            return TransportError.decompressionFailed(url: url, reason: urlError.localizedDescription)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return TransportError.tlsFailure(host: host, reason: .other(urlError.localizedDescription))
        default: return TransportError.other(urlError.localizedDescription)
        }
    }
}
