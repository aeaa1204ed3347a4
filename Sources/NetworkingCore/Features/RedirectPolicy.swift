/// What a dispatcher lets through a redirect: credentials stay with their origin, and https
/// does not fall back to plain http unless allowed.
///
/// On a hop to another origin (scheme, host or port differ) every header `isCredentialHeader`
/// names is left out (by default `HTTPHeaders.isCredential(name:)`: `Authorization`, `Cookie`,
/// `X-Api-Key`, `X-Auth-Token`, `api-key` …), and every header the request marks as bound to
/// its origin (`Request.originBoundHeaders`), on top of what the transport leaves out; the
/// cookie jar then adds the cookies of the new origin. A hop from https to http is refused
/// with `TransportError.insecureRedirect` unless `allowsInsecureRedirects`.
public struct RedirectPolicy: Sendable {
    /// Whether redirects are followed at all: `false` answers with the first redirect itself,
    /// whatever the transport and the request's options say.
    public var followsRedirects: Bool
    /// Whether an https URL may redirect to plain http.
    public var allowsInsecureRedirects: Bool
    /// Whether a header carries a credential, by its name.
    public var isCredentialHeader: @Sendable (String) -> Bool
    /// How to allow an insecure redirect, in the words of the setting that does it (the end
    /// of `TransportError.insecureRedirect`'s sentence).
    public var insecureRedirectHint: String

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - allowsInsecureRedirects: whether https may redirect to http (default: no).
    ///   - isCredentialHeader: which headers stay with their origin.
    ///   - insecureRedirectHint: how to allow an insecure redirect.
    ///   - followsRedirects: whether redirects are followed at all (default: yes).
    public init(
        allowsInsecureRedirects: Bool = false,
        isCredentialHeader: @escaping @Sendable (String) -> Bool = { HTTPHeaders.isCredential(name: $0) },
        insecureRedirectHint: String = "set RedirectPolicy.allowsInsecureRedirects to follow it",
        followsRedirects: Bool = true
    ) {
        self.followsRedirects = followsRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.isCredentialHeader = isCredentialHeader
        self.insecureRedirectHint = insecureRedirectHint
    }
}
