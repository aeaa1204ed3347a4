import Checks
import Foundation
import Workspace

/// Masks secrets before an exchange is written to the history file, with the workspace's
/// `SecretMasker` rules: credential headers keep only their auth scheme (`Bearer ••••••`), and
/// every known secret value is replaced wherever the exchange carries it.
///
/// That is the request (URL, headers, body) and the response too (headers, body, reason,
/// a transport error's sentence): an echo service or a login response hands the token back,
/// and what is stored in the response columns also feeds the full-text index.
package enum HistorySecretMasking {
    /// What a masked secret is replaced with.
    package static let mask = SecretMasker.mask

    /// The entry with its secrets masked, in the request and in the response.
    ///
    /// - Parameters:
    ///   - entry: the exchange as sent and received.
    ///   - secrets: secret values to mask wherever they appear.
    ///   - bodyCap: the most bytes of a body that will be kept: a larger body is masked only as
    ///     far as that (and the longest form of a secret beyond it, so a secret across the cut
    ///     is masked whole), not read through whole.
    /// - Returns: the entry, masked.
    package static func masked(_ entry: HistoryEntry, secrets: [String], bodyCap: Int = .max) -> HistoryEntry {
        let masker = SecretMasker(secretValues: secrets)
        // A secret's longest form in a body: every character JSON-escaped as \uXXXX.
        let window = bodyCap.addingReportingOverflow((secrets.map(\.utf8.count).max() ?? 0) * 6 + 16)
        let kept = window.overflow ? Int.max : window.partialValue
        var entry = entry
        entry.url = masker.mask(entry.url)
        entry.requestHeaders = masker.mask(headers: entry.requestHeaders)
        mask(&entry.requestBody, size: &entry.requestBodySize, keeping: kept, with: masker)
        entry.responseHeaders = masker.mask(headers: entry.responseHeaders)
        mask(&entry.responseBody, size: &entry.responseBodySize, keeping: kept, with: masker)
        entry.reason = entry.reason.map(masker.mask)
        entry.transportError = entry.transportError.map(masker.mask)
        entry.checks = entry.checks.map { masked($0, with: masker) }
        entry.timings.redirects = entry.timings.redirects.map { hop in
            var hop = hop
            hop.url = masker.mask(hop.url)
            hop.location = masker.mask(hop.location)
            return hop
        }
        return entry
    }

    /// A check report with what it found masked: actual values and reasons can quote a
    /// secret (a token the login returned), and a secret capture's value never goes to disk.
    private static func masked(_ report: CheckReport, with masker: SecretMasker) -> CheckReport {
        var report = report
        report.assertions = report.assertions.map { result in
            var result = result
            result.text = masker.mask(result.text)
            result.actual = result.actual.map(masker.mask)
            result.reason = result.reason.map(masker.mask)
            result.expected = result.expected.map(masker.mask)
            return result
        }
        report.captured = report.captured.map { ($0.name, $0.isSecret ? mask : masker.mask($0.value), $0.isSecret) }
        report.captureFailures = report.captureFailures.map(masker.mask)
        return report
    }

    /// Masks a body; its recorded size follows when the body was whole, so a masked body is
    /// not mistaken for a truncated one (and a truncated one still reads as truncated).
    private static func mask(_ body: inout Data?, size: inout Int, keeping limit: Int, with masker: SecretMasker) {
        // Cut on a character boundary, so the text still decodes as UTF-8 (a slice: a large
        // body is not copied to be cut).
        if let whole = body { body = ExchangeRow.capped(whole, to: limit) }
        guard let original = body, let masked = masker.mask(body: original), masked != original else { return }
        if size == original.count { size = masked.count }
        body = masked
    }
}
