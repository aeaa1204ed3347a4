/// How many messages each side of a method sends, from its descriptor's `client_streaming` and
/// `server_streaming`.
public enum ProtoCallKind: String, Sendable, CaseIterable {
    case unary
    case serverStreaming = "server streaming"
    case clientStreaming = "client streaming"
    case bidirectionalStreaming = "bidi streaming"

    /// The kind of a method that streams on the sides given.
    public init(clientStreaming: Bool, serverStreaming: Bool) {
        switch (clientStreaming, serverStreaming) {
        case (false, false): self = .unary
        case (false, true): self = .serverStreaming
        case (true, false): self = .clientStreaming
        case (true, true): self = .bidirectionalStreaming
        }
    }

    /// Whether the client may send more than one message.
    public var clientStreams: Bool { self == .clientStreaming || self == .bidirectionalStreaming }

    /// Whether the server may answer with more than one message.
    public var serverStreams: Bool { self == .serverStreaming || self == .bidirectionalStreaming }
}
