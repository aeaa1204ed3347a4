import Crypto
import Foundation

// MARK: - Settings

/// How a client obtains OAuth 2.0 access tokens (RFC 6749): the token endpoint, the client's
/// credentials and the grant.
public struct OAuth2Configuration: Sendable, Hashable {
    /// How the token is obtained.
    public enum Grant: Sendable, Hashable {
        /// The client acts for itself (RFC 6749 §4.4).
        case clientCredentials
        /// The user's name and password go to the token endpoint (RFC 6749 §4.3).
        case password(username: String, password: String)
        /// The user signs in at `authorizationURL` in a browser; the code comes back to a
        /// one-shot listener on 127.0.0.1 (`redirectPort`, or any free port) and is exchanged
        /// with a PKCE verifier (RFC 7636, S256).
        case authorizationCode(authorizationURL: URL, redirectPort: Int?)
        /// The user enters a code on another device while the client polls (RFC 8628).
        case deviceCode(deviceAuthorizationURL: URL)
        /// A refresh token the user already has is exchanged (RFC 6749 §6).
        case refreshToken(String)

        /// The grant's name in the format (`client_credentials`, …).
        public var name: String {
            switch self {
            case .clientCredentials: return "client_credentials"
            case .password: return "password"
            case .authorizationCode: return "authorization_code"
            case .deviceCode: return "device_code"
            case .refreshToken: return "refresh_token"
            }
        }
    }

    /// How the client proves who it is to the token endpoint (RFC 6749 §2.3.1).
    public enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// `Authorization: Basic` with the form-encoded id and secret (the default).
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
    }

    /// The grant.
    public var grant: Grant
    /// The token endpoint.
    public var tokenURL: URL
    /// The client identifier.
    public var clientID: String
    /// The client secret; nil for a public client (which sends `client_id` in the body).
    public var clientSecret: String?
    /// The scopes asked for, space-separated.
    public var scope: String?
    /// An `audience` parameter, as Auth0 and others ask for.
    public var audience: String?
    /// How the client authenticates.
    public var clientAuthentication: ClientAuthentication

    /// Creates a configuration.
    public init(
        grant: Grant, tokenURL: URL, clientID: String, clientSecret: String? = nil, scope: String? = nil,
        audience: String? = nil, clientAuthentication: ClientAuthentication = .basic
    ) {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.audience = audience
        self.clientAuthentication = clientAuthentication
    }
}

/// An access token and what came with it.
public struct OAuth2Token: Sendable, Hashable, Codable {
    /// The access token.
    public var accessToken: String
    /// The token type (`Bearer`).
    public var tokenType: String
    /// When it expires; nil when the server did not say.
    public var expiresAt: Date?
    /// The refresh token, when the server gave one.
    public var refreshToken: String?
    /// The scopes granted, when the server said.
    public var scope: String?
    /// When it was obtained.
    public var obtainedAt: Date

    /// Creates a token.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil,
        scope: String? = nil, obtainedAt: Date = Date()
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
        self.obtainedAt = obtainedAt
    }

    /// Whether it is still good `margin` seconds from `date` (a token about to expire is
    /// renewed before it is sent rather than after the server refuses it).
    public func isFresh(at date: Date = Date(), margin: TimeInterval = 30) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(date) > margin
    }

    /// The `Authorization` header value: a `bearer` type is sent as `Bearer` (RFC 6750).
    public var authorization: String {
        (tokenType.lowercased() == "bearer" ? "Bearer" : tokenType) + " " + accessToken
    }
}

/// What the user has to do for an interactive grant: shown by the program that asked.
public enum OAuth2Prompt: Sendable, Hashable {
    /// Open this URL in a browser and sign in (authorization code).
    case openURL(URL)
    /// Go to `verificationURL` and enter `userCode` before `expiresAt` (device code);
    /// `completeURL` has the code in it already, when the server gives one.
    case enterCode(userCode: String, verificationURL: URL, completeURL: URL?, expiresAt: Date)
}

