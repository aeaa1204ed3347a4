import Foundation

/// What a response adapter decides after a response arrives.
public enum ResponseAdaptation: Sendable {
    /// Let the next adapter look at the response, then deliver it.
    case `continue`
    /// Send this request instead (e.g. the same one after refreshing a token); its response is
    /// delivered in place of this one.
    case retry(with: any Request)
    /// Deliver this response now, skipping the remaining adapters and the retry policy.
    case complete
}

/// Looks at a response before it is delivered: a 401 → refresh the token → retry flow is a
/// few lines.
///
/// ```swift
/// struct RefreshOn401: ResponseAdapter {
///     let tokens: TokenStore
///     func adapt(_ response: Response<Data?>, for request: any Request) async throws -> ResponseAdaptation {
///         guard response.statusCode == .unauthorized, !tokens.refreshed else { return .continue }
///         try await tokens.refresh()
///         return .retry(with: request)
///     }
/// }
/// ```
///
/// The method has a default that answers `.continue`.
public protocol ResponseAdapter: Sendable {
    /// Decides what happens to a response.
    ///
    /// - Parameters:
    ///   - response: the response that arrived.
    ///   - request: the request that produced it, as the caller gave it.
    /// - Returns: continue, retry with another request, or complete.
    /// - Throws: any error, which fails the future.
    func adapt(_ response: Response<Data?>, for request: any Request) async throws -> ResponseAdaptation
}

extension ResponseAdapter {
    /// Lets the response through.
    public func adapt(_ response: Response<Data?>, for request: any Request) async throws -> ResponseAdaptation {
        .continue
    }
}

/// A response adapter made from a closure.
public struct AnyResponseAdapter: ResponseAdapter {
    private let body: @Sendable (Response<Data?>, any Request) async throws -> ResponseAdaptation

    /// Creates an adapter from a closure.
    ///
    /// - Parameter body: decides what happens to a response.
    public init(_ body: @escaping @Sendable (Response<Data?>, any Request) async throws -> ResponseAdaptation) {
        self.body = body
    }

    /// Runs the closure.
    public func adapt(_ response: Response<Data?>, for request: any Request) async throws -> ResponseAdaptation {
        try await body(response, request)
    }
}
