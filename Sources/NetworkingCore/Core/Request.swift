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
}
