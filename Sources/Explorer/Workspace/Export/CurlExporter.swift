import Foundation
import Networking

/// Writes a resolved request as a curl command line that a POSIX shell runs as it reads.
///
/// Every argument is quoted (`'…'`, or `$'…'` when it holds control characters), so pasting
/// it is safe. Secrets are masked unless the caller reveals them.
package enum CurlExporter {
    /// The curl command for a resolved request.
    ///
    /// - Parameters:
    ///   - resolved: the request, with all variables expanded.
    ///   - revealSecrets: writes secrets as they are when `true`; masks them otherwise.
    ///   - multiline: puts each option on its own backslash-continued line.
    package static func command(for resolved: ResolvedRequest, revealSecrets: Bool = false, multiline: Bool = true) -> String {
        let request = revealSecrets ? resolved.request : resolved.masked
        let url = revealSecrets ? resolved.url : resolved.maskedURL
        var words: [String] = ["curl"]
        let method = request.method
        let hasBody = request.httpBody != nil
        if method == .head {
            words.append("--head")
        } else if !(method == .get && !hasBody) && !(method == .post && hasBody) {
            words += ["-X", method.rawValue]
        }
        words.append(quote(url))
        for field in request.headers {
            words += ["-H", quote("\(field.name): \(field.value)")]
        }
        if let body = request.httpBody {
            let text = String(decoding: body, as: UTF8.self)
            words += ["--data-binary", quote(text)]
        }
        let separator = multiline ? " \\\n  " : " "
        // Keep "-H value" pairs on one line.
        var lines: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("-") && index + 1 < words.count && ["-X", "-H", "--data-binary"].contains(word) {
                lines.append(word + " " + words[index + 1])
                index += 2
            } else {
                lines.append(word)
                index += 1
            }
        }
        if multiline, lines.count > 1 {
            return lines[0] + " " + lines[1] + (lines.count > 2 ? separator + lines[2...].joined(separator: separator) : "")
        }
        return lines.joined(separator: " ")
    }

    /// Quotes one shell word: single quotes, or ANSI-C `$'…'` when it holds control characters.
    static func quote(_ word: String) -> String {
        let hasControl = word.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
        guard hasControl else { return ShellWords.quote(word) }
        var out = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += String(format: "\\x%02x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
