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
    func send(_ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> TransportResponse
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
    public init(status: HTTPStatus, headers: HTTPHeaders, body: Data?, url: URL, httpVersion: String = "HTTP/1.1", headReceived: Date? = nil, finished: Date? = nil, bytesReceived: Int = 0, redirects: [ResponseTimings.Redirect] = []) {
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

/// Per-request transfer options: a deadline, a body limit, and where the body goes.
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

    /// The time the whole request may take, or `nil` for the transport's default.
    public var timeout: Duration?
    /// The largest body accepted, in bytes, or `nil` for the transport's default.
    public var maximumBodySize: Int?
    /// Where the body goes.
    public var bodyDestination: BodyDestination

    /// Creates options.
    ///
    /// - Parameters:
    ///   - timeout: the deadline for the whole request.
    ///   - maximumBodySize: the body limit in bytes.
    ///   - bodyDestination: where the body goes (memory by default).
    public init(timeout: Duration? = nil, maximumBodySize: Int? = nil, bodyDestination: BodyDestination = .memory) {
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.bodyDestination = bodyDestination
    }
}

/// Collects body chunks into their destination, enforcing the size limit and reporting progress.
struct BodySink {
    let url: URL
    let limit: Int?
    let expected: Int64?
    let destination: TransferOptions.BodyDestination
    let progress: @Sendable (TransferProgress) -> Void
    /// The response head, carried in every progress update.
    let head: ResponseHead?
    private(set) var data = Data()
    private(set) var count = 0
    private var file: FileHandle?

    init(
        url: URL, limit: Int?, expected: Int64?, destination: TransferOptions.BodyDestination, head: ResponseHead? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) throws {
        self.head = head
        self.url = url
        self.limit = limit
        self.expected = expected
        self.destination = destination
        self.progress = progress
        if let limit, let expected, expected > Int64(limit) {
            throw TransportError.bodyTooLarge(url: url, limit: limit)
        }
        switch destination {
        case .memory:
            if let expected, expected > 0 { data.reserveCapacity(Int(min(expected, Int64(limit ?? Int.max)))) }
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
    mutating func append<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        count += bytes.count
        if let limit, count > limit { throw TransportError.bodyTooLarge(url: url, limit: limit) }
        switch destination {
        case .memory: data.append(contentsOf: bytes)
        case .file: try file?.write(contentsOf: Data(bytes))
        case .stream(let handler): try handler(Data(bytes))
        case .discard: break
        }
        progress(TransferProgress(completedBytes: Int64(count), expectedBytes: expected, head: head))
    }

    /// Reports that the head has arrived, before any body byte.
    func begin() {
        progress(TransferProgress(completedBytes: 0, expectedBytes: expected, head: head))
    }

    /// Finishes and gives the body collected in memory, if any.
    mutating func finish() throws -> Data? {
        try file?.close()
        file = nil
        if case .memory = destination { return data }
        return nil
    }
}
