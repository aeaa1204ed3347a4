import NetworkingCore

/// A finished call of the typed API: its headers, messages, status and trailers, and when each
/// part arrived.
public struct GRPCResponse<Message: Sendable>: Sendable {
    /// The method called: `/pkg.Service/Method`.
    public var path: String
    /// The response headers.
    public var headers: GRPCMetadata
    /// The response messages, in order (one for a unary or client-streaming call).
    public var messages: [Message]
    /// How the call ended (OK: a typed call that did not end OK throws `GRPCError`).
    public var status: GRPCStatus
    /// The trailers.
    public var trailers: GRPCMetadata
    /// When the call started, when its headers arrived, when it ended; the message bytes received.
    public var timings: ResponseTimings

    /// Creates a response.
    public init(
        path: String, headers: GRPCMetadata, messages: [Message], status: GRPCStatus, trailers: GRPCMetadata,
        timings: ResponseTimings
    ) {
        self.path = path
        self.headers = headers
        self.messages = messages
        self.status = status
        self.trailers = trailers
        self.timings = timings
    }

    /// The first message, the only one of a unary or client-streaming call.
    public var message: Message? { messages.first }
}
