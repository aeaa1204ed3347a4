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
    public func webSocket(_ request: PreparedRequest, options: WebSocketOptions = WebSocketOptions()) async throws
        -> WebSocketSession
    {
        if challengeHandler is DigestAuthenticator {
            throw WebSocketError.challengeAuthentication(
                url: (WebSocketSession.webSocketURL(for: request.url) ?? request.url).absoluteString)
        }
        var upgrade = request
        for adapter in requestAdapters { upgrade = try await adapter.adapt(upgrade) }
        upgrade = withCookies(upgrade)
        var options = options
        if options.tls == nil, let transport = transport as? AsyncHTTPClientTransport,
            var tls = transport.configuration.tls
        {
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
        do {
            return try await WebSocketSession.connect(upgrade, options: options)
        } catch WebSocketError.upgradeFailed(let url) {
            throw await refusal(of: upgrade, url: url) ?? WebSocketError.upgradeFailed(url: url)
        }
    }

    /// What the server answers an upgrade it refuses: the WebSocket client does not hand the
    /// answer over, so the same upgrade request goes once more through the transport, whose
    /// response has the status and the body (an API's error body says why). `nil` when that
    /// second answer is not a refusal too.
    private func refusal(of upgrade: PreparedRequest, url: String) async -> WebSocketError? {
        var probe = upgrade
        guard var components = URLComponents(url: upgrade.url, resolvingAgainstBaseURL: false) else { return nil }
        components.scheme = ["wss", "https"].contains(components.scheme?.lowercased() ?? "") ? "https" : "http"
        guard let httpURL = components.url else { return nil }
        probe.url = httpURL
        probe.method = .get
        probe.body = nil
        probe.headers["Connection"] = "Upgrade"
        probe.headers["Upgrade"] = "websocket"
        probe.headers["Sec-WebSocket-Version"] = "13"
        probe.headers["Sec-WebSocket-Key"] = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let options = TransferOptions(timeout: .seconds(10), maximumBodySize: Self.refusalBodyLimit)
        guard let answer = try? await transport.send(probe, options: options, progress: { _ in }),
            answer.status.code != 101
        else { return nil }
        let text =
            answer.body.flatMap { String(data: $0, encoding: .utf8) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ""
        return .upgradeRefused(url: url, status: answer.status.code, body: String(text.prefix(Self.refusalTextLimit)))
    }

    /// The most of a refusal's body read, and shown.
    static let refusalBodyLimit = 1 << 20
    static let refusalTextLimit = 300
}
