import Foundation
import NetworkingCore

extension ResolvedRequest {
    /// The dispatcher that sends this request with its credentials: a digest auth answers the
    /// server's challenge; an OAuth2 auth adds its token (taken from the environment's cache,
    /// or obtained first) and renews it once on a 401; AWS SigV4 and OAuth 1.0a sign it last.
    ///
    /// OAuth2 tokens are kept per collection and environment in `tokens` (the state folder's by
    /// default), so a token obtained by one `explorer send` serves the next until it expires.
    ///
    /// - Parameters:
    ///   - transport: what sends the request (and the token requests).
    ///   - callbackQueue: where the future's callbacks run.
    ///   - cookieJar: the environment's cookies, unless they are off.
    ///   - tokens: where OAuth2 tokens are kept.
    ///   - prompt: told what the user has to do for an interactive OAuth2 grant.
    package func dispatcher(
        transport: any HTTPTransport, callbackQueue: DispatchQueue = .main, cookieJar: CookieJar? = nil,
        tokens: (any OAuth2TokenCache)? = nil, prompt: @escaping @Sendable (OAuth2Prompt) -> Void
    ) -> NetworkDispatcher {
        var adapters: [any RequestAdapter] = []
        var challengeHandler: (any AuthenticationChallengeHandler)? = digest.map {
            DigestAuthenticator(username: $0.username, password: $0.password)
        }
        if let oauth2 {
            let authenticator = OAuth2Authenticator(
                client: OAuth2Client(configuration: oauth2, transport: transport),
                cache: tokens ?? OAuth2TokenStore(collection: collectionKey, environment: environment.name),
                cacheKey: oauth2.cacheKey(sendingTo: URL(string: url) ?? baseURL), prompt: prompt)
            adapters.append(authenticator)
            challengeHandler = authenticator
        }
        // Signed last, once: a redirect keeps its Authorization only on the same origin.
        if let signing { adapters.append(signing.adapter) }
        // On a redirect to another origin, every header the masker hides stays behind (its
        // own names and the environment's), so no `auth:` or credential header follows it.
        let masker = masker
        let redirects = RedirectPolicy(
            allowsInsecureRedirects: environment.allowsInsecureRedirects,
            isCredentialHeader: { masker.isSensitive(header: $0) },
            insecureRedirectHint:
                "set allow_insecure_redirects: true on the environment or the collection to follow it",
            followsRedirects: followsRedirects)
        return NetworkDispatcher(
            serverProvider: environment, transport: transport, callbackQueue: callbackQueue,
            requestAdapters: adapters, challengeHandler: challengeHandler, cookieJar: cookieJar,
            redirectPolicy: redirects)
    }
}

/// Opens a URL in the user's browser: `$BROWSER` when it is set, else `xdg-open` when there is
/// a display. Nothing the browser prints reaches the terminal.
package enum Browser {
    /// Opens `url`, when it is an `http` or `https` URL: a server names the URL (an OAuth2
    /// device flow's `verification_uri_complete`), and another scheme would hand it to
    /// whatever program the desktop registered for that scheme.
    ///
    /// - Returns: whether a browser was started (false: the user opens the URL by hand).
    @discardableResult
    package static func open(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return false }
        let command: [String]
        if let browser = environment["BROWSER"], !browser.isEmpty {
            command = [browser]
        } else if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil {
            command = ["xdg-open"]
        } else {
            return false
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command + [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        return true
    }
}

extension OAuth2Prompt {
    /// What the user has to do, in one sentence (the CLI prints it, the TUI shows it).
    ///
    /// - Parameter opened: whether the URL was opened in a browser already.
    package func instructions(opened: Bool) -> String {
        switch self {
        case .openURL(let url):
            return opened
                ? "OAuth2: sign in in the browser that opened (or open \(url.absoluteString))."
                : "OAuth2: open \(url.absoluteString) in a browser and sign in."
        case .enterCode(let code, let verification, let complete, let expiresAt):
            let until = expiresAt.formatted(date: .omitted, time: .shortened)
            return
                "OAuth2: open \((complete ?? verification).absoluteString) "
                + "and enter the code \(code) (before \(until))."
        }
    }

    /// The URL to open in a browser.
    package var url: URL {
        switch self {
        case .openURL(let url): return url
        case .enterCode(_, let verification, let complete, _): return complete ?? verification
        }
    }
}
