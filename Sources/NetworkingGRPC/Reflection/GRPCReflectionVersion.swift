/// A version of the server reflection protocol.
///
/// The two carry the same messages (the same fields and numbers); they differ in the service's
/// name, so one set of messages (v1's) is read and written for both.
public enum GRPCReflectionVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `grpc.reflection.v1`, the current one.
    case v1 = "grpc.reflection.v1"
    /// `grpc.reflection.v1alpha`, what older servers answer.
    case v1alpha = "grpc.reflection.v1alpha"

    /// The service's full name: `grpc.reflection.v1.ServerReflection`.
    public var serviceName: String { "\(rawValue).ServerReflection" }
    /// The method's path: `/grpc.reflection.v1.ServerReflection/ServerReflectionInfo`.
    public var path: String { "/\(serviceName)/ServerReflectionInfo" }
    /// `grpc.reflection.v1`.
    public var description: String { rawValue }
}
