import Crypto
import Foundation
import NIOCore

@testable import NetworkingCore

/// A small OAuth2 authorization server under `/oauth/`, enough for the interactive grants:
///
/// - `GET /oauth/authorize?…` (the page a browser opens): redirects to the `redirect_uri` with a
///   code that carries the PKCE challenge, and the `state` given (`deny=1`: with
///   `error=access_denied`; `forge=1`: with another state).
/// - `POST /oauth/device`: a device code (`ABCD-EFGH`, polled every second); `deny=1` in the
///   client's scope makes the user refuse it.
/// - `POST /oauth/token`: the authorization code, checked against its `code_verifier` (S256)
///   and `redirect_uri`, or the device code, pending on the first poll.
extension TestServer {
    static func form(_ body: ByteBuffer) -> [String: String] {
        Dictionary(
            PercentEncoding.formFields(String(decoding: body.readableBytesView, as: UTF8.self)).map {
                ($0.name, $0.value)
            },
            uniquingKeysWith: { first, _ in first })
    }

    /// The status and JSON body of an OAuth2 route (for 302, the `Location`).
    static func oauth2Answer(
        path: String, query: [String: String], form: [String: String], baseURL: String, state: Counter
    ) -> (Int, String) {
        func json(_ object: [String: Any]) -> String {
            String(
                decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(),
                as: UTF8.self)
        }
        switch path {
        case "authorize":
            guard let redirect = query["redirect_uri"], let challenge = query["code_challenge"],
                query["code_challenge_method"] == "S256"
            else {
                return (400, json(["error": "invalid_request"]))
            }
            let returned = query["forge"] == "1" ? "forged" : query["state"] ?? ""
            let answer =
                query["deny"] == "1"
                ? "error=access_denied&error_description=the+user+said+no" : "code=code.\(challenge)"
            return (302, "\(redirect)?\(answer)&state=\(returned)")
        case "device":
            state.add("device-polls", 0)
            let code = form["scope"] == "deny" ? "device-denied" : "device-1"
            return (
                200,
                json([
                    "device_code": code, "user_code": "ABCD-EFGH", "verification_uri": "\(baseURL)/oauth/verify",
                    "expires_in": 60, "interval": 1,
                ])
            )
        case "token":
            switch form["grant_type"] {
            case "authorization_code":
                let challenge = form["code"].flatMap { $0.hasPrefix("code.") ? String($0.dropFirst(5)) : nil }
                let verified = form["code_verifier"].map { base64URL(Data(SHA256.hash(data: Data($0.utf8)))) }
                guard let challenge, challenge == verified, form["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true
                else {
                    return (
                        400, json(["error": "invalid_grant", "error_description": "the code or its verifier is wrong"])
                    )
                }
                return (
                    200,
                    json([
                        "access_token": "code-token", "token_type": "Bearer", "expires_in": 3600,
                        "refresh_token": "refresh-1",
                    ])
                )
            case "urn:ietf:params:oauth:grant-type:device_code":
                if form["device_code"] == "device-denied" { return (400, json(["error": "access_denied"])) }
                state.add("device-polls", 1)
                if state.value("device-polls") < 2 { return (400, json(["error": "authorization_pending"])) }
                return (200, json(["access_token": "device-token", "token_type": "Bearer", "expires_in": 3600]))
            default:
                return (400, json(["error": "unsupported_grant_type"]))
            }
        default:
            return (404, json(["error": "not_found"]))
        }
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
