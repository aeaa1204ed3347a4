import Foundation

/// Where OAuth2 tokens are kept between requests (and, for a program that persists them,
/// between runs), under a key that names the client, the grant and the environment.
public protocol OAuth2TokenCache: Sendable {
    /// The token kept under `key`.
    func token(for key: String) -> OAuth2Token?
    /// Keeps `token` under `key`.
    func store(_ token: OAuth2Token, for key: String)
    /// Forgets the token kept under `key`.
    func removeToken(for key: String)
}

/// Tokens kept in memory for the life of the process.
public final class InMemoryOAuth2TokenCache: OAuth2TokenCache {
    private let tokens = Locked<[String: OAuth2Token]>([:])

    /// Creates an empty cache.
    public init() {}

    public func token(for key: String) -> OAuth2Token? { tokens.withLock { $0[key] } }
    public func store(_ token: OAuth2Token, for key: String) { tokens.withLock { $0[key] = token } }
    public func removeToken(for key: String) { _ = tokens.withLock { $0.removeValue(forKey: key) } }
}

/// Sends every request with an OAuth2 access token: a dispatcher's request adapter and its
/// challenge handler.
///
/// As a `RequestAdapter` it adds `Authorization: Bearer …` with the cached token, obtaining one
/// first when there is none, and renewing it (by its refresh token when it has one, else by the
/// grant) when it expires within 30 s. As the `AuthenticationChallengeHandler` it answers a 401
/// to a token it sent by renewing the token and sending the request again, once: a 401 to a
/// token obtained that way is the answer. This works for streamed requests too. Concurrent
/// requests share one renewal.
///
/// ```swift
/// let oauth = OAuth2Authenticator(client: OAuth2Client(configuration: settings), cacheKey: "api")
/// let dispatcher = NetworkDispatcher(serverProvider: self, requestAdapters: [oauth], challengeHandler: oauth)
/// ```
public final class OAuth2Authenticator: RequestAdapter, AuthenticationChallengeHandler {
    /// What talks to the authorization server.
    public let client: OAuth2Client
    /// Where tokens are kept.
    public let cache: any OAuth2TokenCache
    /// The key the token is kept under.
    public let cacheKey: String
    private let prompt: @Sendable (OAuth2Prompt) -> Void
    private let gate = RenewalGate()
    /// The access token last obtained because the server refused the one before.
    private let renewedAfterRefusal = Locked<String?>(nil)

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - client: what obtains and refreshes tokens.
    ///   - cache: where tokens are kept (in memory by default).
    ///   - cacheKey: the key of this client's token in `cache`.
    ///   - prompt: told what the user has to do for an interactive grant.
    public init(
        client: OAuth2Client, cache: any OAuth2TokenCache = InMemoryOAuth2TokenCache(), cacheKey: String,
        prompt: @escaping @Sendable (OAuth2Prompt) -> Void = { _ in }
    ) {
        self.client = client
        self.cache = cache
        self.cacheKey = cacheKey
        self.prompt = prompt
    }

    /// A token good to send now: the cached one, or a renewed one.
    ///
    /// - Throws: `OAuth2Error` or the transport's error.
    public func validToken() async throws -> OAuth2Token {
        if let token = cache.token(for: cacheKey), token.isFresh() { return token }
        return try await renew(refused: nil)
    }

    public func adapt(_ request: PreparedRequest) async throws -> PreparedRequest {
        var request = request
        request.headers.replaceOrAdd(name: "Authorization", value: try await validToken().authorization)
        return request
    }

    public func answer(_ challenge: ResponseHead, to request: PreparedRequest) async throws -> PreparedRequest? {
        guard challenge.status.code == 401, let sent = request.headers["Authorization"],
            let refused = sent.split(separator: " ", maxSplits: 1).last.map(String.init)
        else { return nil }
        guard renewedAfterRefusal.withLock({ $0 }) != refused else { return nil }
        let fresh = try await renew(refused: refused)
        renewedAfterRefusal.withLock { $0 = fresh.accessToken }
        var retried = request
        retried.headers.replaceOrAdd(name: "Authorization", value: fresh.authorization)
        return retried
    }

    /// Renews the token once for all the requests waiting: by its refresh token when it has one
    /// (falling back to the grant when that is refused), else by the grant. When `refused` is
    /// given and the cache already holds another token, that one is used.
    private func renew(refused: String?) async throws -> OAuth2Token {
        try await gate.run { [client, cache, cacheKey, prompt] in
            let cached = cache.token(for: cacheKey)
            if let cached, cached.isFresh(), refused == nil || cached.accessToken != refused { return cached }
            var fresh: OAuth2Token?
            if let cached, cached.refreshToken != nil {
                fresh = try? await client.refresh(cached)
            }
            let token: OAuth2Token
            if let fresh { token = fresh } else { token = try await client.obtainToken(prompt: prompt) }
            cache.store(token, for: cacheKey)
            return token
        }
    }
}

/// Runs one renewal at a time; callers that arrive while one runs wait for it and then look at
/// the cache again (their `body` finds the fresh token there).
private actor RenewalGate {
    private var running: Task<OAuth2Token, any Error>?

    func run(_ body: @escaping @Sendable () async throws -> OAuth2Token) async throws -> OAuth2Token {
        while let running {
            _ = try? await running.value
            if self.running == running { self.running = nil }
        }
        let task = Task { try await body() }
        running = task
        defer { if running == task { running = nil } }
        return try await task.value
    }
}
