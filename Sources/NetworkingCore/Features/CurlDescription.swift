import Foundation

/// A `curl` command line that sends a request: what `curlDescription` gives, and what the
/// explorer copies (`c`) and exports (`explorer export curl`).
///
/// The command is safe to paste into a POSIX shell and sends the same bytes:
/// - words are single-quoted where the shell would read them otherwise;
/// - a header with an empty value is `-H 'Name;'` (curl's way to send one; `Name:` would
///   remove the header);
/// - a text body is `--data-binary 'text'` (`--data-raw` when it starts with `@`, which curl
///   would take for a file name); a body that is not printable UTF-8 (NUL, control
///   characters, other bytes) is piped in with `printf '\ooo…' | curl … --data-binary @-`,
///   octal escapes that every POSIX `printf` reads back byte for byte; a body that is a file
///   is `--data-binary @path`;
/// - `--globoff` when the URL holds `[]{}`, which curl would otherwise expand.
package struct CurlCommand: Sendable {
    /// Where the body comes from.
    package enum Body: Sendable {
        /// These bytes.
        case data(Data)
        /// The file at this path, read by curl.
        case file(String)
    }

    package var method: HTTPMethod
    /// The full URL, as it is to be sent (or shown, masked).
    package var url: String
    package var headers: HTTPHeaders
    package var body: Body?
    /// `--digest -u 'name:password'`: the credentials curl answers a digest challenge with.
    package var digestUser: (name: String, password: String)?
    /// The proxy: options and their values (`["-x", "http://proxy:3128"]`, `["-U", "ada:••••••"]`,
    /// `["--noproxy", "*"]`), each value quoted for the shell.
    package var proxyOptions: [(option: String, value: String)]

    package init(
        method: HTTPMethod, url: String, headers: HTTPHeaders, body: Body?,
        digestUser: (name: String, password: String)? = nil,
        proxyOptions: [(option: String, value: String)] = []
    ) {
        self.proxyOptions = proxyOptions
        self.digestUser = digestUser
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The command: `curl`, the method and the URL on the first line, then one option a
    /// line, continued with ` \`.
    package var text: String {
        var first = ["curl"]
        if url.contains(where: { "[]{}".contains($0) }) { first.append("--globoff") }
        switch (method, body) {
        case (.head, _): first.append("--head")
        case (.get, nil), (.post, .some): break
        default: first += ["-X", ShellQuoting.quote(method.rawValue)]
        }
        first.append(ShellQuoting.quote(url))
        var lines = [first.joined(separator: " ")]
        if let digestUser {
            lines.append("--digest -u " + ShellQuoting.quote("\(digestUser.name):\(digestUser.password)"))
        }
        for (option, value) in proxyOptions { lines.append(option + " " + ShellQuoting.quote(value)) }
        for field in headers {
            lines.append(
                "-H " + ShellQuoting.quote(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"))
        }
        var prefix = ""
        switch body {
        case nil: break
        case .file(let path):
            lines.append("--data-binary " + ShellQuoting.quote("@" + path))
        case .data(let data):
            if let text = ShellQuoting.printableText(data) {
                lines.append((text.hasPrefix("@") ? "--data-raw " : "--data-binary ") + ShellQuoting.quote(text))
            } else {
                prefix = "printf " + ShellQuoting.printfFormat(data) + " | "
                lines.append("--data-binary @-")
            }
        }
        return prefix + lines.joined(separator: " \\\n  ")
    }
}

extension PreparedRequest {
    /// The header names whose values `redactedCurlDescription()` hides, lower-cased:
    /// `HTTPHeaders.secretFieldNames`.
    public static let secretHeaderNames = Set(HTTPHeaders.secretFieldNames.map { $0.lowercased() })

    /// A `curl` command line that sends this request, shell-safe, one option a line: an empty
    /// header as `-H 'Name;'`, a binary body piped in through `printf` byte for byte.
    ///
    /// Every header value is shown as it is, credentials included; `redactedCurlDescription()`
    /// is the command to log or show.
    public var curlDescription: String {
        curlCommand(hiding: [])
    }

    /// The `curl` command line of `curlDescription` with the values of secret headers replaced
    /// by `REDACTED`.
    ///
    /// - Parameter names: the header names to hide, lower-cased (`secretHeaderNames` by default:
    ///   `Authorization`, `Cookie`, `X-Api-Key` ...).
    /// - Returns: the command.
    public func redactedCurlDescription(hiding names: Set<String> = PreparedRequest.secretHeaderNames) -> String {
        curlCommand(hiding: names)
    }

    private func curlCommand(hiding names: Set<String>) -> String {
        var shown = HTTPHeaders()
        for field in headers {
            shown.add(name: field.name, value: names.contains(field.name.lowercased()) ? "REDACTED" : field.value)
        }
        return CurlCommand(method: method, url: url.absoluteString, headers: shown, body: body.map { .data($0) }).text
    }
}

/// Quotes words for a POSIX shell.
enum ShellQuoting {
    /// A word as it is when the shell reads it back unchanged (letters, digits, `-_./:=@%+,`),
    /// else single-quoted: `it's` becomes `'it'\''s'`.
    static func quote(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-_./:=@%+,".utf8.contains(byte)
            }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The body as text when it is UTF-8 with no control characters but tab and line feed
    /// (a terminal shows it as it is, and single quotes hold it byte for byte).
    static func printableText(_ data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8),
            !text.unicodeScalars.contains(where: {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            })
        else { return nil }
        return text
    }

    /// A single-quoted `printf` format that prints exactly these bytes: printable ASCII as it
    /// is, every other byte (and `'`, `\`, `%`, and a leading `-` that `printf` would take for
    /// an option) as a three-digit octal escape.
    static func printfFormat(_ data: Data) -> String {
        var out = "'"
        for (offset, byte) in data.enumerated() {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "%"): out += String(format: "\\%03o", UInt32(byte))
            case UInt8(ascii: "-") where offset == 0: out += "\\055"
            case 0x20..<0x7F: out.append(Character(Unicode.Scalar(byte)))
            default: out += String(format: "\\%03o", UInt32(byte))
            }
        }
        return out + "'"
    }
}
