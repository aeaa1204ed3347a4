import GRPCCore

/// How a gRPC call ended: its code, the code's name, the server's message and the rich error
/// details it sent (`grpc-status-details-bin`, a serialized `google.rpc.Status`).
public struct GRPCStatus: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The code: 0 is OK, 1 to 16 the codes gRPC defines.
    public let code: Int
    /// The code's name as gRPC's documentation spells it: `OK`, `UNIMPLEMENTED`, `CODE_42`.
    public let name: String
    /// The message the server (or this client, for a deadline or a cancellation) gave.
    public let message: String
    /// The `grpc-status-details-bin` trailer's bytes, when the server sent one.
    public let details: [UInt8]?

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - code: the code.
    ///   - message: the message.
    ///   - details: the `grpc-status-details-bin` bytes.
    public init(code: Int, message: String = "", details: [UInt8]? = nil) {
        self.code = code
        self.name = Self.name(of: code)
        self.message = message
        self.details = details
    }

    /// The status of a call that succeeded.
    public static let ok = GRPCStatus(code: 0)

    /// Whether the call succeeded.
    public var isOK: Bool { code == 0 }

    /// `OK`, or `NOT_FOUND (5): no such user`.
    public var description: String {
        if isOK && message.isEmpty { return name }
        return message.isEmpty ? "\(name) (\(code))" : "\(name) (\(code)): \(message)"
    }

    /// The name gRPC gives a code; `CODE_n` for one it does not define.
    ///
    /// - Parameter code: the code.
    /// - Returns: its name.
    public static func name(of code: Int) -> String {
        Status.Code(rawValue: code)?.protocolName ?? "CODE_\(code)"
    }
}

extension GRPCStatus {
    /// The status of a call grpc-swift ended with an error; the details come from the trailers.
    init(_ error: RPCError) {
        let details = error.metadata[binaryValues: "grpc-status-details-bin"].first(where: { _ in true })
        self.init(code: error.code.rawValue, message: error.message, details: details)
    }
}

extension Status.Code {
    /// The code's name as gRPC's documentation spells it (`OK`, `NOT_FOUND`,
    /// `UNIMPLEMENTED`): what grpcurl prints and what a collection's `grpc_status` checks compare.
    public var protocolName: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        default: "CODE_\(rawValue)"
        }
    }
}
