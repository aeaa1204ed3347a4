import Foundation
import NetworkingCore

/// Hides secrets before anything is shown or stored: used by the TUI, history and exports.
///
/// Two rules: the values of sensitive headers (`Authorization`, `Proxy-Authorization`,
/// `Cookie`, `Set-Cookie`, `X-Api-Key` — always) are replaced, keeping an auth scheme such as
/// `Bearer` visible; and every occurrence of a secret value (an environment's `secrets:`
/// variables) is replaced wherever it appears: URL, headers, body. Values shorter than three
/// characters are not searched for, since masking every `1` in a text would hide nothing.
package struct SecretMasker: Sendable, Hashable {
    /// What a masked value is replaced with.
    package static let mask = "••••••"
    /// Header names whose values are always masked, compared case-insensitively: the one list,
    /// Networking's (curl descriptions redact the same).
    static let alwaysSensitiveHeaders = HTTPHeaders.secretFieldNames

    /// The secret values searched for, longest first (so a longer secret wins over its prefix).
    package let secretValues: [String]
    /// The header names whose values are masked.
    private(set) var sensitiveHeaders: [String]
    /// Each secret value's encoded forms (`encodedForms(of:)`), worked out once: the response
    /// pane looks for them in every line it draws.
    private let encodedForms: [String]
    /// The most characters a form of a secret takes: how far past the end of what is shown a
    /// line must be read so that a secret cut there is still recognised.
    package let longestForm: Int

    /// Creates a masker.
    ///
    /// - Parameters:
    ///   - secretValues: the expanded values of secret variables.
    ///   - extraSensitiveHeaders: header names masked besides the always-sensitive ones.
    package init(secretValues: [String] = [], extraSensitiveHeaders: [String] = []) {
        let values = Array(Set(secretValues.filter { $0.count >= 3 })).sorted {
            $0.count != $1.count ? $0.count > $1.count : $0 < $1
        }
        self.secretValues = values
        self.sensitiveHeaders = SecretMasker.alwaysSensitiveHeaders + extraSensitiveHeaders
        encodedForms = values.flatMap { Self.encodedForms(of: $0).sorted() }
        longestForm = (values + encodedForms).map(\.count).max() ?? 0
    }

    /// Words that make a header name a credential (`X-Auth-Token`, `X-Client-Secret` …):
    /// Networking's, which a redirect to another origin also leaves behind.
    package static let sensitiveNameWords = HTTPHeaders.credentialNameWords

    /// Whether a header's value is always masked: the named headers, and any whose name says
    /// it carries a credential.
    package func isSensitive(header name: String) -> Bool {
        let lower = name.lowercased()
        return sensitiveHeaders.contains { $0.lowercased() == lower }
            || Self.sensitiveNameWords.contains { lower.contains($0) }
    }

    /// The masker with more secret values: what a response's captures add to the request's.
    package func adding(secretValues more: [String]) -> SecretMasker {
        var copy = SecretMasker(secretValues: secretValues + more)
        copy.sensitiveHeaders = sensitiveHeaders
        return copy
    }

    /// The text with every secret value replaced (and its percent-encoded form too).
    package func mask(_ text: String) -> String {
        let ranges = secretRanges(in: text)
        guard !ranges.isEmpty else { return text }
        var out = ""
        var utf8 = Substring(text).utf8
        var consumed = 0
        for range in ranges {
            out += Substring(utf8.prefix(range.lowerBound - consumed))
            out += SecretMasker.mask
            utf8 = utf8.dropFirst(range.upperBound - consumed)
            consumed = range.upperBound
        }
        return out + Substring(utf8)
    }

    /// Where the secrets are in a text: the UTF-8 offsets of every occurrence of every form of
    /// every secret value (the value itself exactly, its encoded forms in any case), sorted,
    /// with overlapping and touching occurrences merged into one.
    package func secretRanges(in text: String) -> [Range<Int>] {
        guard !secretValues.isEmpty, !text.isEmpty else { return [] }
        var found: [Range<Int>] = []
        func collect(_ form: String, _ options: String.CompareOptions) {
            var from = text.startIndex
            while from < text.endIndex, let hit = text.range(of: form, options: options, range: from..<text.endIndex) {
                found.append(
                    text.utf8.distance(
                        from: text.startIndex, to: hit.lowerBound)..<text.utf8.distance(
                            from: text.startIndex, to: hit.upperBound))
                from = hit.upperBound
            }
        }
        for secret in secretValues { collect(secret, []) }
        for encoded in encodedForms { collect(encoded, .caseInsensitive) }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in found {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The forms a secret takes once a response or a body carries it, other than itself: in a
    /// URL, in a form, and inside a JSON string (an echo or a login response quotes it).
    private static func encodedForms(of secret: String) -> Set<String> {
        Set([
            PercentEncoding.encode(secret, allowed: PercentEncoding.queryComponentAllowed, keepEscapes: false),
            PercentEncoding.encode(secret, allowed: PercentEncoding.unreserved, keepEscapes: false),
            PercentEncoding.formEncode(secret),
            Self.jsonEscaped(secret, escapingSlash: false),
            Self.jsonEscaped(secret, escapingSlash: true),
        ]).subtracting([secret])
    }

    /// Whether `bytes` hold any form of any secret, compared ASCII case-insensitively: one
    /// pass over the bytes per form, with no copy, so a large body without a secret (the common
    /// case) is never turned into text to be searched.
    func mayHoldSecret(_ bytes: Data) -> Bool {
        let forms = (secretValues + encodedForms).map { Array($0.utf8).map(Self.lower) }
        return bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            return forms.contains { Self.contains($0, in: buffer) }
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }

    private static func contains(_ pattern: [UInt8], in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first, buffer.count >= pattern.count else { return pattern.isEmpty }
        let last = buffer.count - pattern.count
        var index = 0
        while index <= last {
            if lower(buffer[index]) == first {
                var matched = 1
                while matched < pattern.count, lower(buffer[index + matched]) == pattern[matched] { matched += 1 }
                if matched == pattern.count { return true }
            }
            index += 1
        }
        return false
    }

    /// A header value as it may be shown: masked whole for sensitive headers (keeping a
    /// leading auth scheme such as `Bearer`), else with secret values masked.
    package func mask(header name: String, value: String) -> String {
        guard isSensitive(header: name) else { return mask(value) }
        // Keep an auth scheme (`Bearer`, `Basic`, `Digest`): it says what kind of credential it is.
        if let space = value.firstIndex(of: " "), !value[..<space].isEmpty,
            value[..<space].allSatisfy({ $0.isLetter || $0 == "-" })
        {
            return value[..<space] + " " + SecretMasker.mask
        }
        return value.isEmpty ? value : SecretMasker.mask
    }

    /// Headers with their values masked.
    package func mask(headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.fields.map { HTTPHeaders.Field(name: $0.name, value: mask(header: $0.name, value: $0.value)) })
    }

    /// A body with secret values masked: every form of them in a text body, their bytes as
    /// they are in a binary one.
    package func mask(body: Data?) -> Data? {
        guard let body else { return nil }
        guard mayHoldSecret(body) else { return body }
        guard let text = String(data: body, encoding: .utf8) else { return maskBytes(body) }
        let masked = mask(text)
        return masked == text ? body : Data(masked.utf8)
    }

    /// A binary body with each secret's UTF-8 bytes replaced by the mask's.
    private func maskBytes(_ body: Data) -> Data {
        let maskBytes = Data(SecretMasker.mask.utf8)
        var out = body
        for secret in secretValues {
            let needle = Data(secret.utf8)
            var searchFrom = out.startIndex
            while let found = out.range(of: needle, in: searchFrom..<out.endIndex) {
                out.replaceSubrange(found, with: maskBytes)
                searchFrom = found.lowerBound + maskBytes.count
            }
        }
        return out
    }

    /// A secret as it appears inside a JSON string (`JSONValue.quote` without its quotes), with
    /// `/` escaped too when `escapingSlash` (some encoders, Foundation's among them, do).
    static func jsonEscaped(_ secret: String, escapingSlash: Bool) -> String {
        let escaped = String(JSONValue.quote(secret).dropFirst().dropLast())
        return escapingSlash ? escaped.replacingOccurrences(of: "/", with: "\\/") : escaped
    }

    /// A copy of a request that is safe to show or store.
    package func mask(request: BasicRequest) -> BasicRequest {
        var copy = request
        copy.path = mask(request.path)
        copy.queryItems = request.queryItems.map { URLQueryItem(name: $0.name, value: $0.value.map(mask)) }
        copy.headers = mask(headers: request.headers)
        copy.httpBody = mask(body: request.httpBody)
        return copy
    }
}
