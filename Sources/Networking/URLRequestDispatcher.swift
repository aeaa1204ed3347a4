import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a `URLRequest` and gives its response, with async/await: PiuPiu 2's dispatcher
/// protocol.
///
/// ```swift
/// let response = try await dispatcher.data(from: URLRequest(url: url, method: .get))
/// let posts = try await response.ensureValidResponse().ensureDecoded([Post].self).body
/// ```
public protocol DataDispatcher: Sendable {
    /// Sends a request and gives its response, whatever its status.
    ///
    /// - Parameter request: the request, with an absolute URL.
    /// - Returns: the response; for a status outside 2xx its `error` is set.
    /// - Throws: `TransportError` (`.invalidURL` when the request has no absolute URL).
    func data(from request: URLRequest) async throws -> Response<Data?>
}

/// Downloads a response body to a file: PiuPiu 2's download dispatcher, giving a
/// `Response<URL>`.
///
/// ```swift
/// let response = try await dispatcher.download(from: URLRequest(url: url, method: .get), to: destination)
/// let file = try response.ensureValidResponse().body  // destination, complete
/// ```
public protocol DownloadDispatcher: Sendable {
    /// Sends a request and writes its response body to a file.
    ///
    /// - Parameters:
    ///   - request: the request, with an absolute URL.
    ///   - destination: the file the body is written to (replaced when it exists).
    /// - Returns: the response, whose body is `destination`; for a status outside 2xx its
    ///   `error` is set (the body, an error page, is in the file).
    /// - Throws: `TransportError`, or the file system's error when the file cannot be written.
    func download(from request: URLRequest, to destination: URL) async throws -> Response<URL>
}

/// Uploads data as a request's body: PiuPiu 2's upload dispatcher, giving a `Response<Data?>`.
///
/// ```swift
/// let response = try await dispatcher.upload(for: URLRequest(url: url, method: .post), from: data)
/// ```
public protocol UploadDispatcher: Sendable {
    /// Sends a request with `data` as its body (whatever `httpBody` it had).
    ///
    /// - Parameters:
    ///   - request: the request, with an absolute URL.
    ///   - data: the body to send.
    /// - Returns: the response, whatever its status; for a status outside 2xx its `error` is set.
    /// - Throws: `TransportError`.
    func upload(for request: URLRequest, from data: Data) async throws -> Response<Data?>
}

/// A `DataDispatcher`, `DownloadDispatcher` and `UploadDispatcher` that sends through an
/// `HTTPTransport` (the shared AsyncHTTPClient transport by default), running request and
/// response adapters on the way.
///
/// Where `NetworkDispatcher` builds the URL from a server provider and gives futures, this one
/// takes requests that already carry their URL and is awaited.
public final class URLRequestDispatcher: DataDispatcher, DownloadDispatcher, UploadDispatcher {
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// Adapters run in order on every request before it is sent.
    public let requestAdapters: [any RequestAdapter]
    /// Adapters run in order on every response; `.retry(with:)` is not followed here (a
    /// `URLRequest` has no path to resend), `.complete` stops the others.
    public let responseAdapters: [any ResponseAdapter]

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - transport: sends the requests (by default `AsyncHTTPClientTransport.shared`).
    ///   - requestAdapters: run on every request, in order.
    ///   - responseAdapters: run on every response, in order.
    public init(
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, requestAdapters: [any RequestAdapter] = [],
        responseAdapters: [any ResponseAdapter] = []
    ) {
        self.transport = transport
        self.requestAdapters = requestAdapters
        self.responseAdapters = responseAdapters
    }

    /// Sends a request and gives its response, whatever its status.
    ///
    /// The request's `timeoutInterval` bounds the whole exchange.
    ///
    /// - Parameter request: the request, with an absolute URL.
    /// - Returns: the response; for a status outside 2xx its `error` is set.
    /// - Throws: `TransportError`.
    public func data(from request: URLRequest) async throws -> Response<Data?> {
        try await send(try PreparedRequest(request), timeout: request.timeoutInterval, to: .memory)
    }

