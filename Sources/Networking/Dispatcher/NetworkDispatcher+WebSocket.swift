import Foundation
import NIOSSL

extension NetworkDispatcher {
    /// Opens a WebSocket the way this dispatcher sends a request: the request adapters run on
    /// the upgrade request (an OAuth2 token is added, obtained first when needed), the cookie
    /// jar's cookies for the URL go with it, and the TLS settings of an
    /// `AsyncHTTPClientTransport` (its CA, client certificate, minimum version, `insecure`)
    /// apply to a wss:// connection unless `options.tls` is set, and the connection goes through
    /// the proxy the transport would use for the URL unless `options.proxy` is set.
    ///
    /// Digest credentials are refused before connecting (`WebSocketError.challengeAuthentication`):
    /// they answer a challenge with a second request, and the upgrade is answered once.
    ///
    /// - Parameters:
    ///   - request: the upgrade request; a relative URL is resolved against the server
    ///     provider's base URL, as for a request.
    ///   - options: the session's limits.
    /// - Returns: the open session.
    /// - Throws: what an adapter throws, or `WebSocketError`.
    public func webSocket(_ request: PreparedRequest, options: WebSocketOptions = WebSocketOptions()) async throws -> WebSocketSession {
        if challengeHandler is DigestAuthenticator {
            throw WebSocketError.challengeAuthentication(url: (WebSocketSession.webSocketURL(for: request.url) ?? request.url).absoluteString)
        }
        var upgrade = request
        for adapter in requestAdapters { upgrade = try await adapter.adapt(upgrade) }
        upgrade = withCookies(upgrade)
        var options = options
        if options.tls == nil, let transport = transport as? AsyncHTTPClientTransport, var tls = transport.configuration.tls {
            if transport.configuration.allowsInvalidCertificates { tls.certificateVerification = .none }
            options.tls = tls
        }
        if options.proxy == nil, let transport = transport as? AsyncHTTPClientTransport {
            do {
                options.proxy = try transport.proxy(for: upgrade.url)
            } catch let error as TransportError {
                throw WebSocketError.transport(error)
            }
        }
        return try await WebSocketSession.connect(upgrade, options: options)
    }
}