/// Why a token could not be obtained.
public struct OAuth2Error: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The token or device endpoint answered with an error (RFC 6749 §5.2).
        case server(status: Int, code: String, description: String?)
        /// The endpoint's answer is not a token.
        case invalidResponse(status: Int, excerpt: String)
        /// The authorization server sent the browser back with an error.
        case authorizationDenied(code: String, description: String?)
        /// The redirect came back with another `state` than the one sent.
        case stateMismatch
        /// Nobody completed the sign-in in time.
        case timedOut(seconds: Int)
        /// The redirect listener could not start.
        case listenerFailed(String)
    }

    /// The kind of failure.
    public var kind: Kind
    /// The endpoint concerned.
    public var url: URL?

    /// Creates an error.
    public init(_ kind: Kind, url: URL? = nil) {
        self.kind = kind
        self.url = url
    }

    /// A setting of the OAuth2 configuration that an error's hint names.
    ///
    /// Its `description` is the library's name for it (`OAuth2Configuration.clientAuthentication`);
    /// an application that reads its configuration from a file of its own words the hints with
    /// its keys through `description(naming:)`.
    public enum Setting: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `OAuth2Configuration.clientID`.
        case clientID
        /// `OAuth2Configuration.clientSecret`.
        case clientSecret
        /// `OAuth2Configuration.clientAuthentication` (basic or body).
        case clientAuthentication
        /// `OAuth2Configuration.scope`.
        case scope
        /// `OAuth2Configuration.grant`.
        case grant
        /// The `redirectPort` of `Grant.authorizationCode`.
        case redirectPort

        /// The library's name for it.
        public var description: String {
            self == .redirectPort ? "the authorization code grant's redirectPort" : "OAuth2Configuration.\(rawValue)"
        }
    }

    public var description: String { description(naming: \.description) }

    /// The sentence, with the settings its hint names called by `name` (an application's keys).
    public func description(naming name: (Setting) -> String) -> String {
        let at = url.map { " (\($0.absoluteString))" } ?? ""
        switch kind {
        case .server(let status, let code, let description):
            let hint: String
            switch code {
            case "invalid_client":
                hint = " Check \(name(.clientID)) and \(name(.clientSecret)) (and \(name(.clientAuthentication)))."
            case "invalid_grant": hint = " The credentials, code or refresh token were refused; sign in again."
            case "invalid_scope": hint = " Check \(name(.scope))."
            case "unauthorized_client", "unsupported_grant_type":
                hint = " This client may not use this grant; check \(name(.grant))."
            default: hint = ""
            }
            return
                "The OAuth2 token endpoint\(at) refused the request (HTTP \(status), "
                + "\(code)\(Self.detail(description))).\(hint)"
        case .invalidResponse(let status, let excerpt):
            return "The OAuth2 token endpoint\(at) answered HTTP \(status) without a token: \(excerpt)"
        case .authorizationDenied(let code, let description):
            return "The authorization server\(at) did not authorize (\(code)\(Self.detail(description)))."
        case .stateMismatch:
            return "The OAuth2 redirect came back with another state than the one sent; the sign-in was not completed."
        case .timedOut(let seconds):
            return "The OAuth2 sign-in\(at) was not completed within \(seconds) s; send again to retry."
        case .listenerFailed(let reason):
            return
                "The OAuth2 redirect listener on 127.0.0.1 could not start: \(reason). "
                + "Set \(name(.redirectPort)) to a free port."
        }
    }

    public var errorDescription: String? { description }

    /// `: description` without its closing period, or nothing.
    private static func detail(_ description: String?) -> String {
        guard let description, !description.isEmpty else { return "" }
        return ": " + (description.hasSuffix(".") ? String(description.dropLast()) : description)
    }
}

// MARK: - PKCE

