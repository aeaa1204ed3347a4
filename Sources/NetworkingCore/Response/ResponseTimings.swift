import Foundation

/// When a response's parts arrived, how many bytes came, and which redirects led to it.
public struct ResponseTimings: Sendable, Hashable {
    /// One redirect that was followed.
    public struct Redirect: Sendable, Hashable {
        /// The URL that answered with a redirect.
        public var from: URL
        /// The URL it redirected to.
        public var to: URL
        /// The redirect status, e.g. 302.
        public var status: HTTPStatus
        /// The `Location` header as the server wrote it (`to` is it resolved against `from`).
        public var location: String
        /// How long the hop took: from its request to the redirect's head, in seconds.
        public var duration: TimeInterval?

        /// Creates a redirect record.
        public init(from: URL, to: URL, status: HTTPStatus, location: String? = nil, duration: TimeInterval? = nil) {
            self.from = from
            self.to = to
            self.status = status
            self.location = location ?? to.absoluteString
            self.duration = duration
        }
    }

    /// When the dispatcher handed the request to the transport.
    public var started: Date
    /// When the response head (status and headers) arrived.
    public var headReceived: Date?
    /// When the last body byte arrived.
    public var finished: Date?
    /// The body bytes received (after decompression).
    public var bytesReceived: Int
    /// The redirects followed, in order.
    public var redirects: [Redirect]

    /// Creates timings.
    public init(
        started: Date, headReceived: Date? = nil, finished: Date? = nil, bytesReceived: Int = 0,
        redirects: [Redirect] = []
    ) {
        self.started = started
        self.headReceived = headReceived
        self.finished = finished
        self.bytesReceived = bytesReceived
        self.redirects = redirects
    }

    /// Time from start to the response head, if it arrived.
    public var timeToHead: TimeInterval? { headReceived.map { $0.timeIntervalSince(started) } }

    /// Time from start to the last byte, if the response finished.
    public var total: TimeInterval? { finished.map { $0.timeIntervalSince(started) } }
}
