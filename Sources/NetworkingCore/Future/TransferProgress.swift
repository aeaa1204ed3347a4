import Foundation

/// How much of a body has been transferred, and the response head once it has arrived.
///
/// The first update comes as soon as the head arrives (with `completedBytes` 0), so a client
/// can show the status of a large response while its body is still streaming in.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// The expected total (from `Content-Length`), or `nil` when unknown.
    public var expectedBytes: Int64?
    /// The response's status line and headers, when the transport reports them.
    public var head: ResponseHead?

    /// Creates a progress value.
    public init(completedBytes: Int64, expectedBytes: Int64?, head: ResponseHead? = nil) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.head = head
    }

    /// The fraction done in `0...1`, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }
}

/// The head of a response: what arrives before its body.
public struct ResponseHead: Sendable, Hashable {
    /// The status.
    public var status: HTTPStatus
    /// The headers, in order.
    public var headers: HTTPHeaders
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String

    /// Creates a response head.
    public init(status: HTTPStatus, headers: HTTPHeaders, httpVersion: String) {
        self.status = status
        self.headers = headers
        self.httpVersion = httpVersion
    }
}
