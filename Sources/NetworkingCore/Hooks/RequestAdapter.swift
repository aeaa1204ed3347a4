import Foundation

/// Changes a request just before it is sent: add an auth header, sign, log.
///
/// Every method has a default that changes nothing, so implement only what you need.
public protocol RequestAdapter: Sendable {
    /// Returns the request to send instead; a throw fails the future.
    ///
    /// - Parameter request: the request about to be sent, with its absolute URL.
    /// - Returns: the request to send.
    /// - Throws: any error, which fails the future.
    func adapt(_ request: PreparedRequest) async throws -> PreparedRequest
}

extension RequestAdapter {
    /// Sends the request unchanged.
    public func adapt(_ request: PreparedRequest) async throws -> PreparedRequest { request }
}

/// A request adapter made from a closure.
public struct AnyRequestAdapter: RequestAdapter {
    private let body: @Sendable (PreparedRequest) async throws -> PreparedRequest

    /// Creates an adapter from a closure.
    ///
    /// - Parameter body: returns the request to send.
    public init(_ body: @escaping @Sendable (PreparedRequest) async throws -> PreparedRequest) { self.body = body }

    /// Runs the closure.
    public func adapt(_ request: PreparedRequest) async throws -> PreparedRequest { try await body(request) }
}
