import Foundation

/// A complete response whose status is not 2xx, with everything it carried.
///
/// The body is kept, so an error body (a validation message, problem+json) is never lost.
public enum HTTPError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The server answered a status outside 2xx.
    case unsuccessfulStatus(HTTPStatus, url: URL, headers: HTTPHeaders, body: Data?)

    /// The status that was answered.
    public var status: HTTPStatus {
        switch self {
        case .unsuccessfulStatus(let status, _, _, _): return status
        }
    }

    /// The URL that answered.
    public var url: URL {
        switch self {
        case .unsuccessfulStatus(_, let url, _, _): return url
        }
    }

    /// The response headers.
    public var headers: HTTPHeaders {
        switch self {
        case .unsuccessfulStatus(_, _, let headers, _): return headers
        }
    }

    /// The response body, if there was one.
    public var body: Data? {
        switch self {
        case .unsuccessfulStatus(_, _, _, let body): return body
        }
    }

    /// The RFC 9457 problem details in the body, when the body is `application/problem+json`.
    public var problemDetails: ProblemDetails? {
        ProblemDetails.parse(body: body, contentType: headers["Content-Type"])
    }

    /// One sentence a person can act on.
    public var description: String {
        let excerpt = body.map { BodyExcerpt.make($0) }.flatMap { $0.isEmpty ? nil : $0 }
        return "\(url.absoluteString) answered \(status)" + (excerpt.map { ": \($0)" } ?? ".")
    }

    public var errorDescription: String? { description }
}
