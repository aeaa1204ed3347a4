import Foundation
import HTTPTypes
import Hummingbird

/// `/cookies` and `/cookies/set?name=value…`, as httpbin has them: the cookies the request
/// carried, and a `Set-Cookie` (path `/`, an hour, `HttpOnly`, `SameSite=Lax`) for each query
/// item.
extension DemoAPI {
    func cookies(_ request: Hummingbird.Request) -> Hummingbird.Response {
        DemoReply.jsonObject(["cookies": Self.receivedCookies(request)])
    }

    func setCookies(_ request: Hummingbird.Request) -> Hummingbird.Response {
        var headers = HTTPFields()
        var set: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            headers.append(
                HTTPField(name: .setCookie, value: "\(name)=\(value); Path=/; Max-Age=3600; HttpOnly; SameSite=Lax"))
            set[String(name)] = String(value)
        }
        return DemoReply.jsonObject(["set": set, "cookies": Self.receivedCookies(request)], headers: headers)
    }

    /// The name of the session cookie `POST /session/login` sets.
    static let sessionCookie = "demo_session"

    /// `POST /session/login`, a login form as most sites answer it: with the demo account
    /// (`user=ada&password=lovelace`), `303 See Other` to `/session/home` with the session in a
    /// `Set-Cookie` (`HttpOnly`, `SameSite=Lax`, as long as a token of `/login`); else `401`.
    func sessionLogin(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await formBody(request)
        guard fields["user"] == Self.demoUser.user, fields["password"] == Self.demoUser.password else {
            return DemoReply.problem(
                .unauthorized, type: "bad-credentials", title: "Unauthorized",
                detail:
                    "The user or the password is wrong; "
                    + "the demo account is \(Self.demoUser.user) / \(Self.demoUser.password).",
                instance: request.uri.path)
        }
        let issued = await store.tokens.issue()
        var headers = HTTPFields()
        headers.append(
            HTTPField(
                name: .setCookie,
                value:
                    "\(Self.sessionCookie)=\(issued.token); Path=/; "
                    + "Max-Age=\(Int(DemoTokens.lifetime)); HttpOnly; SameSite=Lax"
            ))
        // Beside the login, wherever the demo is mounted (/v1/session/home).
        headers[.location] = String(request.uri.path.dropLast("login".count)) + "home"
        return Hummingbird.Response(status: .seeOther, headers: headers)
    }

    /// `GET /session/home`: the signed-in page, for the session cookie of `POST
    /// /session/login` that has not expired; else `401` saying how to sign in.
    func sessionHome(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        let session = Self.receivedCookies(request)[Self.sessionCookie]
        let state = await store.tokens.state(of: session ?? "")
        guard state == .valid else {
            let detail =
                session == nil
                ? "No session cookie: POST /session/login (user=ada&password=lovelace) first; "
                    + "it answers 303 here with the cookie."
                : "The session expired (it lasts \(Int(DemoTokens.lifetime)) s); "
                    + "sign in again with POST /session/login."
            return DemoReply.problem(
                .unauthorized, type: "not-signed-in", title: "Unauthorized", detail: detail, instance: request.uri.path)
        }
        return DemoReply.jsonObject([
            "signedIn": true, "user": Self.demoUser.user, "via": "cookie \(Self.sessionCookie)",
        ])
    }

    /// The cookies a request carries, by name.
    static func receivedCookies(_ request: Hummingbird.Request) -> [String: String] {
        var received: [String: String] = [:]
        for pair in (request.headers[.cookie] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { received[parts[0]] = parts[1] }
        }
        return received
    }
}
