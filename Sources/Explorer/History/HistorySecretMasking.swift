import Foundation
import Networking

/// Masks secrets before an exchange is written to the history file.
///
/// Two rules: the values of credential-bearing headers (`Authorization`, `Cookie`, API-key and
/// token headers) are replaced, keeping an auth scheme such as `Bearer`; and every occurrence of
/// a known secret value (the workspace's secret variables) is replaced wherever it appears in
/// the URL, the request headers or the request body.
enum HistorySecretMasking {
    /// What a masked secret is replaced with.
    static let mask = "••••••"

    /// Whether a header's value is a credential, judged by its name.
    ///
    /// - Parameter name: the header name, any case.
    /// - Returns: `true` for `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and
    ///   names containing `token`, `secret`, `password`, `api-key`/`apikey` or `session`.
    static func isSensitiveHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lower) { return true }
        return ["token", "secret", "password", "api-key", "apikey", "api_key", "session"]
            .contains { lower.contains($0) }
    }

    /// Masks a credential header's value, keeping the auth scheme (`Bearer ••••••`).
    ///
    /// - Parameter value: the header value.
    /// - Returns: the masked value.
    static func maskedCredential(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].allSatisfy({ $0.isLetter || $0 == "-" }) {
            return "\(parts[0]) \(mask)"
        }
        return mask
    }

    /// The entry with its request's secrets masked.
    ///
    /// - Parameters:
    ///   - entry: the exchange as sent.
    ///   - secrets: secret values to mask wherever they appear (empty strings are ignored).
    /// - Returns: the entry, masked.
    static func masked(_ entry: HistoryEntry, secrets: [String]) -> HistoryEntry {
        let secrets = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var entry = entry
        entry.url = replacing(secrets, in: entry.url)
        entry.requestHeaders = HTTPHeaders(entry.requestHeaders.map { field in
            let value = isSensitiveHeader(field.name) ? maskedCredential(field.value) : replacing(secrets, in: field.value)
            return HTTPHeaders.Field(name: field.name, value: value)
        })
        if !secrets.isEmpty, let body = entry.requestBody, let text = String(data: body, encoding: .utf8) {
            let masked = replacing(secrets, in: text)
            if masked != text {
                let wasWhole = entry.requestBodySize == body.count
                entry.requestBody = Data(masked.utf8)
                if wasWhole { entry.requestBodySize = entry.requestBody?.count ?? 0 }
            }
        }
        return entry
    }

    private static func replacing(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: mask) }
    }
}
