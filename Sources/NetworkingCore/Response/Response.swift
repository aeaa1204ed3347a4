import Foundation

/// A complete HTTP response: status, headers, body, the request that produced it, and timings.
///
/// A response arrives as a success of the future whatever its status; for a status outside 2xx,
/// `error` is set and carries the status, headers and body, so an error body is never lost.
/// `ensureValidResponse()` turns such a response into a failure.
public struct Response<Body> {
    /// The status, with its reason phrase.
    public var statusCode: HTTPStatus {
        get { storage.parts.statusCode }
        set { uniqueStorage().parts.statusCode = newValue }
    }
    /// The response headers, with case-insensitive lookup.
    public var headers: HTTPHeaders {
        get { storage.parts.headers }
        set { uniqueStorage().parts.headers = newValue }
    }
    /// The body.
    public var body: Body {
        get { storage.parts.body }
        set { uniqueStorage().parts.body = newValue }
    }
    /// The request that was actually sent (after request adapters), with its absolute URL.
    public var request: PreparedRequest {
        get { storage.parts.request }
        set { uniqueStorage().parts.request = newValue }
    }
    /// The URL that finally answered, after any redirects.
    public var url: URL {
        get { storage.parts.url }
        set { uniqueStorage().parts.url = newValue }
    }
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String {
        get { storage.parts.httpVersion }
        set { uniqueStorage().parts.httpVersion = newValue }
    }
    /// When the parts arrived, bytes received, redirects followed.
    public var timings: ResponseTimings {
        get { storage.parts.timings }
        set { uniqueStorage().parts.timings = newValue }
    }
    /// The HTTP error for a status outside 2xx, with the status, headers and raw body.
    public var error: HTTPError? {
        get { storage.parts.error }
        set { uniqueStorage().parts.error = newValue }
    }

    /// The parts, shared by copies until one of them changes (copy on write): a response is
    /// copied whole into every callback, future and chained value, and a copy is one count,
    /// not one for each of the dozen references its parts hold (each an atomic operation, and
    /// a cache miss when the response was made on another thread).
    private var storage: Storage

    /// The parts themselves: a struct, so that the storage needs no initializer or copy of
    /// its own, and equality and printing come from its fields.
    fileprivate struct Parts {
        var statusCode: HTTPStatus
        var headers: HTTPHeaders
        var body: Body
        var request: PreparedRequest
        var url: URL
        var httpVersion: String
        var timings: ResponseTimings
        var error: HTTPError?
    }

    // Sound because `parts` is changed only through `uniqueStorage()`, when no other response
    // shares it: a shared storage is never written, so it crosses threads as safely as its values.
    private final class Storage: @unchecked Sendable {
        var parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    /// The storage, copied first when another response shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.parts) }
        return storage
    }

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
        storage = Storage(
            Parts(
                statusCode: statusCode, headers: headers, body: body, request: request, url: url ?? request.url,
                httpVersion: httpVersion, timings: timings, error: error))
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

/// Printed and dumped with its parts, as a struct of stored properties is, not its storage.
extension Response: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.parts).children, displayStyle: .struct)
    }
}

extension Response: Equatable where Body: Equatable {
    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.parts == rhs.storage.parts
    }
}

extension Response.Parts: Equatable where Body: Equatable {}

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
    public init(
        statusCode: HTTPStatus, headers: HTTPHeaders, data body: Data?, request: PreparedRequest, url: URL? = nil,
        httpVersion: String = "HTTP/1.1", timings: ResponseTimings = ResponseTimings(started: Date())
    ) {
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
