import Foundation
import NetworkingCore

/// An `auth: { type: oauth1, … }` as written: OAuth 1.0a (RFC 5849). The values are templates,
/// expanded when a request is resolved; the request is signed last, with a fresh nonce and
/// timestamp unless `nonce` and `timestamp` are set (for tests).
package struct OAuth1Settings: Sendable, Codable, Hashable {
    /// The format's keys besides `type`, in the order the writer writes them.
    package static let keys = [
        "consumer_key", "consumer_secret", "token", "token_secret", "signature_method", "realm", "in",
        "private_key", "nonce", "timestamp", "callback", "verifier",
    ]
    /// The keys whose values are masked.
    package static let secretKeys: Set<String> = ["consumer_secret", "token", "token_secret", "private_key"]
    /// The signature methods of the format, in the order the documentation lists them.
    package static let methodNames = ["HMAC-SHA1", "HMAC-SHA256", "RSA-SHA256", "PLAINTEXT"]
    /// Where the protocol parameters may go.
    package static let placementNames = ["header", "query", "body"]

    /// Each key's template, by its name in the format (`consumer_key`, …).
    package var values: [String: String]

    /// Creates settings from the format's keys.
    package init(_ values: [String: String]) { self.values = values }

    /// Every template, in the order of `keys`.
    package var templates: [String] { Self.keys.compactMap { values[$0] } }
}
