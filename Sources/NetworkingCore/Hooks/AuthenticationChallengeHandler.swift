/// Answers a server's `401 Unauthorized` challenge with a request that carries credentials:
/// the mechanism of challenge-response schemes such as HTTP Digest (RFC 7616), where the
/// first request goes out without credentials and the second answers the `WWW-Authenticate`
/// challenge of the first.
///
/// A dispatcher given a handler asks it once per request, whenever a response head with
/// status 401 arrives; the 401's body is dropped and the answer is sent in its place. Both
/// `future(from:)` and the streaming forms do this, so a streamed body is never read twice.
public protocol AuthenticationChallengeHandler: Sendable {
    /// The request to send in answer to a 401, or `nil` to deliver the 401 as it is.
    ///
    /// - Parameters:
    ///   - challenge: the 401's status and headers (`WWW-Authenticate` among them).
    ///   - request: the request that was answered with the 401.
    /// - Returns: the request to send instead, with its credentials, or `nil`.
    /// - Throws: an error that fails the future (a challenge that cannot be answered safely).
    func answer(_ challenge: ResponseHead, to request: PreparedRequest) async throws -> PreparedRequest?
}
