import Foundation

/// What a dispatcher sends: a method, a path relative to the server provider's base URL,
/// query items, headers and an optional body.
public protocol Request: Sendable {
    /// The request method.
    var method: HTTPMethod { get }
    /// The path appended to the base URL's own path (`/posts` on `https://h/v1` is `/v1/posts`).
    var path: String { get }
    /// The query items, in order; values are percent-encoded when the URL is built.
    var queryItems: [URLQueryItem] { get }
    /// The header fields.
    var headers: HTTPHeaders { get }
    /// The body, if any.
    var httpBody: Data? { get }
    /// The names of headers that stay with the request's origin, compared case-insensitively:
    /// on a redirect to another origin a dispatcher leaves them behind, as it does credentials
    /// (a header whose value holds a secret under a name that does not say so). None by default.
    var originBoundHeaders: Set<String> { get }
}

extension Request {
    /// No header of the request is bound to its origin but the credentials the dispatcher's
    /// `RedirectPolicy` names.
    public var originBoundHeaders: Set<String> { [] }
}
