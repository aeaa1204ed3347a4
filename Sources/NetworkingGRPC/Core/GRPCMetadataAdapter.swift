/// Changes the metadata of every call before it is sent: adds credentials, a trace id.
///
/// ```swift
/// struct BearerToken: GRPCMetadataAdapter {
///     let token: String
///     func adapt(_ metadata: inout GRPCMetadata, path: String) async throws {
///         metadata.set("authorization", "Bearer \(token)")
///     }
/// }
/// ```
public protocol GRPCMetadataAdapter: Sendable {
    /// Adapts the metadata of a call; a throw fails the call before anything is sent.
    ///
    /// - Parameters:
    ///   - metadata: the call's metadata, to change in place.
    ///   - path: the method called: `/pkg.Service/Method`.
    func adapt(_ metadata: inout GRPCMetadata, path: String) async throws
}
