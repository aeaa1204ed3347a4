/// A gRPC call that ended with a status other than OK, as an error of the typed calls; or a
/// message this client refused to send.
public struct GRPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The method called: `/pkg.Service/Method`.
    public var path: String
    /// How the call ended.
    public var status: GRPCStatus
    /// The response headers, when the server sent any before the status.
    public var headers: GRPCMetadata
    /// The trailers the status came with.
    public var trailers: GRPCMetadata

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: the method called.
    ///   - status: how the call ended.
    ///   - headers: the response headers.
    ///   - trailers: the trailers.
    public init(path: String, status: GRPCStatus, headers: GRPCMetadata = [], trailers: GRPCMetadata = []) {
        self.path = path
        self.status = status
        self.headers = headers
        self.trailers = trailers
    }

    /// `/pkg.Service/Method ended with NOT_FOUND (5): no such user.`
    public var description: String {
        let sentence = "\(path) ended with \(status)"
        return sentence.hasSuffix(".") ? sentence : sentence + "."
    }

    /// A request message over the size limit, refused before sending.
    static func requestTooLarge(path: String, size: Int, limit: Int) -> GRPCError {
        GRPCError(
            path: path,
            status: GRPCStatus(
                code: 8,
                message: "the request message is \(size) bytes, over the limit of \(limit) bytes; "
                    + "raise GRPCCallOptions.maximumRequestSize (or the dispatcher's maximumMessageSize) to send it"))
    }
}
