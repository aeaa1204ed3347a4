import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NetworkingCore

/// `/oauth/*`: an OAuth 2.0 authorization server for the demo's client `explorer-demo` (secret
/// `demo-client-secret`), with every grant explorer speaks. Its access tokens are the demo's
/// tokens, so `/me` accepts them; they last `expires_in` seconds (60, or the token URL's
/// `?expires_in=N`, 1–3600, to watch them expire).
///
/// - `POST /oauth/token`: `client_credentials`, `password` (ada / lovelace), `refresh_token`
///   (rotated at each use), `authorization_code` (PKCE S256 checked) and the device code grant.
/// - `GET /oauth/authorize`: signs in as ada at once and redirects to a loopback
///   `redirect_uri` with the code and the `state`.
/// - `POST /oauth/device`, `GET /oauth/device/approve?user_code=…`: the device grant; opening
///   the approve URL is the user entering the code.
extension DemoAPI {
    /// The demo's OAuth2 client.
    static let oauthClient = (id: "explorer-demo", secret: "demo-client-secret")

    func oauthToken(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let form = try await formBody(request)
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        if let basic = request.headers[.authorization], basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = String(decoded[..<colon]).removingPercentEncoding
            secret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        }
        guard clientID == Self.oauthClient.id else {
            return oauthError(
                .unauthorized, "invalid_client",
                "The client is \(Self.oauthClient.id) (secret \(Self.oauthClient.secret)).")
        }
        let confidential = secret == Self.oauthClient.secret
        if secret != nil, !confidential {
            return oauthError(.unauthorized, "invalid_client", "The client secret is wrong.")
        }
        let lifetime =
            request.uri.queryParameters.get("expires_in").flatMap { Double($0) }.map { min(max($0, 1), 3600) }
            ?? DemoTokens.lifetime
        let oauth = store.oauth
        switch form["grant_type"] ?? "" {
        case "client_credentials":
            guard confidential else {
                return oauthError(.unauthorized, "invalid_client", "client_credentials needs the client secret.")
            }
        case "password":
            guard form["username"] == Self.demoUser.user, form["password"] == Self.demoUser.password else {
                return oauthError(
                    .badRequest, "invalid_grant",
                    "The user or the password is wrong; the demo account is ada / lovelace.")
            }
        case "refresh_token":
            guard await oauth.useRefreshToken(form["refresh_token"] ?? "") else {
                return oauthError(.badRequest, "invalid_grant", "The refresh token is unknown or was used already.")
            }
        case "authorization_code":
            switch await oauth.redeem(
                code: form["code"] ?? "", redirectURI: form["redirect_uri"] ?? "", verifier: form["code_verifier"] ?? ""
            ) {
            case .success: break
            case .failure(let reason): return oauthError(.badRequest, "invalid_grant", reason.description)
            }
        case "urn:ietf:params:oauth:grant-type:device_code":
            switch await oauth.deviceState(form["device_code"] ?? "") {
            case .approved: break
            case .pending:
                return oauthError(.badRequest, "authorization_pending", "Open the verification URL and enter the code.")
            case .expired: return oauthError(.badRequest, "expired_token", "The device code expired; start again.")
            case .unknown: return oauthError(.badRequest, "invalid_grant", "The device code is unknown.")
            }
        case let other:
            return oauthError(
                .badRequest, "unsupported_grant_type", "The grant \"\(other)\" is not one the demo serves.")
        }
        let issued = await store.tokens.issue(lifetime: lifetime)
        let refresh = await oauth.issueRefreshToken()
        var object: [String: Any] = [
            "access_token": issued.token, "token_type": "Bearer", "expires_in": Int(lifetime), "refresh_token": refresh,
        ]
        if let scope = form["scope"] { object["scope"] = scope }
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return DemoReply.jsonObject(object, headers: headers)
    }

    func oauthAuthorize(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        let query = request.uri.queryParameters
        guard let redirect = query.get("redirect_uri"), let target = URLComponents(string: redirect),
            target.scheme == "http", ["127.0.0.1", "localhost", "[::1]"].contains(target.host ?? "")
        else {
            return oauthError(.badRequest, "invalid_request", "redirect_uri must be a loopback http URL (RFC 8252).")
        }
        var items: [URLQueryItem]
        if query.get("client_id") != Self.oauthClient.id {
            items = [URLQueryItem(name: "error", value: "unauthorized_client")]
        } else if query.get("response_type") != "code" {
            items = [URLQueryItem(name: "error", value: "unsupported_response_type")]
        } else if let challenge = query.get("code_challenge"), query.get("code_challenge_method") == "S256" {
            items = [
                URLQueryItem(
                    name: "code", value: await store.oauth.issueCode(challenge: challenge, redirectURI: redirect))
            ]
        } else {
            items = [
                URLQueryItem(name: "error", value: "invalid_request"),
                URLQueryItem(name: "error_description", value: "PKCE (code_challenge with S256) is required"),
            ]
        }
        if let state = query.get("state") { items.append(URLQueryItem(name: "state", value: state)) }
        var location = target
        location.queryItems = (target.queryItems ?? []) + items
        var headers = HTTPFields()
        headers[.location] = location.string ?? redirect
        return DemoReply.bytes(
            Data("Signed in as ada; back to the app.\n".utf8), contentType: "text/plain; charset=utf-8", status: .found,
            headers: headers)
    }

    func oauthDevice(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let form = try await formBody(request)
        guard form["client_id"] == Self.oauthClient.id else {
            return oauthError(.unauthorized, "invalid_client", "The client is \(Self.oauthClient.id).")
        }
        let (device, user) = await store.oauth.startDevice()
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let path = request.uri.path.replacingOccurrences(of: "/oauth/device", with: "/oauth/device/approve")
        return DemoReply.jsonObject([
            "device_code": device, "user_code": user, "verification_uri": base + path,
            "verification_uri_complete": base + path + "?user_code=" + user,
            "expires_in": Int(DemoOAuth.deviceLifetime), "interval": 1,
        ])
    }

    func oauthApprove(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        let code = request.uri.queryParameters.get("user_code") ?? ""
        guard await store.oauth.approve(userCode: code) else {
            return DemoReply.text("The code \(code) is unknown or expired.\n", status: .notFound)
        }
        return DemoReply.text("The device with code \(code) is signed in as ada; go back to it.\n")
    }

    private func oauthError(_ status: HTTPResponse.Status, _ code: String, _ description: String)
        -> Hummingbird.Response
    {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Basic realm=\"explorer-demo oauth\"" }
        return DemoReply.jsonObject(
            ["error": code, "error_description": description], status: status, headers: headers)
    }

    /// An `application/x-www-form-urlencoded` body as its fields (the first of a repeated name).
    func formBody(_ request: Hummingbird.Request) async throws -> [String: String] {
        var request = request
        let buffer = try await request.collectBody(upTo: 64 * 1024)
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            // Not omitting empty parts: a pair that is only "=" has an empty name (it crashed the demo).
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if fields[parts[0]] == nil { fields[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }
}

/// The demo authorization server's codes, device codes and refresh tokens: each bounded and
/// short-lived.
actor DemoOAuth {
    /// How long an authorization code can be redeemed.
    static let codeLifetime: TimeInterval = 120
    /// How long a device code waits for its user.
    static let deviceLifetime: TimeInterval = 300
    /// How many of each kind are kept (the oldest go first).
    static let capacity = 1_000

    enum DeviceState { case pending, approved, expired, unknown }

    struct Refusal: Error, CustomStringConvertible { let description: String }

    private var codes: [String: (challenge: String, redirectURI: String, expires: Date)] = [:]
    private var devices: [String: (userCode: String, approved: Bool, expires: Date)] = [:]
    private var refreshTokens: Set<String> = []
    private var order: [String] = []

    func issueCode(challenge: String, redirectURI: String) -> String {
        let code = "code-" + Self.random()
        codes[code] = (challenge, redirectURI, Date().addingTimeInterval(Self.codeLifetime))
        remember(code)
        return code
    }

    func redeem(code: String, redirectURI: String, verifier: String) -> Result<Void, Refusal> {
        guard let entry = codes.removeValue(forKey: code), entry.expires > Date() else {
            return .failure(Refusal(description: "The authorization code is unknown, expired or used already."))
        }
        guard entry.redirectURI == redirectURI else {
            return .failure(Refusal(description: "redirect_uri differs from the authorization request's."))
        }
        guard PKCE(verifier: verifier).challenge == entry.challenge else {
            return .failure(Refusal(description: "The code_verifier does not match the code_challenge (PKCE S256)."))
        }
        return .success(())
    }

    func startDevice() -> (device: String, user: String) {
        let device = "device-" + Self.random()
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let user =
            String((0..<4).map { _ in letters.randomElement()! }) + "-"
            + String((0..<4).map { _ in letters.randomElement()! })
        devices[device] = (user, false, Date().addingTimeInterval(Self.deviceLifetime))
        remember(device)
        return (device, user)
    }

    func approve(userCode: String) -> Bool {
        guard let (device, entry) = devices.first(where: { $0.value.userCode == userCode }), entry.expires > Date()
        else { return false }
        devices[device]?.approved = true
        return true
    }

    func deviceState(_ device: String) -> DeviceState {
        guard let entry = devices[device] else { return .unknown }
        guard entry.expires > Date() else { return .expired }
        guard entry.approved else { return .pending }
        devices[device] = nil
        return .approved
    }

    func issueRefreshToken() -> String {
        let token = "refresh-" + Self.random()
        refreshTokens.insert(token)
        remember(token)
        return token
    }

    /// Whether the refresh token was valid; it is used up either way (rotation).
    func useRefreshToken(_ token: String) -> Bool {
        refreshTokens.remove(token) != nil
    }

    private func remember(_ key: String) {
        order.append(key)
        guard order.count > Self.capacity * 3 else { return }
        for old in order.prefix(Self.capacity) {
            codes[old] = nil
            devices[old] = nil
            refreshTokens.remove(old)
        }
        order.removeFirst(Self.capacity)
    }

    private static func random() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
