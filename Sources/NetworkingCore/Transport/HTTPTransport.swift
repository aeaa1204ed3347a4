import Foundation

/// Sends one prepared request and returns its complete response: what a dispatcher builds on.
///
/// A transport follows redirects (or not) as configured, decompresses, enforces timeouts and
/// body limits, reports body progress, and maps its failures to `TransportError`. Cancelling the
/// calling Task must cancel the request and close its connection.
public protocol HTTPTransport: Sendable {
    /// Sends a request and collects its response.
    ///
    /// - Parameters:
    ///   - request: the request, with its absolute URL.
    ///   - options: per-request limits and where the body goes.
    ///   - progress: called as body bytes arrive.
    /// - Returns: the response.
    /// - Throws: `TransportError`.
    func send(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse

    /// Sends a request and answers when its head has arrived, the body following as a
    /// back-pressured `AsyncSequence` of chunks.
    ///
    /// A default implementation streams through `send` (without back-pressure); the project's
    /// transports implement it natively.
    ///
    /// - Parameters:
    ///   - request: the request, with its absolute URL.
    ///   - options: deadlines and body limits (the destination is ignored).
    /// - Returns: the head and the body still arriving.
    /// - Throws: `TransportError`, for anything before the head; later failures end the body.
    func stream(_ request: PreparedRequest, options: TransferOptions) async throws -> StreamedResponse
}

/// What a transport answers: status, headers, body and how it arrived.
public struct TransportResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The headers, in order.
    public var headers: HTTPHeaders
    /// The body, when it was collected in memory.
    public var body: Data?
    /// The URL that finally answered, after redirects.
    public var url: URL
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// When the head arrived.
    public var headReceived: Date?
    /// When the last byte arrived.
    public var finished: Date?
    /// The body bytes received.
    public var bytesReceived: Int
    /// The redirects followed, in order.
    public var redirects: [ResponseTimings.Redirect]

    /// Creates a transport response.
    public init(
        status: HTTPStatus, headers: HTTPHeaders, body: Data?, url: URL, httpVersion: String = "HTTP/1.1",
        headReceived: Date? = nil, finished: Date? = nil, bytesReceived: Int = 0,
        redirects: [ResponseTimings.Redirect] = []
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.httpVersion = httpVersion
        self.headReceived = headReceived
        self.finished = finished
        self.bytesReceived = bytesReceived
        self.redirects = redirects
    }
}

/// Per-request transfer options: time limits, body limits, and where the body goes.
///
/// Every limit is visible here and can be raised: a body past `maximumBodySize`, a compressed
/// body that inflates past `maximumDecompressedSize` or by more than
/// `maximumDecompressionRatio` fails with `TransportError.bodyTooLarge` naming the limit; a
/// request still running at `timeout` or silent for `idleTimeout` fails with
/// `TransportError.timedOut`.
public struct TransferOptions: Sendable {
    /// Where a response body goes.
    public enum BodyDestination: Sendable {
        /// Collected in memory, as `Response.body`.
        case memory
        /// Written to a file (created or truncated); `Response.body` is `nil`.
        case file(URL)
        /// Handed over chunk by chunk; `Response.body` is `nil`. A throw cancels the request.
        case stream(@Sendable (Data) throws -> Void)
        /// Counted and dropped.
        case discard
    }

