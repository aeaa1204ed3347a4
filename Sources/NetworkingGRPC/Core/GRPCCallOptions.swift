/// What one call may change of the dispatcher's defaults.
public struct GRPCCallOptions: Sendable, Hashable {
    /// The deadline, from the start of the call: past it the call ends with `DEADLINE_EXCEEDED`
    /// (and the server is told, in `grpc-timeout`). `nil`: no deadline.
    public var timeout: Duration?
    /// The `:authority` sent instead of the base URL's `host:port` (and the name TLS checks
    /// the certificate against); a call with another authority gets a connection of its own.
    public var authority: String?
    /// The largest request message sent, in bytes; `nil`: the dispatcher's `maximumMessageSize`.
    public var maximumRequestSize: Int?
    /// The largest response message accepted, in bytes; `nil`: the dispatcher's
    /// `maximumMessageSize`. A larger one ends the call with `RESOURCE_EXHAUSTED`.
    public var maximumResponseSize: Int?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - timeout: the deadline.
    ///   - authority: the `:authority` override.
    ///   - maximumRequestSize: the largest request message.
    ///   - maximumResponseSize: the largest response message.
    public init(
        timeout: Duration? = nil, authority: String? = nil, maximumRequestSize: Int? = nil,
        maximumResponseSize: Int? = nil
    ) {
        self.timeout = timeout
        self.authority = authority
        self.maximumRequestSize = maximumRequestSize
        self.maximumResponseSize = maximumResponseSize
    }
}
