import Foundation
import NetworkingCore

/// An `auth: { type: aws_sigv4, … }` as written: AWS Signature Version 4. The text values are
/// templates, expanded when a request is resolved; the request is signed last, when every
/// other header and the body are final.
///
/// Credentials come from `access_key_id` and `secret_access_key` (and `session_token`), else
/// from the `profile` named (the AWS CLI's `~/.aws/credentials` and `~/.aws/config`), else,
/// in a trusted collection, from the `AWS_*` environment variables. `region` and `service`
/// are guessed from an `*.amazonaws.com` host when absent.
package struct AWSSigV4Settings: Sendable, Codable, Hashable {
    /// The format's text keys besides `type`, in the order the writer writes them.
    package static let textKeys = [
        "access_key_id", "secret_access_key", "session_token", "region", "service", "profile",
    ]
    /// The format's flags.
    package static let flagKeys = ["normalize_path", "sign_payload"]
    /// Every key of the format besides `type`.
    package static let keys = textKeys + flagKeys
    /// The keys whose values are masked.
    package static let secretKeys: Set<String> = ["secret_access_key", "session_token"]

    /// Each text key's template, by its name in the format (`access_key_id`, …).
    package var values: [String: String]
    /// Whether the path is normalised before signing (`normalize_path`; `nil`: yes, except for
    /// service `s3`).
    package var normalizePath: Bool?
    /// Whether `x-amz-content-sha256` is added and signed (`sign_payload`; `nil`: only for
    /// service `s3`).
    package var signPayload: Bool?

    /// Creates settings from the format's keys.
    package init(_ values: [String: String], normalizePath: Bool? = nil, signPayload: Bool? = nil) {
        self.values = values
        self.normalizePath = normalizePath
        self.signPayload = signPayload
    }

    /// Every template, in the order of `textKeys`.
    package var templates: [String] { Self.textKeys.compactMap { values[$0] } }
}
