import Foundation

extension PreparedRequest {
    /// The header names whose values `curlDescription(redactingSecrets: true)` hides, lower-cased:
    /// `HTTPHeaders.secretFieldNames`.
    public static let secretHeaderNames = Set(HTTPHeaders.secretFieldNames.map { $0.lowercased() })

    /// A `curl` command line that sends this request: shell-safe (single-quoted), one option per
    /// line.
    ///
    /// - Parameter redactingSecrets: whether the values of `HTTPHeaders.secretFieldNames`
    ///   (`Authorization`, `Cookie`, `X-Api-Key` ...) are replaced by `REDACTED`.
    /// - Returns: the command.
    public func curlDescription(redactingSecrets: Bool = false) -> String {
        var parts = ["curl", "--globoff"]
        switch method {
        case .get where body == nil: break
        case .head: parts.append("--head")
        default: parts.append("-X \(ShellQuoting.quote(method.rawValue))")
        }
        parts.append(ShellQuoting.quote(url.absoluteString))
        for field in headers {
            let value = redactingSecrets && Self.secretHeaderNames.contains(field.name.lowercased()) ? "REDACTED" : field.value
            parts.append("-H " + ShellQuoting.quote(value.isEmpty ? "\(field.name);" : "\(field.name): \(value)"))
        }
        guard let body else { return parts.joined(separator: " \\\n  ") }
        if let text = ShellQuoting.printableText(body) {
            parts.append("--data-binary " + ShellQuoting.quote(text))
            return parts.joined(separator: " \\\n  ")
        }
        // Bytes a shell argument cannot hold (NUL) are piped in through printf.
        parts.append("--data-binary @-")
        return "printf " + ShellQuoting.printfFormat(body) + " | " + parts.joined(separator: " \\\n  ")
    }
}

extension Request {
    /// A `curl` command line that sends this request to a base URL; see
    /// `PreparedRequest.curlDescription(redactingSecrets:)`.
    ///
    /// - Parameters:
    ///   - baseURL: the base URL.
    ///   - redactingSecrets: whether secret header values are hidden.
    /// - Returns: the command.
    /// - Throws: `TransportError.invalidURL`.
    public func curlDescription(baseURL: URL, redactingSecrets: Bool = false) throws -> String {
        try prepared(baseURL: baseURL).curlDescription(redactingSecrets: redactingSecrets)
    }
}

/// Quotes text for a POSIX shell.
enum ShellQuoting {
    /// Single-quotes a string: `it's` becomes `'it'\''s'`.
    static func quote(_ string: String) -> String {
        "'" + string.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The body as text when it is UTF-8 without control characters other than tab and newlines.
    static func printableText(_ data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8),
            !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r") || $0.value == 0x7F })
        else { return nil }
        return text
    }

    /// A single-quoted `printf` format that prints exactly these bytes.
    static func printfFormat(_ data: Data) -> String {
        var out = "'"
        for byte in data {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "%"): out += String(format: "\\%03o", UInt32(byte))
            case 0x20..<0x7F: out.append(Character(Unicode.Scalar(byte)))
            default: out += String(format: "\\%03o", UInt32(byte))
            }
        }
        return out + "'"
    }
}