    /// The total deadline: the time the whole request may take, head and body, or `nil` for the
    /// transport's default.
    public var timeout: Duration?
    /// The longest silence while waiting for the head or the next body bytes, or `nil` for the
    /// transport's default read timeout. Separate from `timeout`: an endless body that keeps
    /// sending is stopped by `timeout`, a stalled one by this.
    public var idleTimeout: Duration?
    /// The largest body accepted, in bytes (after decompression), or `nil` for the transport's
    /// default.
    public var maximumBodySize: Int?
    /// The largest size a compressed body may inflate to, in bytes, or `nil` for the
    /// transport's default.
    public var maximumDecompressedSize: Int?
    /// The largest ratio of inflated to compressed bytes, checked as bytes arrive, or `nil`
    /// for the transport's default.
    public var maximumDecompressionRatio: Int?
    /// Where the body goes.
    public var bodyDestination: BodyDestination
    /// Asked before each redirect hop the transport follows, or `nil` to follow them as the
    /// transport builds them. A dispatcher sets its own (its cookie jar, its redirect policy).
    public var redirectHandler: (any RedirectHandler)?
    /// Whether redirects are followed, or `nil` for the transport's setting. `false` answers
    /// with the first redirect itself (curl without `-L`).
    public var followsRedirects: Bool?
    /// How many redirects are followed at most, or `nil` for the transport's setting (curl's
    /// `--max-redirs`); one more fails with `TransportError.tooManyRedirects`.
    public var maximumRedirects: Int?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - timeout: the total deadline for the whole request.
    ///   - idleTimeout: the longest silence while reading.
    ///   - maximumBodySize: the body limit in bytes.
    ///   - maximumDecompressedSize: the limit on inflated bytes.
    ///   - maximumDecompressionRatio: the limit on inflated / compressed bytes.
    ///   - bodyDestination: where the body goes (memory by default).
    ///   - redirectHandler: asked before each redirect hop (`nil`: none).
    ///   - followsRedirects: whether redirects are followed (`nil`: the transport's setting).
    ///   - maximumRedirects: the most redirects followed (`nil`: the transport's setting).
    public init(
        timeout: Duration? = nil, idleTimeout: Duration? = nil, maximumBodySize: Int? = nil,
        maximumDecompressedSize: Int? = nil, maximumDecompressionRatio: Int? = nil,
        bodyDestination: BodyDestination = .memory, redirectHandler: (any RedirectHandler)? = nil,
        followsRedirects: Bool? = nil, maximumRedirects: Int? = nil
    ) {
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
        self.redirectHandler = redirectHandler
        self.timeout = timeout
        self.idleTimeout = idleTimeout
        self.maximumBodySize = maximumBodySize
        self.maximumDecompressedSize = maximumDecompressedSize
        self.maximumDecompressionRatio = maximumDecompressionRatio
        self.bodyDestination = bodyDestination
    }
}

/// Collects body chunks into their destination and reports progress.
package struct BodySink {
    let expected: Int64?
    let destination: TransferOptions.BodyDestination
    let progress: @Sendable (TransferProgress) -> Void
    /// The response head, carried in every progress update.
    let head: ResponseHead?
    private(set) var data = Data()
    /// Whether room for the expected size was made (once a second piece comes).
    private var reserved = false
    package private(set) var count = 0
    private var file: FileHandle?

    package init(
        expected: Int64?, destination: TransferOptions.BodyDestination, head: ResponseHead? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) throws {
        self.head = head
        self.expected = expected
        self.destination = destination
        self.progress = progress
        switch destination {
        case .memory:
            break
        case .file(let fileURL):
            guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
                throw TransportError.other("cannot create \(fileURL.path)")
            }
            file = try FileHandle(forWritingTo: fileURL)
        case .stream, .discard:
            break
        }
    }

    /// Takes one chunk.
    package mutating func append(_ bytes: Data) throws {
        count += bytes.count
        switch destination {
        case .memory:
            if count == bytes.count {
                // The first piece is kept as it is: a body that arrives in one piece is not copied.
                data = bytes
            } else {
                if !reserved, let expected, expected > Int64(count) {
                    reserved = true
                    data.reserveCapacity(Int(min(expected, 64 << 20)))
                }
                data.append(bytes)
            }
        case .file: try file?.write(contentsOf: bytes)
        case .stream(let handler): try handler(bytes)
        case .discard: break
        }
        progress(TransferProgress(completedBytes: Int64(count), expectedBytes: expected, head: head))
    }

    /// Reports that the head has arrived, before any body byte.
    package func begin() {
        progress(TransferProgress(completedBytes: 0, expectedBytes: expected, head: head))
    }

    /// Finishes and gives the body collected in memory, if any.
    package mutating func finish() throws -> Data? {
        try file?.close()
        file = nil
        if case .memory = destination { return data }
        return nil
    }
}
