import Foundation

/// A plain request value; the body setters also set a matching `Content-Type`.
public struct BasicRequest: Request, Hashable {
    public var method: HTTPMethod
    public var path: String
    public var queryItems: [URLQueryItem]
    public var headers: HTTPHeaders
    public var httpBody: Data?
    /// The names of headers that stay with the request's origin on a redirect (see
    /// `Request.originBoundHeaders`).
    public var originBoundHeaders: Set<String> = []

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the method (default GET).
    ///   - path: the path relative to the base URL.
    ///   - queryItems: query items, in order.
    ///   - headers: header fields.
    ///   - httpBody: the raw body.
    public init(
        method: HTTPMethod = .get,
        path: String,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        httpBody: Data? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.httpBody = httpBody
    }
}
