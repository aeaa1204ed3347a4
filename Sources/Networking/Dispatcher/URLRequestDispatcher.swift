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

/// A `DataDispatcher` that sends through an `HTTPTransport` (the shared AsyncHTTPClient
/// transport by default), running request and response adapters on the way.
///
/// Where `NetworkDispatcher` builds the URL from a server provider and gives futures, this one
/// takes requests that already carry their URL and is awaited.
public final class URLRequestDispatcher: DataDispatcher {
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
    public init(transport: any HTTPTransport = AsyncHTTPClientTransport.shared, requestAdapters: [any RequestAdapter] = [], responseAdapters: [any ResponseAdapter] = []) {
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
        var prepared = try PreparedRequest(request)
        for adapter in requestAdapters { prepared = try await adapter.adapt(prepared) }
        let options = TransferOptions(timeout: request.timeoutInterval > 0 ? .milliseconds(Int64(request.timeoutInterval * 1000)) : nil)
        let started = Date()
        let response = Response(try await transport.send(prepared, options: options) { _ in }, request: prepared, started: started)
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
