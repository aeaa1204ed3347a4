import Foundation
import NetworkingCore

/// An `auth: { type: oauth2, … }` as written: every value a template, expanded when a request
/// is resolved (`OAuth2Settings.resolved(by:)`).
package struct OAuth2Settings: Sendable, Codable, Hashable {
    /// The grants of the format, in the order the documentation lists them.
    package static let grantNames = [
        "client_credentials", "authorization_code", "password", "device_code", "refresh_token",
    ]

    /// The format's keys besides `type`, in the order the writer writes them.
    package static let keys = [
        "grant", "token_url", "client_id", "client_secret", "client_auth", "scope", "audience", "authorization_url",
        "redirect_port", "device_authorization_url", "username", "password", "refresh_token",
    ]

    /// The keys each grant needs besides `grant`, `token_url` and `client_id`.
    package static let requiredKeys: [String: [String]] = [
        "client_credentials": ["client_secret"], "authorization_code": ["authorization_url"],
        "password": ["username", "password"],
        "device_code": ["device_authorization_url"], "refresh_token": ["refresh_token"],
    ]

    /// The values of the keys that are not secrets are shown; these are masked.
    package static let secretKeys: Set<String> = ["client_secret", "password", "refresh_token"]

    /// Each key's template, by its name in the format (`token_url`, …); `grant` is one of
    /// `grantNames` and `client_auth` is `basic` or `body`.
    package var values: [String: String]

    /// Creates settings from the format's keys.
    package init(_ values: [String: String]) { self.values = values }

    /// The grant's name.
    package var grant: String { values["grant"] ?? "client_credentials" }

    /// The settings with their templates expanded by `expand`, as `Networking` takes them.
    ///
    /// - Throws: what `expand` throws, or `Failure` naming a URL or port that is not valid.
    package func resolved(by expand: (String) throws -> String) throws -> (
        configuration: OAuth2Configuration, secrets: [String]
    ) {
        var expanded: [String: String] = [:]
        for (key, template) in values { expanded[key] = try expand(template) }
        func url(_ key: String) throws -> URL {
            guard let text = expanded[key], let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host != nil
            else { throw Failure(description: "the oauth2 \(key) \"\(expanded[key] ?? "")\" is not an http(s) URL") }
            return url
        }
        let grant: OAuth2Configuration.Grant
        switch self.grant {
        case "password": grant = .password(username: expanded["username"] ?? "", password: expanded["password"] ?? "")
        case "authorization_code":
            var port: Int?
            if let text = expanded["redirect_port"], !text.isEmpty {
                guard let value = Int(text), (1...65535).contains(value) else {
                    throw Failure(description: "the oauth2 redirect_port \"\(text)\" is not a port (1–65535)")
                }
                port = value
            }
            grant = .authorizationCode(authorizationURL: try url("authorization_url"), redirectPort: port)
        case "device_code": grant = .deviceCode(deviceAuthorizationURL: try url("device_authorization_url"))
        case "refresh_token": grant = .refreshToken(expanded["refresh_token"] ?? "")
        default: grant = .clientCredentials
        }
        let configuration = OAuth2Configuration(
            grant: grant, tokenURL: try url("token_url"), clientID: expanded["client_id"] ?? "",
            clientSecret: expanded["client_secret"].flatMap { $0.isEmpty ? nil : $0 },
            scope: expanded["scope"], audience: expanded["audience"],
            clientAuthentication: expanded["client_auth"].flatMap(
                OAuth2Configuration.ClientAuthentication.init(rawValue:)) ?? .basic)
        return (configuration, Self.secretKeys.compactMap { expanded[$0] }.filter { !$0.isEmpty })
    }

    /// Why settings could not be resolved.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }
}

extension OAuth2Configuration {
    /// The key its token is cached under in an environment: what identifies the token's
    /// issuer, client and reach (not the secrets, so a rotated secret keeps the token), and
    /// the server it is sent to (`scheme://host:port`): a token obtained for one server is
    /// never sent to another that the environment's `base_url` was changed to.
    ///
    /// - Parameter url: where the request that carries the token goes.
    package func cacheKey(sendingTo url: URL) -> String {
        [
            grant.name, tokenURL.absoluteString, clientID, scope ?? "", audience ?? "", "for",
            CapturedVariable.origin(of: url),
        ].joined(separator: " ")
    }
}
