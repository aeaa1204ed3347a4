import Foundation

/// A request that did not get a complete response: what went wrong on the way.
public enum TransportError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The dispatcher's server provider was released before the request was sent.
    case serverProviderReleased
    /// The server provider answered no base URL.
    case missingBaseURL
    /// The URL could not be built or is not one the transport can send to.
    case invalidURL(String)
    /// No network path to the host (network down, unreachable host).
    case notConnected(host: String, reason: String)
    /// The host refused the connection: nothing listens on that port.
    case connectionRefused(host: String, port: Int)
    /// The host name could not be resolved.
    case dnsFailure(host: String)
    /// The request did not finish in time.
    case timedOut(url: URL, phase: String)
    /// The TLS handshake failed (certificate, protocol or cipher): why, and which
    /// `TLSSettings` can fix it.
    case tlsFailure(host: String, reason: TLSFailure)
    /// The request was cancelled.
    case cancelled
    /// The server redirected more times than allowed: `limit` hops were followed.
    case tooManyRedirects(url: URL, limit: Int)
    /// An https URL redirected to plain http, which was not followed: the request would have
    /// gone in clear. `hint` says how to allow it.
    case insecureRedirect(from: URL, to: URL, hint: String)
    /// The body passed one of the configured limits (bytes, inflated bytes or inflation ratio).
    case bodyTooLarge(url: URL, limit: BodyLimit)
    /// The server closed the connection before the response was complete.
    case connectionClosed(url: URL)
    /// The body could not be decompressed (invalid gzip or deflate data).
    case decompressionFailed(url: URL, reason: String)
    /// The reply is not valid HTTP/1.1 and was refused: `problem` says what was wrong.
    case malformedResponse(url: URL, problem: MalformedResponse)
    /// The proxy answered `407 Proxy Authentication Required`: it wants (other) credentials.
    /// `proxy` is its URL with the password masked; `source` the setting it came from.
    case proxyAuthenticationRequired(proxy: String, source: String, sentCredentials: Bool)
    /// The proxy could not be reached (refused, unknown host, unreachable, time-out).
    case proxyUnreachable(proxy: String, source: String, reason: String)
    /// The proxy was reached but did not open the way to the server (it refused the `CONNECT`
    /// or did not answer it in time).
    case proxyFailed(proxy: String, source: String, target: String, reason: String)
    /// The proxy setting that applies to the URL cannot be used (a malformed URL).
    case invalidProxy(String)
    /// Any other failure, with the underlying error's description.
    case other(String)

    /// One sentence a person can act on.
    public var description: String {
        switch self {
        case .serverProviderReleased:
            return "The server provider was released before the request was sent; keep a strong reference to it."
        case .missingBaseURL:
            return "The server provider has no base URL: its baseURL was nil when the request was sent."
        case .invalidURL(let url):
            return "The URL \(url) is not valid: check the base URL and path."
        case .notConnected(let host, let reason):
            return "Could not reach \(host) (\(reason)): check the network connection."
        case .connectionRefused(let host, let port):
            return "\(host):\(port) refused the connection: is the server running on that port?"
        case .dnsFailure(let host):
            return "The host name \(host) could not be resolved: check its spelling and your DNS."
        case .timedOut(let url, let phase):
            return "The request to \(url.absoluteString) timed out (\(phase)): the server is too slow or unreachable."
        case .tlsFailure(let host, let reason):
            return "The secure connection to \(host) failed: \(reason.description(host: host, naming: \.description))."
        case .cancelled:
            return "The request was cancelled."
        case .tooManyRedirects(let url, let limit):
            return
                "\(url.absoluteString) redirected more than \(limit) times: stopped at the limit of \(limit) redirects."
        case .insecureRedirect(let from, let to, let hint):
            return "\(from.absoluteString) redirected to \(to.absoluteString), from https to plain http: not followed, "
                + "since the request would go in clear; \(hint)."
        case .bodyTooLarge(let url, let limit):
            return "The response from \(url.absoluteString) passed \(limit)."
        case .connectionClosed(let url):
            return "\(url.absoluteString) closed the connection before the response was complete."
        case .decompressionFailed(let url, let reason):
            return "The compressed body from \(url.absoluteString) could not be decompressed (\(reason))."
        case .malformedResponse(let url, let problem):
            return
                "The response from \(url.absoluteString) is not valid HTTP/1.1: \(problem); "
                + "the server, or a proxy in between, needs fixing."
        case .proxyAuthenticationRequired(let proxy, let source, let sentCredentials):
            return sentCredentials
                ? "The proxy \(proxy) (from \(source)) refused its user and password "
                    + "(407 Proxy Authentication Required): check them in \(source)."
                : "The proxy \(proxy) (from \(source)) asks for a user "
                    + "and password (407 Proxy Authentication Required): "
                    + "give them in \(source) (http://user:password@host:port)."
        case .proxyUnreachable(let proxy, let source, let reason):
            return "The proxy \(proxy) (from \(source)) could not be reached: \(reason). "
                + "Check that it runs and the address is right, or fix \(source)."
        case .proxyFailed(let proxy, let source, let target, let reason):
            return "The proxy \(proxy) (from \(source)) did not open a connection to \(target): \(reason)."
        case .invalidProxy(let sentence):
            return sentence
        case .other(let reason):
            return "The request failed: \(reason)."
        }
    }

    public var errorDescription: String? { description }
}
