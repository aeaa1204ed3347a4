/// A service of a schema: its full name and its methods, in the order the file declares them.
public struct ProtoService: Sendable {
    /// `grpc.testing.TestService`.
    public let fullName: String
    /// The methods, as declared.
    public let methods: [ProtoMethod]

    /// A service with these methods.
    public init(fullName: String, methods: [ProtoMethod]) {
        self.fullName = fullName
        self.methods = methods
    }
}

/// A method of a service: its name, its message types and how many messages each side sends.
public struct ProtoMethod: Sendable {
    /// The method's own name: `UnaryCall`.
    public let name: String
    /// The full name of its service: `grpc.testing.TestService`.
    public let serviceName: String
    /// The request's message type, a full name without the leading dot.
    public let inputType: String
    /// The response's message type, a full name without the leading dot.
    public let outputType: String
    /// Unary or which side streams.
    public let kind: ProtoCallKind

    /// A method of `serviceName`.
    public init(name: String, serviceName: String, inputType: String, outputType: String, kind: ProtoCallKind) {
        self.name = name
        self.serviceName = serviceName
        self.inputType = inputType
        self.outputType = outputType
        self.kind = kind
    }

    /// The HTTP/2 path gRPC calls it by: `/grpc.testing.TestService/UnaryCall`.
    public var path: String { "/\(serviceName)/\(name)" }
}
