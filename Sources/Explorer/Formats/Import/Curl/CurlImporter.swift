import Foundation
import NetworkingCore
import Workspace

/// Imports curl command lines, as people paste them from API docs and browsers, into a
/// collection: one endpoint per request curl would send.
///
/// Every option of curl is known with its arity (`CurlOptions`), so no option takes the next
/// word by mistake. What has a meaning in a collection is kept exactly as curl sends it: the
/// method as written, credentials as the endpoint's `auth:` (`-u` → basic, `--digest -u` →
/// digest, `--oauth2-bearer` → bearer), headers (with those options imply: `-b` → `Cookie`,
/// `-A` → `User-Agent`, `-e` → `Referer`, `-r` → `Range`, `-d` → form `Content-Type`, `--json`
/// → JSON `Content-Type` and `Accept`), the body encoded byte for byte as curl encodes it,
/// multipart parts with their file names and types. `$VAR` becomes `{{env.VAR}}`; heredocs,
/// here-strings and `< file` feed `@-`. Several commands (separated by newlines, `&&`, `;`,
/// `|`) and several URLs or `--next` give several endpoints. Everything else is reported:
/// options that do not change the request are listed as ignored; options that change it in
/// ways a collection does not keep (proxy TLS and proxy challenge authentication, NTLM,
/// Negotiate and other challenge-based authentication) are warned about. `-x`, `-U` and
/// `--noproxy` become the environment's `proxy:`.
///
/// A command is read in two steps: `CurlOptions.Reader` reads the words and `Group.apply`
/// records what each option means (`CurlImporter+Group.swift`); then `request` builds each
/// URL's request from its group (`CurlImporter+Request.swift`).
package struct CurlImporter: Sendable {
    /// Where `@file` arguments are read from.
    var baseDirectory: URL

    /// Creates an importer reading `@file` relative to a directory (the working one by default).
    package init(baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.baseDirectory = baseDirectory
    }

    /// The request a curl command line describes.
    struct Command: Sendable, Hashable {
        /// The method curl would send, exactly as written.
        var method: HTTPMethod
        /// The URL, with `-G` data and `--url-query` appended to its query.
        var url: String
        /// The headers written and implied, in order.
        var headers: [KeyValue]
        /// The body text, when there is one and it is neither multipart nor a file.
        var body: String?
        /// The file sent as the body as it is (`--data-binary @file`, `-T file`).
        var bodyFile: String?
        /// The multipart parts of `-F`.
        var form: [MultipartField]
        /// Options accepted that are not request data, by long name (`location`, `insecure` ...).
        var options: Set<String>
        /// What the user should know: ignored options, options not kept, guesses.
        var warnings: [String]
        /// The credentials of `-u` (basic or digest) or `--oauth2-bearer`, as the endpoint's `auth:`.
        var auth: Authentication?
        /// `--cacert`, `-E/--cert`, `--key`, `--pass`, `-k` and `--tlsv1.2`/`--tlsv1.3`, as the
        /// environment's `tls:` (files made absolute); `nil` when none is given.
        var tls: TLSSettings?
        /// `-x/--proxy`, `-U/--proxy-user` and `--noproxy`, as the environment's `proxy:`;
        /// `nil` when none is given.
        var proxy: ProxySetting?
    }

    /// Options that do not change the request a server sees (output, progress, retries,
    /// timeouts, TLS versions ...): ignored, listed in one warning.
    static let outputOnly: Set<String> = [
        "verbose", "silent", "show-error", "include", "fail", "fail-with-body", "fail-early", "no-buffer", "globoff",
        "progress-bar", "write-out", "output", "output-dir", "remote-name", "remote-name-all", "remote-header-name",
        "remote-time", "create-dirs", "create-file-mode", "dump-header", "trace", "trace-ascii", "trace-time",
        "trace-ids",
        "trace-config", "stderr", "styled-output", "no-progress-meter", "max-time", "connect-timeout", "retry",
        "retry-delay", "retry-max-time", "retry-all-errors", "retry-connrefused", "max-redirs", "speed-limit",
        "speed-time", "limit-rate", "rate", "keepalive-time", "keepalive-cnt", "no-keepalive", "tcp-nodelay",
        "tcp-fastopen", "parallel", "parallel-max", "parallel-immediate", "parallel-max-host", "libcurl", "xattr",
        "no-clobber", "remove-on-error", "skip-existing", "out-null", "raw", "path-as-is", "no-sessionid", "manual",
        "help", "version", "disable", "happy-eyeballs-timeout-ms", "expect100-timeout", "suppress-connect-headers",
        "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only", "ipv4", "ipv6", "tlsv1", "tlsv1.0",
        "tlsv1.1", "tlsv1.2", "tlsv1.3", "tls-max", "sslv2", "sslv3", "ssl", "ssl-reqd", "ssl-allow-beast",
        "ssl-no-revoke", "ssl-revoke-best-effort", "false-start", "cert-status", "no-alpn", "no-npn", "ciphers",
        "tls13-ciphers", "curves", "random-file", "egd-file", "alt-svc", "hsts", "doh-url", "doh-insecure",
        "doh-cert-status", "dns-servers", "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "local-port",
        "ignore-content-length", "post301", "post302", "post303", "junk-session-cookies", "max-filesize",
        "tr-encoding", "metalink", "buffer",
    ]

    /// Challenge-based authentication curl negotiates with the server. Digest is imported as
    /// `auth: digest`; the others are not (sending Basic instead would be a silent downgrade).
    static let negotiatedAuth: Set<String> = [
        "digest", "ntlm", "ntlm-wb", "negotiate", "anyauth", "aws-sigv4", "delegation", "krb",
    ]

    // MARK: - Parsing

    /// Parses the first request a pasted curl command line describes.
    ///
    /// - Throws: what `parseAll` throws.
    func parse(_ commandLine: String) throws -> Command {
        guard let first = try parseAll(commandLine).first else { throw ImportError.invalidCurl("it has no URL.") }
        return first
    }

    /// Parses every request of a pasted text: each curl command, each of its URLs and
    /// `--next` groups, in order; other commands (`echo`, `cd` …) are skipped with a warning
    /// on the next request.
    ///
    /// - Throws: `ImportError.invalidCurl` (no curl command, no URL, an unclosed quote, an
    ///   option curl does not know, a missing option argument) or
    ///   `ImportError.unreadableFile` for an unreadable `@file`.
    func parseAll(_ text: String) throws -> [Command] {
        let commands: [ShellWords.Command]
        do {
            commands = try ShellWords.commands(text)
        } catch {
            throw ImportError.invalidCurl(error.description)
        }
        var requests: [Command] = []
        var skipped: [String] = []
        var pendingWarnings: [String] = []
        for command in commands {
            var words = command.words
            // A pasted prompt, and `sudo`/`time` in front of the program.
            while let first = words.first, ["$", "%", "#", ">", "sudo", "time", "command", "exec"].contains(first) {
                words.removeFirst()
            }
            guard let program = words.first, program == "curl" || program.hasSuffix("/curl") || program == "curl.exe"
            else {
                if let program = words.first { skipped.append(program) }
                continue
            }
            words.removeFirst()
            if case .file(let path) = command.standardInput, !Template.containsVariables(path),
                !FileManager.default.isReadableFile(atPath: absolutePath(path))
            {
                pendingWarnings.append(
                    "The shell cannot open \(path) for the standard input of a curl command, "
                        + "so it would not run it; that command was skipped."
                )
                continue
            }
            var parsed = try parseCurl(words, standardInput: command.standardInput)
            if !skipped.isEmpty, !parsed.isEmpty {
                parsed[0].warnings.insert(
                    "Commands that are not curl were skipped: \(skipped.joined(separator: ", ")).", at: 0)
                skipped = []
            }
            if !pendingWarnings.isEmpty, !parsed.isEmpty {
                parsed[0].warnings.insert(contentsOf: pendingWarnings, at: 0)
                pendingWarnings = []
            }
            if !parsed.isEmpty { parsed[0].warnings += command.notes }
            requests += parsed
        }
        if !pendingWarnings.isEmpty, !requests.isEmpty { requests[requests.count - 1].warnings += pendingWarnings }
        guard !requests.isEmpty else {
            throw ImportError.invalidCurl(
                commands.isEmpty
                    ? "it has no command." : "it has no curl command (found \(skipped.joined(separator: ", "))).")
        }
        return requests
    }

    /// Reads the words after `curl` into requests, as curl reads its command line: the options
    /// into `--next` groups, then each URL of a group into a request.
    ///
    /// - Throws: what `Reader.next`, `Group.apply` and `request` throw, and
    ///   `ImportError.invalidCurl` for a group of options without a URL.
    private func parseCurl(_ words: [String], standardInput: ShellWords.StandardInput?) throws -> [Command] {
        var reader = CurlDataReader(importer: self, standardInput: standardInput)
        let groups = try groups(of: words, reading: &reader)
        var requests: [Command] = []
        for group in groups {
            if group.urls.isEmpty {
                if groups.count == 1 || !group.data.isEmpty || !group.headers.isEmpty {
                    throw ImportError.invalidCurl("it has no URL.")
                }
                continue
            }
            for (number, url) in group.urls.enumerated() {
                requests.append(
                    try request(
                        url, upload: number < group.uploads.count ? group.uploads[number] : nil,
                        group: group, content: { try reader.dataContent(ofFile: $0) }))
            }
        }
        guard !requests.isEmpty else { return requests }
        requests[0].warnings += Array(NSOrderedSet(array: reader.readWarnings)).compactMap { $0 as? String }
        if !reader.readStandardInput, case .text = standardInput {
            requests[0].warnings.append("The text given to curl's standard input is not read (no @- option uses it).")
        }
        return requests
    }

    /// The command line's options, applied to the group of each `--next`, in order.
    private func groups(of words: [String], reading reader: inout CurlDataReader) throws -> [Group] {
        var groups: [Group] = []
        var group = Group()
        var arguments = CurlOptions.Reader(words)
        while let argument = try arguments.next() {
            switch argument {
            case .url(let url):
                group.urls.append(url)
            case .options(let options):
                for option in options {
                    guard option.name != "next" else {
                        groups.append(group)
                        group = Group()
                        continue
                    }
                    try group.apply(option, reading: &reader)
                }
            }
        }
        groups.append(group)
        return groups
    }

    // MARK: - Importing

    /// Imports curl command lines as a collection with one environment and one endpoint per
    /// request.
    ///
    /// The origin most requests use is the `default` environment's `base_url`; a request to
    /// another origin keeps its whole URL (see `ImportedOrigins`).
    /// - Parameter name: the name of the (first) endpoint; `METHOD /path` when `nil`.
    /// - Throws: what `parseAll` throws.
    package func importCommand(_ commandLine: String, name: String? = nil) throws -> ImportResult {
        let commands = try parseAll(commandLine)
        var warnings: [String] = []
        var items: [CollectionItem] = []
        var usedNames: Set<String> = []
        for (number, command) in commands.enumerated() {
            let prefix = commands.count > 1 ? "\(command.method.rawValue) \(command.url): " : ""
            warnings += command.warnings.map { prefix + $0 }
            var endpoint = endpoint(for: command, warnings: &warnings)
            endpoint.name = Self.unusedName((number == 0 ? name : nil) ?? endpoint.name, in: &usedNames)
            items.append(.endpoint(endpoint))
        }
        let (placed, baseURL) = ImportedOrigins.relativeToMainOrigin(items)
        // One environment holds the TLS settings and the proxy: the first request's, which the others share.
        let tls = Self.firstSetting(\.tls, named: "TLS", of: commands, warnings: &warnings)
        let proxy = Self.firstSetting(\.proxy, named: "proxy", of: commands, warnings: &warnings)
        let environment = Environment(
            name: "default", baseURLTemplate: baseURL ?? "http://localhost", tls: tls, proxy: proxy)
        let collection = APICollection(name: "Imported from curl", environments: [environment], items: placed)
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// The endpoint of one request, named `METHOD /path`, its URL taken apart into an origin, a
    /// path and a query; a URL that cannot be a `base_url` and files that do not exist are
    /// warned about.
    private func endpoint(for command: Command, warnings: inout [String]) -> Endpoint {
        let parts = URLParts(command.url)
        if !parts.hasUsableOrigin {
            warnings.append(
                "\(parts.origin) is not an absolute http(s) URL yet; edit the environment's base_url before sending.")
        }
        let sentFiles = command.form.filter(\.isFile).map(\.value) + (command.bodyFile.map { [$0] } ?? [])
        for file in sentFiles
        where !Template.containsVariables(file) && !FileManager.default.fileExists(atPath: absolutePath(file)) {
            warnings.append(
                "\(absolutePath(file)) does not exist; "
                    + "sending \(command.method.rawValue) \(command.url) fails until it does (curl refuses too)."
            )
        }
        let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
        var endpoint = Endpoint(
            name: "\(command.method.rawValue) \(pathName)",
            method: command.method,
            path: parts.origin + parts.path,
            query: parts.query,
            headers: command.form.isEmpty
                ? command.headers
                : command.headers.filter {
                    // multipart's Content-Type is written with its boundary at send time.
                    !($0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/form-data"))
                },
            body: endpointBody(of: command)
        )
        endpoint.auth = command.auth
        return endpoint
    }

    /// The body as a collection keeps it: multipart parts and files with absolute paths.
    private func endpointBody(of command: Command) -> EndpointBody? {
        if !command.form.isEmpty {
            return .multipart(
                command.form.map { field in
                    guard field.isFile else { return field }
                    var field = field
                    field.value = absolutePath(field.value)
                    return field
                })
        }
        if let file = command.bodyFile { return .file(absolutePath(file)) }
        return command.body.map { .raw($0) }
    }

    /// `name`, or `name (2)`, `name (3)` … when an endpoint already has it.
    private static func unusedName(_ name: String, in usedNames: inout Set<String>) -> String {
        var candidate = name
        var suffix = 2
        while !usedNames.insert(candidate).inserted {
            candidate = "\(name) (\(suffix))"
            suffix += 1
        }
        return candidate
    }

    /// The first request's setting (TLS or proxy) for the one environment, with a warning when
    /// the requests do not all use the same.
    private static func firstSetting<Setting: Hashable>(
        _ setting: KeyPath<Command, Setting?>, named name: String, of commands: [Command], warnings: inout [String]
    ) -> Setting? {
        if Set(commands.map { $0[keyPath: setting] }).count > 1 {
            let first = commands.first { $0[keyPath: setting] != nil }.map { "\($0.method.rawValue) \($0.url)" } ?? ""
            warnings.append(
                "The requests use different \(name) options; the environment keeps the first ones given (\(first)).")
        }
        return commands.lazy.compactMap { $0[keyPath: setting] }.first
    }

    func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : baseDirectory.appendingPathComponent(path).path
    }

    func readFile(_ path: String) throws -> String {
        if path == "-" {
            throw ImportError.invalidCurl(
                "reading data from standard input (@-) needs a heredoc or a here-string in the pasted text.")
        }
        if Template.containsVariables(path) {
            throw ImportError.invalidCurl(
                "the file \(path) is named by a shell variable, which is not known when importing; write its path.")
        }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { throw ImportError.unreadableFile(url.path) }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - curl's encodings

    /// `--data-urlencode`'s five forms: `content`, `=content`, `name=content`, `@file`, `name@file`.
    /// A file curl cannot read makes the whole piece empty, as curl sends it.
    static func urlencodeData(_ value: String, content: (String) throws -> String?) throws -> String {
        if let equals = value.firstIndex(of: "=") {
            let name = value[..<equals]
            let encoded = PercentEncoding.formEncode(String(value[value.index(after: equals)...]))
            return name.isEmpty ? encoded : name + "=" + encoded
        }
        if let at = value.firstIndex(of: "@") {
            let name = value[..<at]
            guard let text = try content(String(value[value.index(after: at)...])) else { return "" }
            let encoded = PercentEncoding.formEncode(text)
            return name.isEmpty ? encoded : name + "=" + encoded
        }
        return PercentEncoding.formEncode(value)
    }

    /// `--url-query`: as `--data-urlencode`, or as written after a leading `+`.
    static func urlQuery(_ value: String, content: (String) throws -> String?) throws -> String {
        if value.hasPrefix("+") { return String(value.dropFirst()) }
        return try urlencodeData(value, content: content)
    }

    /// A `-F` value as curl reads it: `name=value`, `name="quoted"`, `name=@file`, `name=<file`,
    /// each optionally followed by `;type=…` and `;filename=…` (`;headers=` is not kept).
    static func formField(_ value: String, literal: Bool, content: (String) throws -> String) throws -> MultipartField {
        guard let equals = value.firstIndex(of: "=") else {
            throw ImportError.invalidCurl("the form field \"\(value)\" has no '='; curl refuses it too.")
        }
        let name = String(value[..<equals])
        let rest = String(value[value.index(after: equals)...])
        if literal { return MultipartField(name: name, value: rest) }
        var scanner = FormScanner(rest)
        let isFile = scanner.take("@")
        let isContent = !isFile && scanner.take("<")
        let main = scanner.word(isFile || isContent)
        var field = MultipartField(name: name, value: main, isFile: isFile)
        while scanner.take(";") {
            let parameter = scanner.word(true)
            if parameter.lowercased().hasPrefix("type=") {
                field.contentType = String(parameter.dropFirst(5))
            } else if parameter.lowercased().hasPrefix("filename=") {
                field.filename = String(parameter.dropFirst(9))
            } else if parameter.lowercased().hasPrefix("headers=") || parameter.lowercased().hasPrefix("encoder=") {
                throw ImportError.invalidCurl(
                    "the form field \"\(name)\" sets \(parameter.prefix { $0 != "=" }), "
                        + "which a collection does not keep."
                )
            } else if !isFile && !isContent {
                // A text value with a ';' that is not a parameter: curl keeps it in the value.
                field.value += ";" + parameter
            }
        }
        if isContent { field.value = try content(main) }
        return field
    }

    /// Reads curl's `-F` syntax: a word is quoted (`"…"` with `\"` and `\\`) or runs to the next `;`.
    private struct FormScanner {
        var rest: Substring
        init(_ text: String) { rest = Substring(text) }

        mutating func take(_ character: Character) -> Bool {
            guard rest.first == character else { return false }
            rest = rest.dropFirst()
            return true
        }

        /// The next word; a text value (`stopsAtSemicolon` false) runs to the end unless a
        /// `;type=` or `;filename=` parameter follows.
        mutating func word(_ stopsAtSemicolon: Bool) -> String {
            if rest.first == "\"" {
                var out = ""
                rest = rest.dropFirst()
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == "\\", let next = rest.first, next == "\"" || next == "\\" {
                        out.append(next)
                        rest = rest.dropFirst()
                    } else if c == "\"" {
                        break
                    } else {
                        out.append(c)
                    }
                }
                if let semicolon = rest.firstIndex(of: ";") { rest = rest[semicolon...] } else { rest = "" }
                return out
            }
            var end = rest.endIndex
            var search = rest.startIndex
            while let semicolon = rest[search...].firstIndex(of: ";") {
                let after = rest[rest.index(after: semicolon)...].lowercased()
                if stopsAtSemicolon || after.hasPrefix("type=") || after.hasPrefix("filename=")
                    || after.hasPrefix("headers=") || after.hasPrefix("encoder=")
                {
                    end = semicolon
                    break
                }
                search = rest.index(after: semicolon)
            }
            let out = String(rest[..<end])
            rest = rest[end...]
            return out
        }
    }
}
