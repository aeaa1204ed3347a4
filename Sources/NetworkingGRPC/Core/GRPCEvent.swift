/// What a call in flight reports, in order: `headers` once, `message`s, `end` once.
public enum GRPCEvent: Sendable, Equatable {
    /// The response headers (empty when the server answered with a status alone).
    case headers(GRPCMetadata)
    /// One response message's bytes.
    case message([UInt8])
    /// The status and the trailers: the call is over.
    case end(GRPCStatus, trailers: GRPCMetadata)
}
