import Foundation
import HTTPTypes
import Hummingbird
import NetworkingCore

/// `/digest/:algorithm`: HTTP Digest (RFC 7616, `qop=auth`) for the user `ada` with the
/// password `demo-digest-pass`, as httpbin's `/digest-auth` offers it: a request without
/// credentials gets a `401` challenge; an answer whose hash is right gets who it is.
extension DemoAPI {
    /// The digest route's user.
    static let digestUser = "ada"
    /// The digest route's password.
    static let digestPassword = "demo-digest-pass"
    /// The realm of its challenges.
    static let digestRealm = "explorer demo"
    /// The nonce of this process's challenges.
    static let digestNonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    /// The opaque value the answer must carry back.
    static let digestOpaque = "explorer-demo-opaque"

    func digest(_ request: Hummingbird.Request, _ context: BasicRequestContext) -> Hummingbird.Response {
        let algorithmName = context.parameters.get("algorithm") ?? "MD5"
        guard
            let algorithm = DigestChallenge.Algorithm.allCases.first(where: {
                $0.rawValue.lowercased() == algorithmName.lowercased()
            })
        else {
            return notFound(
                request.uri.path,
                what: "digest algorithm \(algorithmName) (MD5, SHA-256, MD5-sess, SHA-256-sess are served)")
        }
        let challenge = DigestChallenge(
            realm: Self.digestRealm, nonce: Self.digestNonce, opaque: Self.digestOpaque, algorithm: algorithm.rawValue)
        func refuse(_ detail: String) -> Hummingbird.Response {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] =
                "Digest realm=\"\(Self.digestRealm)\", qop=\"auth\", algorithm=\(algorithm.rawValue), "
                + "nonce=\"\(Self.digestNonce)\", opaque=\"\(Self.digestOpaque)\""
            return DemoReply.problem(
                .unauthorized, type: "unauthorized", title: "Unauthorized", detail: detail, instance: request.uri.path,
                headers: headers)
        }
        guard let authorization = request.headers[.authorization],
            let answer = AuthenticationHeader.challenges(in: authorization).first,
            answer.scheme.lowercased() == "digest"
        else {
            return refuse(
                "This endpoint needs HTTP Digest credentials: user '\(Self.digestUser)', "
                    + "password '\(Self.digestPassword)'."
            )
        }
        let given = answer.parameters
        guard given["username"] == Self.digestUser, given["realm"] == Self.digestRealm,
            given["nonce"] == Self.digestNonce,
            given["opaque"] == Self.digestOpaque, given["qop"] == "auth", given["uri"] == request.head.path,
            given["algorithm"]?.lowercased() == algorithm.rawValue.lowercased(),
            let nc = given["nc"], let count = Int(nc, radix: 16), let cnonce = given["cnonce"],
            let response = given["response"]
        else {
            return refuse(
                "The Digest answer does not match the challenge (user, realm, "
                    + "nonce, opaque, qop, uri, algorithm, nc and cnonce are checked)."
            )
        }
        let expected = DigestAuthenticator(username: Self.digestUser, password: Self.digestPassword)
            .authorization(
                for: challenge, method: request.method.rawValue, uri: given["uri"] ?? "", nonceCount: count,
                clientNonce: cnonce)
        guard AuthenticationHeader.challenges(in: expected).first?.parameters["response"] == response else {
            return refuse("The Digest response hash is wrong: check the password.")
        }
        return DemoReply.jsonObject([
            "authenticated": true, "user": Self.digestUser, "algorithm": algorithm.rawValue, "nc": nc,
        ])
    }
}
