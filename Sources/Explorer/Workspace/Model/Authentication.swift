import Foundation
import NetworkingCore

/// How requests prove who sends them: the `auth:` of a collection, an environment, a folder or
/// an endpoint. The nearest one wins (endpoint, then its folders from the innermost, then the
/// environment, then the collection); `auth: none` turns an inherited one off.
///
/// Every value is a template (`{{password}}`, `{{env.TOKEN}}`), expanded when a request is
/// resolved; what it expands to is masked wherever the request is shown or kept.
package struct Authentication: Sendable, Codable, Hashable {
    /// Where an API key goes.
    package enum KeyPlacement: String, Sendable, Codable, Hashable, CaseIterable {
        /// A header field named `name`.
        case header
        /// A query item named `name`.
        case query
    }

    /// The scheme and its templates.
    package enum Scheme: Sendable, Codable, Hashable {
        /// No credentials (turns an inherited `auth:` off).
        case none
        /// `Authorization: Basic base64(username:password)` (RFC 7617).
        case basic(username: String, password: String)
        /// `Authorization: Bearer token` (RFC 6750).
        case bearer(token: String)
        /// A key in a header or a query item.
        case apiKey(name: String, value: String, placement: KeyPlacement)
        /// HTTP Digest (RFC 7616): the first request goes without credentials and the 401's
        /// challenge is answered; the password never goes on the wire.
        case digest(username: String, password: String)
        /// OAuth 2.0: a token obtained by a grant, cached per environment, sent as a bearer token.
        case oauth2(OAuth2Settings)
        /// AWS Signature Version 4: the request signed last, in the `Authorization` header.
        case awsSigV4(AWSSigV4Settings)
        /// OAuth 1.0a (RFC 5849): the request signed last, its parameters in the header, the
        /// query or a form body.
        case oauth1(OAuth1Settings)
    }

    /// The scheme.
    package var scheme: Scheme
    /// Where the `auth:` is written, for errors. Not part of equality.
    var location: FileLocation?

    /// Creates an authentication.
    package init(_ scheme: Scheme, location: FileLocation? = nil) {
        self.scheme = scheme
        self.location = location
    }

    /// The `type:` names of the format, in the order the documentation lists them.
    static let typeNames = ["basic", "bearer", "digest", "api_key", "oauth2", "aws_sigv4", "oauth1", "none"]

    /// The scheme's `type:` name.
    var typeName: String {
        switch scheme {
        case .none: return "none"
        case .basic: return "basic"
        case .bearer: return "bearer"
        case .apiKey: return "api_key"
        case .digest: return "digest"
        case .oauth2: return "oauth2"
        case .awsSigV4: return "aws_sigv4"
        case .oauth1: return "oauth1"
        }
    }

    package static func == (lhs: Authentication, rhs: Authentication) -> Bool { lhs.scheme == rhs.scheme }
    package func hash(into hasher: inout Hasher) { hasher.combine(scheme) }
}

/// Digest credentials with their templates expanded: a resolved request answers the server's
/// challenge with them when it arrives, so they are not in the request's headers.
package struct DigestCredentials: Sendable, Hashable {
    /// The user name.
    package var username: String
    /// The password.
    package var password: String

    /// Creates credentials.
    package init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
