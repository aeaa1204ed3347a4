import Foundation

/// A request resolved against a base URL: what a transport actually sends.
///
/// The dispatcher builds it from a `Request` and the server provider's base URL at send time;
/// request adapters may change it; a response keeps it as `Response.request`.
public struct PreparedRequest: Sendable, Hashable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute URL, with the base path kept and path and query percent-encoded.
    public var url: URL
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: Data?
    /// The names of headers left behind on a redirect to another origin, besides the
    /// credentials the dispatcher's `RedirectPolicy` names (`Request.originBoundHeaders`).
    public var originBoundHeaders: Set<String> = []

    /// Creates a prepared request.
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the absolute URL.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
