import Foundation

extension NetworkDispatcher {
    /// The transfer options of one send: the given ones, with the dispatcher's redirect handler
    /// in front of any the caller set; a policy that does not follow redirects turns them off.
    ///
    /// - Parameters:
    ///   - options: the options of the request.
    ///   - ownCookie: whether the request carries a `Cookie` of its own (not the jar's).
    func transferOptions(_ options: TransferOptions, ownCookie: Bool) -> TransferOptions {
        var options = options
        if options.redirectHandler == nil {
            // Made once, in `init`: each made here would be boxed, an allocation a request.
            options.redirectHandler = ownCookie ? redirects.ownCookie : redirects.jarCookies
        } else {
            options.redirectHandler = DispatcherRedirects(
                cookieJar: cookieJar, ownCookie: ownCookie, policy: redirectPolicy, then: options.redirectHandler)
        }
        if !redirectPolicy.followsRedirects { options.followsRedirects = false }
        return options
    }
}

/// What a dispatcher does at each redirect hop: its `RedirectPolicy` refuses https → http
/// and leaves credential headers behind on another origin, with the headers the request
/// marks as bound to its origin (`Request.originBoundHeaders`); the hop's `Set-Cookie` is kept in
/// the jar before the next request is made, and the next request carries the jar's cookies
/// for its own URL (RFC 6265 §5.3, §5.4), as browsers and curl `-L -b -c` do: a login
/// answered `302` with a session cookie reaches the page it redirects to signed in.
struct DispatcherRedirects: RedirectHandler {
    /// The dispatcher's jar, if any.
    let cookieJar: CookieJar?
    /// Whether the request carried a `Cookie` of its own: the jar's are then not added, on the
    /// first hop as on the next (another origin never gets it: the transport drops it).
    let ownCookie: Bool
    /// What the redirect may carry.
    let policy: RedirectPolicy
    /// The handler the caller's options had, asked after this one.
    let then: (any RedirectHandler)?

    func request(following redirect: ResponseHead, to request: PreparedRequest, next: PreparedRequest) async throws
        -> PreparedRequest
    {
        var next = next
        if request.url.scheme?.lowercased() == "https", next.url.scheme?.lowercased() == "http",
            !policy.allowsInsecureRedirects
        {
            throw TransportError.insecureRedirect(from: request.url, to: next.url, hint: policy.insecureRedirectHint)
        }
        if !AsyncHTTPClientTransport.sameOrigin(request.url, next.url) {
            let bound = Set(request.originBoundHeaders.map { $0.lowercased() })
            for name in Set(next.headers.map(\.name))
            where policy.isCredentialHeader(name) || bound.contains(name.lowercased()) {
                next.headers.remove(name: name)
            }
        }
        if let cookieJar {
            cookieJar.store(setCookie: redirect.headers.values(for: "Set-Cookie"), from: request.url)
            if !ownCookie {
                next.headers.remove(name: "Cookie")
                if let cookies = cookieJar.cookieHeader(for: next.url) {
                    next.headers.add(name: "Cookie", value: cookies)
                }
            }
        }
        guard let then else { return next }
        return try await then.request(following: redirect, to: request, next: next)
    }
}
