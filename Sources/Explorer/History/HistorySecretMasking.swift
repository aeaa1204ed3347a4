import Foundation
import Workspace

/// Masks secrets before an exchange is written to the history file, with the workspace's
/// `SecretMasker` rules: credential headers keep only their auth scheme (`Bearer ••••••`), and
/// every known secret value is replaced wherever it appears in the URL, the request headers or
/// the request body.
package enum HistorySecretMasking {
    /// What a masked secret is replaced with.
    package static let mask = SecretMasker.mask

    /// The entry with its request's secrets masked.
    ///
    /// - Parameters:
    ///   - entry: the exchange as sent.
    ///   - secrets: secret values to mask wherever they appear.
    /// - Returns: the entry, masked.
    static func masked(_ entry: HistoryEntry, secrets: [String]) -> HistoryEntry {
        let masker = SecretMasker(secretValues: secrets)
        var entry = entry
        entry.url = masker.mask(entry.url)
        entry.requestHeaders = masker.mask(headers: entry.requestHeaders)
        if let body = entry.requestBody, let masked = masker.mask(body: body), masked != body {
            let wasWhole = entry.requestBodySize == body.count
            entry.requestBody = masked
            if wasWhole { entry.requestBodySize = masked.count }
        }
        return entry
    }
}
