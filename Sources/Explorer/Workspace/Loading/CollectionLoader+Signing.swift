import Foundation
import NetworkingCore
import Yams

extension Reader {
    /// An `auth: { type: aws_sigv4, … }`: text values, `normalize_path` and `sign_payload` true
    /// or false, and a secret key with each key id (and a key id with each secret key).
    ///
    /// - Throws: `CollectionError` at the line and column of the part to fix.
    mutating func awsSigV4Settings(_ mapping: Node.Mapping, node: Node, in container: String) throws
        -> AWSSigV4Settings
    {
        var values: [String: String] = [:]
        for key in AWSSigV4Settings.textKeys {
            if let value = mapping[key] { values[key] = try string(value, key: "auth.\(key)") }
        }
        for (present, absent) in [("access_key_id", "secret_access_key"), ("secret_access_key", "access_key_id")]
        where values[present] != nil && values[absent] == nil {
            throw CollectionError.missingKey(location(node), key: absent, in: "the aws_sigv4 auth of \(container)")
        }
        return AWSSigV4Settings(
            values,
            normalizePath: try mapping["normalize_path"].map { try flag($0, key: "auth.normalize_path") },
            signPayload: try mapping["sign_payload"].map { try flag($0, key: "auth.sign_payload") })
    }

    /// An `auth: { type: oauth1, … }`: `consumer_key`, a known `signature_method` (did-you-mean
    /// otherwise), `in` header, query or body, and `private_key` for RSA-SHA256.
    ///
    /// - Throws: `CollectionError` at the line and column of the part to fix.
    mutating func oauth1Settings(_ mapping: Node.Mapping, node: Node, in container: String) throws -> OAuth1Settings {
        var values: [String: String] = [:]
        for key in OAuth1Settings.keys {
            if let value = mapping[key] { values[key] = try string(value, key: "auth.\(key)") }
        }
        if values["consumer_key"] == nil {
            throw CollectionError.missingKey(location(node), key: "consumer_key", in: "the oauth1 auth of \(container)")
        }
        if let method = values["signature_method"], !OAuth1Settings.methodNames.contains(method) {
            let hint =
                Suggestions.closest(to: method, in: OAuth1Settings.methodNames, limit: 1).first.map {
                    "; did you mean \"\($0)\"?"
                } ?? ""
            throw CollectionError.wrongType(
                location(mapping.value("signature_method")), key: "auth.signature_method",
                expected: "one of \(OAuth1Settings.methodNames.joined(separator: ", ")) (not \"\(method)\")\(hint)")
        }
        if values["signature_method"] == "RSA-SHA256", values["private_key"] == nil {
            throw CollectionError.missingKey(
                location(node), key: "private_key", in: "the oauth1 RSA-SHA256 auth of \(container)")
        }
        if let placement = values["in"], !OAuth1Settings.placementNames.contains(placement) {
            throw CollectionError.wrongType(
                location(mapping.value("in")), key: "auth.in", expected: "header, query or body (not \"\(placement)\")")
        }
        return OAuth1Settings(values)
    }
}
