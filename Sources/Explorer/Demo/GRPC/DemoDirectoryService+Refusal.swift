import GRPCCore
import SwiftProtobuf

extension DemoDirectoryService {
    /// The `ErrorInfo` domain of the demo's refusals.
    static let errorDomain = "demo.explorer.local"
    /// The `ErrorInfo` reason of `CreateUser`'s refusal.
    static let readOnlyReason = "DIRECTORY_READ_ONLY"
    /// The trailer that carries a `google.rpc.Status` (gRPC's rich error model).
    static let statusDetailsKey = "grpc-status-details-bin"

    /// `CreateUser`'s answer, whatever it is asked: INVALID_ARGUMENT with the rich error model's
    /// details, a `google.rpc.BadRequest` naming the fields and a `google.rpc.ErrorInfo`, packed
    /// as `Any` in a `google.rpc.Status` in the `grpc-status-details-bin` trailer.
    ///
    /// - Throws: `BinaryEncodingError` if a message cannot be serialized (never, for these).
    func refusal(of request: Explorer_Demo_V1_CreateUserRequest) throws -> RPCError {
        var badRequest = Google_Rpc_BadRequest()
        badRequest.fieldViolations.append(
            .with {
                $0.field = "username"
                $0.description_p =
                    request.username.isEmpty
                    ? "A username is required."
                    : "\"\(request.username)\" cannot be registered: the demo's directory is read-only over gRPC."
                $0.reason = request.username.isEmpty ? "USERNAME_MISSING" : Self.readOnlyReason
            })
        if !request.email.contains("@") {
            badRequest.fieldViolations.append(
                .with {
                    $0.field = "email"
                    $0.description_p = "An email address needs an @ (it is \"\(request.email)\")."
                    $0.reason = "EMAIL_INVALID"
                })
        }
        var info = Google_Rpc_ErrorInfo()
        info.reason = Self.readOnlyReason
        info.domain = Self.errorDomain
        info.metadata = ["environment": environment, "method": "\(Self.serviceName)/CreateUser"]

        let message = "The user cannot be created in the \(environment) environment."
        var status = Google_Rpc_Status()
        status.code = Int32(RPCError.Code.invalidArgument.rawValue)
        status.message = message
        status.details = [try Google_Protobuf_Any(message: badRequest), try Google_Protobuf_Any(message: info)]
        var metadata = Metadata()
        metadata.addBinary(try status.serializedBytes(), forKey: Self.statusDetailsKey)
        return RPCError(code: .invalidArgument, message: message, metadata: metadata)
    }
}