/// A PKCE verifier and its S256 challenge (RFC 7636 §4.1–4.2).
public struct PKCE: Sendable, Hashable {
    /// The verifier: 43 characters of base64url from 32 random bytes.
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`.
    public var challenge: String { Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8)))) }

    /// Creates a random verifier.
    public init() { verifier = Self.randomToken() }

    /// Creates the pair for a given verifier.
    public init(verifier: String) { self.verifier = verifier }

    /// 32 random bytes as base64url, for a verifier or a `state`.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

// MARK: - Client

/// Talks to an authorization server: obtains tokens by a configuration's grant and refreshes
/// them. Every request goes through `transport`, so timeouts and TLS are the program's own.
public struct OAuth2Client: Sendable {
    /// The settings.
    public let configuration: OAuth2Configuration
    /// What sends the token requests.
    public let transport: any HTTPTransport
    /// How long an interactive grant waits for the user.
    public var interactionTimeout: Duration
    /// How long each token request may take.
    public var requestTimeout: Duration

    /// Creates a client.
    public init(
        configuration: OAuth2Configuration, transport: any HTTPTransport = AsyncHTTPClientTransport.shared,
        interactionTimeout: Duration = .seconds(300), requestTimeout: Duration = .seconds(30)
    ) {
        self.configuration = configuration
        self.transport = transport
        self.interactionTimeout = interactionTimeout
        self.requestTimeout = requestTimeout
    }

    /// Obtains a new token by the configured grant.
    ///
    /// - Parameter prompt: told what the user has to do, for the interactive grants.
    /// - Throws: `OAuth2Error`, or the transport's error.
    public func obtainToken(prompt: @escaping @Sendable (OAuth2Prompt) -> Void) async throws -> OAuth2Token {
        switch configuration.grant {
        case .clientCredentials:
            return try await tokenRequest([("grant_type", "client_credentials")] + scopeFields)
        case .password(let username, let password):
            return try await tokenRequest(
                [("grant_type", "password"), ("username", username), ("password", password)] + scopeFields)
        case .refreshToken(let token):
            return try await tokenRequest([("grant_type", "refresh_token"), ("refresh_token", token)] + scopeFields)
        case .authorizationCode(let authorizationURL, let port):
            return try await authorizationCode(at: authorizationURL, port: port, prompt: prompt)
        case .deviceCode(let deviceURL):
            return try await deviceCode(at: deviceURL, prompt: prompt)
        }
    }

    /// Exchanges a token's refresh token for a new token; the old refresh token is kept when
    /// the server does not rotate it.
    ///
    /// - Throws: `OAuth2Error`; nil refresh token: `OAuth2Error.server(invalid_grant)`.
    public func refresh(_ token: OAuth2Token) async throws -> OAuth2Token {
        guard let refreshToken = token.refreshToken else {
            throw OAuth2Error(
                .server(status: 0, code: "invalid_grant", description: "the token has no refresh token"),
                url: configuration.tokenURL)
        }
        var fresh = try await tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)] + scopeFields)
        if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
        return fresh
    }

    private var scopeFields: [(String, String)] {
        var fields: [(String, String)] = []
        if let scope = configuration.scope, !scope.isEmpty { fields.append(("scope", scope)) }
        if let audience = configuration.audience, !audience.isEmpty { fields.append(("audience", audience)) }
        return fields
    }

    // MARK: Authorization code with PKCE

    private func authorizationCode(
        at authorizationURL: URL, port: Int?, prompt: @escaping @Sendable (OAuth2Prompt) -> Void
    ) async throws -> OAuth2Token {
        let pkce = PKCE()
        let state = PKCE.randomToken()
        let listener = try await OAuth2RedirectListener.start(port: port ?? 0)
        defer { listener.close() }
        let redirectURI = listener.redirectURI
        var components = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: true) ?? URLComponents()
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: configuration.clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let scope = configuration.scope, !scope.isEmpty { items.append(URLQueryItem(name: "scope", value: scope)) }
        if let audience = configuration.audience, !audience.isEmpty {
            items.append(URLQueryItem(name: "audience", value: audience))
        }
        components.percentEncodedQuery = items.map {
            PercentEncoding.encode($0.name, allowed: PercentEncoding.unreserved, keepEscapes: false) + "="
                + PercentEncoding.encode($0.value ?? "", allowed: PercentEncoding.unreserved, keepEscapes: false)
        }.joined(separator: "&")
        guard let url = components.url else {
            throw OAuth2Error(.listenerFailed("the authorization URL is not valid"), url: authorizationURL)
        }
        prompt(.openURL(url))
        let callback = try await listener.callback(timeout: interactionTimeout)
        if let error = callback["error"] {
            throw OAuth2Error(
                .authorizationDenied(code: error, description: callback["error_description"]), url: authorizationURL)
        }
        guard callback["state"] == state else { throw OAuth2Error(.stateMismatch, url: authorizationURL) }
        guard let code = callback["code"] else {
            throw OAuth2Error(
                .authorizationDenied(code: "no_code", description: "the redirect carried no code"),
                url: authorizationURL)
        }
        return try await tokenRequest([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", pkce.verifier),
        ])
    }

    // MARK: Device code

    private func deviceCode(at deviceURL: URL, prompt: @escaping @Sendable (OAuth2Prompt) -> Void) async throws
        -> OAuth2Token
    {
        let (status, fields) = try await post(to: deviceURL, [("client_id", configuration.clientID)] + scopeFields)
        guard (200..<300).contains(status), let deviceCode = fields["device_code"]?.text,
            let userCode = fields["user_code"]?.text,
            let verification = (fields["verification_uri"] ?? fields["verification_url"])?.text.flatMap(
                URL.init(string:))
        else { throw Self.failure(status: status, fields: fields, url: deviceURL) }
        let lifetime = fields["expires_in"]?.number ?? 600
        var interval = max(1, fields["interval"]?.number ?? 5)
        let deadline = Date().addingTimeInterval(min(lifetime, Double(interactionTimeout.components.seconds)))
        prompt(
            .enterCode(
                userCode: userCode, verificationURL: verification,
                completeURL: fields["verification_uri_complete"]?.text.flatMap(URL.init(string:)), expiresAt: deadline))
        while true {
            try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            guard Date() < deadline else { throw OAuth2Error(.timedOut(seconds: Int(lifetime)), url: deviceURL) }
            let (status, answer) = try await post(
                to: configuration.tokenURL,
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode),
                ], authenticated: true)
            switch answer["error"]?.text {
            case "authorization_pending"?: continue
            case "slow_down"?: interval += 5
            case nil where (200..<300).contains(status):
                return try Self.token(status: status, fields: answer, url: configuration.tokenURL)
            default: throw Self.failure(status: status, fields: answer, url: configuration.tokenURL)
            }
        }
    }

    // MARK: Token endpoint

    private func tokenRequest(_ fields: [(String, String)]) async throws -> OAuth2Token {
        let (status, answer) = try await post(to: configuration.tokenURL, fields, authenticated: true)
        return try Self.token(status: status, fields: answer, url: configuration.tokenURL)
    }

    /// POSTs a form and reads the answer as JSON (or as a form, as GitHub answers without
    /// `Accept: application/json`).
    private func post(to url: URL, _ fields: [(String, String)], authenticated: Bool = false) async throws -> (
        Int, [String: JSONValue]
    ) {
        var fields = fields
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        if authenticated, let secret = configuration.clientSecret, configuration.clientAuthentication == .basic {
            let pair = PercentEncoding.formEncode(configuration.clientID) + ":" + PercentEncoding.formEncode(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        } else {
            fields.append(("client_id", configuration.clientID))
            if authenticated, let secret = configuration.clientSecret { fields.append(("client_secret", secret)) }
        }
        let body = PercentEncoding.form(fields.map { URLQueryItem(name: $0.0, value: $0.1) })
        var options = TransferOptions()
        options.timeout = requestTimeout
        let response = try await transport.send(
            PreparedRequest(method: .post, url: url, headers: headers, body: Data(body.utf8)),
            options: options
        ) { _ in }
        let data = response.body ?? Data()
        if let object = try? JSONValue(parsing: data), let members = object.objectValue {
            return (response.status.code, members)
        }
        let text = String(decoding: data, as: UTF8.self)
        var form: [String: JSONValue] = [:]
        if text.contains("=") {
            for field in PercentEncoding.formFields(text) { form[field.name] = .string(field.value) }
        }
        if form.isEmpty { form["__body"] = .string(String(text.prefix(200))) }
        return (response.status.code, form)
    }

    private static func token(status: Int, fields: [String: JSONValue], url: URL) throws -> OAuth2Token {
        guard (200..<300).contains(status), fields["error"] == nil, let access = fields["access_token"]?.text,
            !access.isEmpty
        else {
            throw failure(status: status, fields: fields, url: url)
        }
        let now = Date()
        return OAuth2Token(
            accessToken: access, tokenType: fields["token_type"]?.text ?? "Bearer",
            expiresAt: fields["expires_in"]?.number.map { now.addingTimeInterval($0) },
            refreshToken: fields["refresh_token"]?.text, scope: fields["scope"]?.text, obtainedAt: now)
    }

    private static func failure(status: Int, fields: [String: JSONValue], url: URL) -> OAuth2Error {
        if let code = fields["error"]?.text {
            return OAuth2Error(
                .server(status: status, code: code, description: fields["error_description"]?.text), url: url)
        }
        let excerpt =
            fields["__body"]?.text
            ?? JSONValue.object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).serialized()
        return OAuth2Error(.invalidResponse(status: status, excerpt: String(excerpt.prefix(200))), url: url)
    }
}

extension JSONValue {
    /// A string, or a number's text.
    fileprivate var text: String? {
        switch self {
        case .string(let text), .number(let text): return text
        default: return nil
        }
    }

    /// A number, or a string that holds one (`"expires_in": "3600"`).
    fileprivate var number: Double? { text.flatMap(Double.init) }
}
