/// Shapes each redirect hop a transport follows: the request of the next hop, or an error that
/// stops the chain.
///
/// A transport that follows redirects hop by hop (`AsyncHTTPClientTransport`) asks the handler
/// of the request's `TransferOptions` before each hop, after it has built the next request by
/// the usual rules (the method change of 301/302/303, the credentials dropped for another
/// origin). A `NetworkDispatcher` passes one that keeps each hop's `Set-Cookie` in its jar
/// and sends the jar's cookies for the next URL (RFC 6265 §5.3, §5.4), as browsers and curl
/// `-L -b -c` do, and applies its `RedirectPolicy`.
public protocol RedirectHandler: Sendable {
    /// The request to send for the next hop.
    ///
    /// - Parameters:
    ///   - redirect: the status and headers of the redirect (its `Set-Cookie` among them).
    ///   - request: the request the redirect answered.
    ///   - next: the next hop's request as the transport built it.
    /// - Returns: the request to send.
    /// - Throws: an error that fails the request (a redirect that must not be followed).
    func request(following redirect: ResponseHead, to request: PreparedRequest, next: PreparedRequest) async throws
        -> PreparedRequest
}

extension RedirectHandler {
    /// Sends the next hop as the transport built it.
    public func request(following redirect: ResponseHead, to request: PreparedRequest, next: PreparedRequest)
        async throws -> PreparedRequest
    {
        next
    }
}