    /// Sends a request and writes its response body to a file, as it arrives: memory holds a
    /// chunk at a time, whatever the size. The body goes to a temporary file beside
    /// `destination` that replaces it only once complete, so a failed transfer leaves no
    /// partial file (and an existing one as it was).
    ///
    /// - Parameters:
    ///   - request: the request, with an absolute URL.
    ///   - destination: the file the body is written to (replaced when it exists).
    /// - Returns: the response, whose body is `destination`; for a status outside 2xx its
    ///   `error` is set (the body is in the file).
    /// - Throws: `TransportError`, or the file system's error when the file cannot be written.
    public func download(from request: URLRequest, to destination: URL) async throws -> Response<URL> {
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        do {
            let response = try await send(
                try PreparedRequest(request), timeout: request.timeoutInterval, to: .file(partial))
            guard rename(partial.path, destination.path) == 0 else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: destination.path,
                        NSLocalizedDescriptionKey: String(cString: strerror(errno)),
                    ])
            }
            return response.replacingBody(destination)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Sends a request with `data` as its body (whatever `httpBody` it had).
    ///
    /// - Parameters:
    ///   - request: the request, with an absolute URL.
    ///   - data: the body to send.
    /// - Returns: the response, whatever its status; for a status outside 2xx its `error` is set.
    /// - Throws: `TransportError`.
    public func upload(for request: URLRequest, from data: Data) async throws -> Response<Data?> {
        var prepared = try PreparedRequest(request)
        prepared.body = data
        return try await send(prepared, timeout: request.timeoutInterval, to: .memory)
    }

    /// Adapts, sends and adapts the response: what the three kinds of request share.
    private func send(
        _ request: PreparedRequest, timeout: TimeInterval, to destination: TransferOptions.BodyDestination
    ) async throws -> Response<Data?> {
        var prepared = request
        for adapter in requestAdapters { prepared = try await adapter.adapt(prepared) }
        let options = TransferOptions(
            timeout: timeout > 0 ? .milliseconds(Int64(timeout * 1000)) : nil, bodyDestination: destination)
        let started = Date()
        let response = Response(
            try await transport.send(prepared, options: options) { _ in }, request: prepared, started: started)
        for adapter in responseAdapters {
            if case .complete = try await adapter.adapt(response, for: BasicRequest(prepared)) { break }
        }
        return response
    }
}

extension PreparedRequest {
    /// The request a `URLRequest` describes.
    ///
    /// - Parameter request: the request, with an absolute URL.
    /// - Throws: `TransportError.invalidURL` when it has none.
    public init(_ request: URLRequest) throws {
        guard let url = request.url, url.scheme != nil, url.host != nil else {
            throw TransportError.invalidURL(request.url?.absoluteString ?? "(none)")
        }
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url,
            headers: HTTPHeaders(fields.map { ($0.key, $0.value) }), body: request.httpBody)
    }
}

extension BasicRequest {
    /// A request for the path, query, method, headers and body of a prepared one (its URL's
    /// scheme and host are the base URL's business).
    ///
    /// - Parameter prepared: the prepared request.
    init(_ prepared: PreparedRequest) {
        let components = URLComponents(url: prepared.url, resolvingAgainstBaseURL: false)
        self.init(
            method: prepared.method, path: components?.percentEncodedPath ?? prepared.url.path,
            queryItems: components?.queryItems ?? [], headers: prepared.headers, httpBody: prepared.body)
    }
}

extension URLRequest {
    /// A request for a URL with a method, as PiuPiu 2's `URLRequest(url:method:)`.
    ///
    /// - Parameters:
    ///   - url: the absolute URL.
    ///   - method: the method.
    public init(url: URL, method: HTTPMethod) {
        self.init(url: url)
        httpMethod = method.rawValue
    }
}
