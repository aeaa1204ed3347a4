import Foundation

/// A complete HTTP response: status, headers, body, the request that produced it, and timings.
///
/// A response arrives as a success of the future whatever its status; for a status outside 2xx,
/// `error` is set and carries the status, headers and body, so an error body is never lost.
/// `ensureValidResponse()` turns such a response into a failure.
public struct Response<Body> {
    /// The status, with its reason phrase.
    public var statusCode: HTTPStatus
    /// The response headers, with case-insensitive lookup.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// The request that was actually sent (after request adapters), with its absolute URL.
    public var request: PreparedRequest
    /// The URL that finally answered, after any redirects.
    public var url: URL
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// When the parts arrived, bytes received, redirects followed.
    public var timings: ResponseTimings
    /// The HTTP error for a status outside 2xx, with the status, headers and raw body.
    public var error: HTTPError?

    /// Creates a response.
    public init(
        statusCode: HTTPStatus,
        headers: HTTPHeaders,
        body: Body,
        request: PreparedRequest,
        url: URL? = nil,
        httpVersion: String = "HTTP/1.1",
        timings: ResponseTimings = ResponseTimings(started: Date()),
        error: HTTPError? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.request = request
        self.url = url ?? request.url
        self.httpVersion = httpVersion
        self.timings = timings
        self.error = error
    }

    /// The same response with a new body.
    ///
    /// - Parameter newBody: the body.
    /// - Returns: a response that differs only in its body.
    public func replacingBody<NewBody>(_ newBody: NewBody) -> Response<NewBody> {
        Response<NewBody>(
            statusCode: statusCode, headers: headers, body: newBody, request: request, url: url,
            httpVersion: httpVersion, timings: timings, error: error)
    }

    /// The RFC 9457 problem details, when the response is `application/problem+json`.
    public var problemDetails: ProblemDetails? {
        error?.problemDetails
    }
}

extension Response: Sendable where Body: Sendable {}
extension Response: Equatable where Body: Equatable {}

extension Response where Body == Data? {
    /// Creates a response from raw parts, setting `error` when the status is not 2xx.
    ///
    /// - Parameters:
    ///   - statusCode: the status.
    ///   - headers: the headers.
    ///   - body: the raw body.
    ///   - request: the request that was sent.
    ///   - url: the URL that answered.
    ///   - httpVersion: the protocol version.
    ///   - timings: the timings.
    public init(statusCode: HTTPStatus, headers: HTTPHeaders, data body: Data?, request: PreparedRequest, url: URL? = nil, httpVersion: String = "HTTP/1.1", timings: ResponseTimings = ResponseTimings(started: Date())) {
        let url = url ?? request.url
        self.init(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url,
            httpVersion: httpVersion, timings: timings,
            error: statusCode.isSuccess ? nil : .unsuccessfulStatus(statusCode, url: url, headers: headers, body: body))
    }

    /// Creates the response a transport answered to a request sent at `started`.
    ///
    /// - Parameters:
    ///   - sent: what the transport answered.
    ///   - request: the request that was sent.
    ///   - started: when it was sent.
    package init(_ sent: consuming TransportResponse, request: consuming PreparedRequest, started: Date) {
        self.init(
            statusCode: sent.status, headers: sent.headers, data: sent.body, request: request,
            url: sent.url, httpVersion: sent.httpVersion,
            timings: ResponseTimings(
                started: started, headReceived: sent.headReceived, finished: sent.finished ?? Date(),
                bytesReceived: sent.bytesReceived, redirects: sent.redirects))
    }

    /// The RFC 9457 problem details in the body when it is `application/problem+json`,
    /// whatever the status.
    public var problemDetails: ProblemDetails? {
        ProblemDetails.parse(body: body, contentType: headers["Content-Type"])
    }
}
