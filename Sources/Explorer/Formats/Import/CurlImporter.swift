import Foundation
import NetworkingCore
import Workspace

/// Imports curl command lines, as people paste them from API docs and browsers, into a
/// collection: one endpoint per request curl would send.
///
/// Every option of curl is known with its arity (`CurlOptions`), so no option takes the next
/// word by mistake. What has a meaning in a collection is kept exactly as curl sends it: the
/// method as written, credentials as the endpoint's `auth:` (`-u` → basic, `--digest -u` →
/// digest, `--oauth2-bearer` → bearer), headers (with those options imply: `-b` → `Cookie`, `-A` → `User-Agent`, `-e` → `Referer`, `-r` → `Range`, `-d` → form
/// `Content-Type`, `--json` → JSON `Content-Type` and `Accept`), the body encoded byte for
/// byte as curl encodes it, multipart parts with their file names and types. `$VAR` becomes
/// `{{env.VAR}}`; heredocs, here-strings and `< file` feed `@-`. Several commands (separated
/// by newlines, `&&`, `;`, `|`) and several URLs or `--next` give several endpoints.
/// Everything else is reported: options that do not change the request are listed as
/// ignored; options that change it in ways a collection does not keep (proxy TLS and proxy
/// challenge authentication, NTLM, Negotiate and other challenge-based authentication) are
/// warned about. `-x`, `-U` and `--noproxy` become the environment's `proxy:`.
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

    private enum DataKind { case ascii, raw, binary, urlencode, json }

    /// Options that do not change the request a server sees (output, progress, retries,
    /// timeouts, TLS versions ...): ignored, listed in one warning.
    private static let outputOnly: Set<String> = [
        "verbose", "silent", "show-error", "include", "fail", "fail-with-body", "fail-early", "no-buffer", "globoff",
        "progress-bar", "write-out", "output", "output-dir", "remote-name", "remote-name-all", "remote-header-name",
        "remote-time", "create-dirs", "create-file-mode", "dump-header", "trace", "trace-ascii", "trace-time", "trace-ids",
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
    private static let negotiatedAuth: Set<String> = ["digest", "ntlm", "ntlm-wb", "negotiate", "anyauth", "aws-sigv4", "delegation", "krb"]

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
            while let first = words.first, ["$", "%", "#", ">", "sudo", "time", "command", "exec"].contains(first) { words.removeFirst() }
            guard let program = words.first, program == "curl" || program.hasSuffix("/curl") || program == "curl.exe" else {
                if let program = words.first { skipped.append(program) }
                continue
            }
            words.removeFirst()
            if case .file(let path) = command.standardInput, !Template.containsVariables(path),
               !FileManager.default.isReadableFile(atPath: absolutePath(path)) {
                pendingWarnings.append("The shell cannot open \(path) for the standard input of a curl command, so it would not run it; that command was skipped.")
                continue
            }
            var parsed = try parseCurl(words, standardInput: command.standardInput)
            if !skipped.isEmpty, !parsed.isEmpty {
                parsed[0].warnings.insert("Commands that are not curl were skipped: \(skipped.joined(separator: ", ")).", at: 0)
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
            throw ImportError.invalidCurl(commands.isEmpty ? "it has no command." : "it has no curl command (found \(skipped.joined(separator: ", "))).")
        }
        return requests
    }

    /// The options of one `--next` group, shared by its URLs.
    private struct Group {
        var urls: [String] = []
        var uploads: [String] = []
        var explicitMethod: String?
        var headers: [KeyValue] = []
        var removedHeaders: Set<String> = []
        var data: [(kind: DataKind, value: String)] = []
        var form: [MultipartField] = []
        var options: Set<String> = []
        var ignored: [String] = []
        var warnings: [String] = []
        var user: String?
        var authentication = "basic"
        var bearer: String?
        var cookie: String?
        /// `-b FILE`: cookie files (Netscape format), read for each URL.
        var cookieFiles: [String] = []
        /// `-c FILE`: where curl would write its cookies.
        var cookieJarFile: String?
        var userAgent: String?
        var referer: String?
        var range: String?
        var getMode = false
        var head = false
        var urlQueries: [String] = []
        /// The TLS options given (paths as written).
        var tls = TLSSettings()
        /// `-x URL` (empty: no proxy at all).
        var proxy: String?
        /// `-U user[:password]`.
        var proxyUser: String?
        /// `--noproxy LIST`.
        var noProxy: String?
        /// How curl authenticates to the proxy (`--proxy-digest` …); Basic when `nil`.
        var proxyAuthentication: String?
        /// Proxy options a collection cannot keep, as written.
        var proxyIgnored: [String] = []
    }

    /// Reads the words after `curl` into requests, as curl reads its command line.
    private func parseCurl(_ words: [String], standardInput: ShellWords.StandardInput?) throws -> [Command] {
        var groups: [Group] = []
        var group = Group()
        var index = 0
        var stdinUsed = false
        func readStandardInput() throws -> String {
            stdinUsed = true
            switch standardInput {
            case .text(let text): return text
            case .file(let path): return try readFile(path)
            case .pipe: throw ImportError.invalidCurl("the data is read from standard input (@-), which comes from another command here; paste the data instead.")
            case nil: throw ImportError.invalidCurl("the data is read from standard input (@-); paste it as a heredoc (<<EOF … EOF) or a here-string (<<< '…').")
            }
        }
        func content(ofFile path: String) throws -> String {
            path == "-" ? try readStandardInput() : try readFile(path)
        }
        // Data options (-d, --data-binary, --data-urlencode, --json, --url-query, -T -) read a
        // file curl cannot read as empty, with a warning; so does the import.
        var readWarnings: [String] = []
        func dataContent(ofFile path: String) throws -> String? {
            do {
                return try content(ofFile: path)
            } catch ImportError.unreadableFile(let file) {
                readWarnings.append("curl cannot read \(file) either: it sends that data empty, and so does the imported endpoint; edit the body.")
                return nil
            } catch ImportError.invalidCurl where path == "-" {
                readWarnings.append("The data read from standard input (@-) is not in the pasted text, so it is empty, as curl sends it with nothing to read; paste it as a heredoc (<<EOF … EOF) or a here-string (<<< '…').")
                return nil
            }
        }

        while index < words.count {
            let word = words[index]
            index += 1
            var pairs: [(option: String, value: String?, negated: Bool, written: String)] = []
            if word.hasPrefix("--") && word.count > 2 {
                var name = String(word.dropFirst(2))
                var attached: String?
                // curl itself has no `--name=value`; it is accepted for a known option that takes a value.
                if let equals = name.firstIndex(of: "="), CurlOptions.withArgument.contains(String(name[..<equals])) {
                    attached = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                switch CurlOptions.match(name) {
                case let .option(long, negated):
                    if CurlOptions.withArgument.contains(long) {
                        guard let value = attached ?? (index < words.count ? words[index] : nil) else {
                            throw ImportError.invalidCurl("the option \(word) needs a value.")
                        }
                        if attached == nil { index += 1 }
                        pairs.append((long, value, false, word))
                    } else {
                        pairs.append((long, nil, negated, word))
                    }
                case .ambiguous(let candidates):
                    throw ImportError.invalidCurl("the option \(word) could be any of \(candidates.map { "--" + $0 }.joined(separator: ", ")); curl refuses it too.")
                case .unknown:
                    throw ImportError.invalidCurl("curl does not know the option \(word) (curl 7.88.1 and the newer options of curl's manual were checked); curl refuses it too.")
                }
            } else if word.hasPrefix("-") && word.count > 1 {
                var letters = Substring(word.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let long = CurlOptions.short[letter] else {
                        throw ImportError.invalidCurl("curl does not know the option -\(letter) (in \(word)); curl refuses it too.")
                    }
                    if CurlOptions.withArgument.contains(long) {
                        let value: String
                        if !letters.isEmpty {
                            value = String(letters)
                        } else if index < words.count {
                            value = words[index]
                            index += 1
                        } else {
                            throw ImportError.invalidCurl("the option -\(letter) needs a value.")
                        }
                        pairs.append((long, value, false, "-\(letter)"))
                        break
                    }
                    pairs.append((long, nil, false, "-\(letter)"))
                }
            } else {
                group.urls.append(word)
                continue
            }

            for (option, value, negated, written) in pairs {
                let value = value ?? ""
                switch option {
                case "next":
                    groups.append(group)
                    group = Group()
                case "url": group.urls.append(value)
                case "request": group.explicitMethod = value
                case "header":
                    if value.hasPrefix("@") {
                        for line in try content(ofFile: String(value.dropFirst())).split(whereSeparator: \.isNewline) {
                            try addHeader(String(line), to: &group)
                        }
                    } else {
                        try addHeader(value, to: &group)
                    }
                case "data", "data-ascii": group.data.append((.ascii, value))
                case "data-raw": group.data.append((.raw, value))
                case "data-binary": group.data.append((.binary, value))
                case "data-urlencode": group.data.append((.urlencode, value))
                case "json": group.data.append((.json, value))
                case "get": group.getMode = !negated
                case "head": group.head = !negated
                case "user": group.user = value
                case "basic": if !negated { group.authentication = "basic" }
                case "oauth2-bearer": group.bearer = value
                case "form", "form-string":
                    group.form.append(try formField(value, literal: option == "form-string", content: content(ofFile:)))
                case "cookie":
                    // As curl reads -b: a value with '=' is cookies, anything else a file of them.
                    if value.contains("=") {
                        group.cookie = group.cookie.map { $0 + "; " + value } ?? value
                    } else {
                        group.cookieFiles.append(value)
                    }
                case "cookie-jar":
                    group.cookieJarFile = value
                case "user-agent": group.userAgent = value
                case "referer":
                    let referer = value.hasSuffix(";auto") ? String(value.dropLast(5)) : value
                    if !referer.isEmpty { group.referer = referer }
                case "range": group.range = value
                case "url-query": group.urlQueries.append(try urlQuery(value, content: dataContent(ofFile:)))
                case "upload-file": group.uploads.append(value)
                case "config":
                    throw ImportError.invalidCurl("-K \(value) reads more options from a file; run it through curl --libcurl, or paste the options themselves.")
                case "cacert": group.tls.caCertificateFile = value
                case "cert":
                    // curl reads `file:password`; a colon escaped with a backslash is the file's.
                    let (file, password) = Self.certificateAndPassword(value)
                    group.tls.clientCertificateFile = file
                    if let password { group.tls.clientKeyPassword = password }
                case "key": group.tls.clientKeyFile = value
                case "pass": group.tls.clientKeyPassword = value
                case "tlsv1.2": group.tls.minimumVersion = group.tls.minimumVersion ?? .tls1_2
                case "tlsv1.3": group.tls.minimumVersion = .tls1_3
                case "proxy": group.proxy = value
                case "socks5", "socks5-hostname":
                    // As curl reads them: a SOCKS5 proxy, names resolved by it (-hostname) or locally.
                    group.proxy = value.contains("://") ? value : "socks5h://" + value
                case "proxy-user": group.proxyUser = value
                case "noproxy": group.noProxy = value
                case "proxy-basic": if !negated { group.proxyAuthentication = nil }
                case "proxytunnel": break    // explorer always tunnels through a proxy (CONNECT)
                case "proxy-digest", "proxy-ntlm", "proxy-negotiate", "proxy-anyauth":
                    if !negated { group.proxyAuthentication = written }
                case _ where option.hasPrefix("proxy") || option.hasPrefix("socks") || option == "preproxy":
                    group.proxyIgnored.append(value.isEmpty ? written : "\(written) \(value)")
                case "location", "location-trusted", "follow", "insecure", "compressed":
                    // Honoured: explorer follows redirects and decompresses bodies by default.
                    let name = option == "insecure" || option == "compressed" ? option : "location"
                    if negated { group.options.remove(name) } else { group.options.insert(name) }
                case "silent": group.options.insert("silent"); group.ignored.append(written)
                case "dump-header": group.options.insert("dump_header"); group.ignored.append(written)
                default:
                    if CurlImporter.negotiatedAuth.contains(option) {
                        if !negated { group.authentication = option }
                        break
                    }
                    if CurlImporter.outputOnly.contains(option) {
                        group.ignored.append(value.isEmpty ? written : "\(written) \(value)")
                    } else {
                        group.warnings.append("\(written)\(value.isEmpty ? "" : " \(value)") changes how curl connects or sends, which a collection does not keep; it was ignored.")
                    }
                }
            }
        }
        groups.append(group)

        var requests: [Command] = []
        for group in groups {
            if group.urls.isEmpty {
                if groups.count == 1 || !group.data.isEmpty || !group.headers.isEmpty { throw ImportError.invalidCurl("it has no URL.") }
                continue
            }
            for (number, url) in group.urls.enumerated() {
                requests.append(try request(url, upload: number < group.uploads.count ? group.uploads[number] : nil,
                                            group: group, content: dataContent(ofFile:)))
            }
        }
        if !requests.isEmpty { requests[0].warnings += Array(NSOrderedSet(array: readWarnings)).compactMap { $0 as? String } }
        if stdinUsed == false, case .text = standardInput {
            if !requests.isEmpty { requests[0].warnings.append("The text given to curl's standard input is not read (no @- option uses it).") }
        }
        return requests
    }

    /// Adds a `-H` value as curl does: `Name: value` adds, `Name:` removes curl's own header of
    /// that name, `Name;` sends it empty.
    private func addHeader(_ value: String, to group: inout Group) throws {
        if let colon = value.firstIndex(of: ":") {
            let name = value[..<colon].trimmingCharacters(in: .whitespaces)
            let headerValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if headerValue.isEmpty {
                group.removedHeaders.insert(name.lowercased())
                group.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            } else {
                group.headers.append(KeyValue(name, headerValue))
            }
        } else if value.hasSuffix(";") {
            group.headers.append(KeyValue(String(value.dropLast()).trimmingCharacters(in: .whitespaces), ""))
        } else {
            group.warnings.append("The header \"\(value)\" has no colon; curl does not send it either.")
        }
    }

    /// One request of a group: the URL with its query, the method, the headers and the body.
    private func request(_ rawURL: String, upload: String?, group: Group, content: (String) throws -> String?) throws -> Command {
        var url = rawURL
        var warnings = group.warnings
        if !group.ignored.isEmpty {
            warnings.append("Ignored (they do not change the request): \(group.ignored.joined(separator: ", ")).")
        }

        // The body, joined as curl joins several -d (with '&'; --json pieces are concatenated).
        var pieces: [String] = []
        var bodyFile: String?
        var jsonBody = false
        for item in group.data {
            switch item.kind {
            case .ascii:
                pieces.append(item.value.hasPrefix("@")
                    ? (try content(String(item.value.dropFirst())) ?? "").replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
                    : item.value)
            case .raw:
                pieces.append(item.value)
            case .binary:
                if item.value.hasPrefix("@") {
                    let path = String(item.value.dropFirst())
                    if group.data.count == 1, path != "-", !group.getMode, FileManager.default.isReadableFile(atPath: absolutePath(path)) {
                        bodyFile = path  // sent as it is, read at send time like curl reads it
                    } else {
                        pieces.append(try content(path) ?? "")
                    }
                } else {
                    pieces.append(item.value)
                }
            case .json:
                let text = item.value.hasPrefix("@") ? (try content(String(item.value.dropFirst())) ?? "") : item.value
                if jsonBody, let last = pieces.last { pieces[pieces.count - 1] = last + text } else { pieces.append(text) }
                jsonBody = true
            case .urlencode:
                pieces.append(try urlencodeData(item.value, content: content))
            }
        }
        let bodyText: String? = pieces.isEmpty ? nil : pieces.joined(separator: "&")

        var headers: [KeyValue] = []
        func hasHeader(_ name: String) -> Bool {
            group.headers.contains { $0.name.lowercased() == name.lowercased() } || group.removedHeaders.contains(name.lowercased())
        }
        // curl's own headers, each left out when the command sets (or removes) one of that name.
        var auth: Authentication?
        if let user = group.user, !hasHeader("Authorization") {
            if group.authentication == "basic" || group.authentication == "digest" {
                let colon = user.firstIndex(of: ":")
                let name = colon.map { String(user[..<$0]) } ?? user
                let password = colon.map { String(user[user.index(after: $0)...]) } ?? ""
                if colon == nil {
                    warnings.append("curl would ask for the password of \(user); the imported \(group.authentication) auth has an empty one.")
                }
                auth = Authentication(group.authentication == "digest"
                    ? .digest(username: name, password: password) : .basic(username: name, password: password))
            } else {
                warnings.append("--\(group.authentication) authentication is not imported: curl computes it with the server, and sending Basic instead would be a downgrade, so no Authorization header was written; add the credentials to the endpoint by hand.")
            }
        } else if group.user == nil, group.authentication != "basic", group.bearer == nil {
            warnings.append("--\(group.authentication) is ignored: it has no credentials (-u) to use.")
        }
        if let bearer = group.bearer, group.user == nil, !hasHeader("Authorization") {
            auth = Authentication(.bearer(token: bearer))
        }
        if let range = group.range, !hasHeader("Range") {
            headers.append(KeyValue("Range", "bytes=" + range + (range.contains("-") ? "" : "-")))  // curl: -r 600 is 600-
        }
        if let agent = group.userAgent, !hasHeader("User-Agent") { headers.append(KeyValue("User-Agent", agent)) }
        if let referer = group.referer, !hasHeader("Referer") { headers.append(KeyValue("Referer", referer)) }
        let fileCookies = cookies(fromFiles: group.cookieFiles, for: url, warnings: &warnings)
        // curl sends the file's cookies first, then those -b NAME=VALUE wrote.
        let cookie = [fileCookies, group.cookie].compactMap { $0 }.joined(separator: "; ")
        if !cookie.isEmpty, !hasHeader("Cookie") { headers.append(KeyValue("Cookie", cookie)) }
        if let file = group.cookieJarFile {
            warnings.append("-c \(file) is not needed: the cookies servers set are kept in the environment's cookie jar (in the state folder; C in the TUI lists them), not in \(file).")
        }
        headers += group.headers

        var body: String?
        var extraQuery = group.urlQueries
        if group.getMode {
            if let bodyText { extraQuery.append(bodyText) }
        } else if let bodyText {
            body = bodyText
            if jsonBody {
                if !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", "application/json")) }
                if !hasHeader("Accept") { headers.append(KeyValue("Accept", "application/json")) }
            } else if !hasHeader("Content-Type") {
                headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
            }
        } else if bodyFile != nil, !hasHeader("Content-Type") {
            headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
        }
        if !group.form.isEmpty && (body != nil || bodyFile != nil) {
            throw ImportError.invalidCurl("it mixes -F with -d; curl refuses that too.")
        }
        if !group.form.isEmpty && !hasHeader("Content-Type") {
            headers.append(KeyValue("Content-Type", "multipart/form-data"))
        }
        if let upload {
            guard body == nil, bodyFile == nil, group.form.isEmpty else {
                throw ImportError.invalidCurl("it sends both -T \(upload) and other data; curl sends only one body.")
            }
            if upload == "-" || upload == "." {
                body = try content("-") ?? ""
            } else {
                bodyFile = upload
                // curl appends the file's name to a URL that ends in '/' (or has no path).
                let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? Substring(url)
                let pathPart = afterScheme.split(separator: "?", maxSplits: 1).first ?? ""
                if !pathPart.contains("/") {
                    url += "/" + (upload as NSString).lastPathComponent
                } else if pathPart.hasSuffix("/") {
                    url = url.replacingOccurrences(of: String(pathPart), with: pathPart + (upload as NSString).lastPathComponent)
                }
            }
        }
        if !extraQuery.isEmpty {
            if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
            // As curl appends a query: no second '&' after a query that ends with one.
            let separator = !url.contains("?") ? "?" : (url.hasSuffix("&") || url.hasSuffix("?") ? "" : "&")
            url += separator + extraQuery.joined(separator: "&")
        }

        let method: String
        if let explicitMethod = group.explicitMethod {
            method = explicitMethod
        } else if group.head {
            method = "HEAD"
        } else if upload != nil {
            method = "PUT"
        } else if group.getMode {
            method = "GET"
        } else if body != nil || bodyFile != nil || !group.form.isEmpty {
            method = "POST"
        } else {
            method = "GET"
        }
        var tls = group.tls
        tls.insecure = group.options.contains("insecure")
        tls.caCertificateFile = tls.caCertificateFile.map(absolutePath)
        tls.clientCertificateFile = tls.clientCertificateFile.map(absolutePath)
        tls.clientKeyFile = tls.clientKeyFile.map(absolutePath)
        if tls.clientKeyFile != nil, tls.clientCertificateFile == nil {
            warnings.append("--key is given without -E/--cert: curl sends no client certificate, so the key was left out.")
            tls.clientKeyFile = nil
        } else if tls.clientCertificateFile != nil, tls.clientKeyFile == nil {
            // As curl reads -E alone: the key is in the same PEM file as the certificate.
            tls.clientKeyFile = tls.clientCertificateFile
        }
        if tls.insecure {
            warnings.append("-k is kept as tls.insecure: true on the environment: the server's certificate is not checked. Use tls.ca_cert instead where you can.")
        }
        let proxy = Self.proxySetting(of: group, warnings: &warnings)
        return Command(method: HTTPMethod(exactly: method), url: url, headers: headers, body: body, bodyFile: bodyFile,
                       form: group.form, options: group.options, warnings: warnings, auth: auth,
                       tls: tls == TLSSettings() ? nil : tls, proxy: proxy)
    }

    /// `-x`, `-U` and `--noproxy` as the environment's `proxy:`, with a warning for each proxy
    /// option it cannot keep. `-x ""` and `--noproxy '*'` go without a proxy (`proxy: none`).
    private static func proxySetting(of group: Group, warnings: inout [String]) -> ProxySetting? {
        if !group.proxyIgnored.isEmpty {
            warnings.append("\(group.proxyIgnored.joined(separator: ", ")): explorer speaks plain http:// (with Basic authentication) or SOCKS5 (without) to a proxy, "
                + "so these proxy options were not kept; the requests go through the proxy: of the environment without them.")
        }
        let noProxy = group.noProxy.map { NoProxyList($0).entries }
        guard let url = group.proxy?.trimmingCharacters(in: .whitespaces) else {
            if noProxy == ["*"] { return ProxySetting.none }
            if let noProxy, !noProxy.isEmpty {
                warnings.append("--noproxy without -x applies to the proxy variables (HTTP_PROXY …), which a collection does not set; it was not kept. Set NO_PROXY when you send, or give -x too.")
            }
            if group.proxyUser != nil { warnings.append("-U/--proxy-user without -x names no proxy; it was not kept.") }
            return nil
        }
        if url.isEmpty || noProxy == ["*"] { return ProxySetting.none }
        let parsed: ProxyServer
        do {
            parsed = try ProxyServer(parsing: url, source: "-x")
        } catch let failure as ProxyServer.Failure {
            warnings.append("-x \(failure.value) was not kept: \(failure.reason). The requests go without a proxy unless the proxy variables name one.")
            return nil
        } catch {
            return nil
        }
        var setting = ProxySetting.Server(url: url, noProxy: noProxy)
        if parsed.kind == .socks5, let user = group.proxyUser {
            warnings.append("-U \(user.split(separator: ":").first ?? "") was not kept: \(ProxyServer.socksCredentials).")
        } else if let user = group.proxyUser {
            if let colon = user.firstIndex(of: ":") {
                setting.user = String(user[..<colon])
                setting.password = String(user[user.index(after: colon)...])
            } else {
                setting.user = user
                warnings.append("-U \(user) gives no password (curl asks for it); add proxy.password to the environment, e.g. \"{{proxy_password}}\".")
            }
        }
        if let challenge = group.proxyAuthentication {
            let hadCredentials = setting.user != nil || (try? ProxyServer(parsing: url, source: "-x"))?.username != nil
            if hadCredentials {
                // Sending them as Basic would show them to anyone on the path: a silent downgrade.
                setting.user = nil
                setting.password = nil
                setting.url = ProxySetting.withoutCredentials(url)
                warnings.append("\(challenge) answers the proxy's challenge, which explorer cannot do (it sends Basic only); "
                    + "the proxy's user and password were not kept, so they are never sent in a form anyone on the path can read. "
                    + "Add proxy.user and proxy.password if the proxy accepts Basic.")
            } else {
                warnings.append("\(challenge) was ignored: explorer authenticates to a proxy with Basic only.")
            }
        }
        return .server(setting)
    }

    /// `-E`'s `file:password`: the file and the password after the first colon that is not
    /// escaped with a backslash (`\:` is a colon of the file's name).
    static func certificateAndPassword(_ value: String) -> (file: String, password: String?) {
        var file = ""
        var rest = Substring(value)
        while let character = rest.first {
            rest.removeFirst()
            if character == "\\", rest.first == ":" {
                file.append(":")
                rest.removeFirst()
            } else if character == ":" {
                return (file, String(rest))
            } else {
                file.append(character)
            }
        }
        return (file, nil)
    }

    /// The `Cookie` value curl sends to `url` from `-b FILE` cookie files (Netscape format):
    /// the cookies whose domain, path and `Secure` match, unexpired.
    private func cookies(fromFiles files: [String], for rawURL: String, warnings: inout [String]) -> String? {
        guard !files.isEmpty, let url = URL(string: rawURL.contains("://") ? rawURL : "http://" + rawURL) else { return nil }
        var found: [Cookie] = []
        for file in files {
            let text: String
            do {
                text = try readFile(file)
            } catch {
                // curl starts with an empty cookie engine when the file is missing.
                warnings.append("-b \(file) cannot be read, so no cookies come from it (curl sends none from it either).")
                continue
            }
            let read = CookieJar.netscapeCookies(in: text, settingFrom: url)
            for problem in read.problems {
                warnings.append("\(absolutePath(file)):\(problem.line): \(problem.reason); that line was left out.")
            }
            found += read.cookies
        }
        // In curl's order: longest path, then longest domain, then longest name first.
        let sent = found.filter { $0.matches(url) }.sorted {
            ($0.path.count, $0.domain.count, $0.name.count) > ($1.path.count, $1.domain.count, $1.name.count)
        }
        return sent.isEmpty ? nil : sent.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
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
            let parts = URLParts(command.url)
            let prefix = commands.count > 1 ? "\(command.method.rawValue) \(command.url): " : ""
            warnings += command.warnings.map { prefix + $0 }
            if !parts.hasUsableOrigin {
                warnings.append("\(parts.origin) is not an absolute http(s) URL yet; edit the environment's base_url before sending.")
            }
            var body: EndpointBody?
            if !command.form.isEmpty {
                body = .multipart(command.form.map { field in
                    guard field.isFile else { return field }
                    var field = field
                    field.value = absolutePath(field.value)
                    return field
                })
            } else if let file = command.bodyFile {
                body = .file(absolutePath(file))
            } else if let text = command.body {
                body = .raw(text)
            }
            let sentFiles = command.form.filter(\.isFile).map(\.value) + (command.bodyFile.map { [$0] } ?? [])
            for file in sentFiles where !Template.containsVariables(file) && !FileManager.default.fileExists(atPath: absolutePath(file)) {
                warnings.append("\(absolutePath(file)) does not exist; sending \(command.method.rawValue) \(command.url) fails until it does (curl refuses too).")
            }
            let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
            var endpointName = (number == 0 ? name : nil) ?? "\(command.method.rawValue) \(pathName)"
            var suffix = 2
            let baseName = endpointName
            while !usedNames.insert(endpointName).inserted {
                endpointName = "\(baseName) (\(suffix))"
                suffix += 1
            }
            var endpoint = Endpoint(
                name: endpointName,
                method: command.method,
                path: parts.origin + parts.path,
                query: parts.query,
                headers: command.form.isEmpty ? command.headers : command.headers.filter {
                    // multipart's Content-Type is written with its boundary at send time.
                    !($0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/form-data"))
                },
                body: body
            )
            endpoint.auth = command.auth
            items.append(.endpoint(endpoint))
        }
        let (placed, baseURL) = ImportedOrigins.relativeToMainOrigin(items)
        // One environment holds the TLS settings: the first request's, which the others share.
        let tls = commands.lazy.compactMap(\.tls).first
        if Set(commands.map(\.tls)).count > 1 {
            warnings.append("The requests use different TLS options; the environment keeps the first ones given (\(commands.first { $0.tls != nil }.map { "\($0.method.rawValue) \($0.url)" } ?? "")).")
        }
        // The same for the proxy.
        let proxy = commands.lazy.compactMap(\.proxy).first
        if Set(commands.map(\.proxy)).count > 1 {
            warnings.append("The requests use different proxy options; the environment keeps the first ones given (\(commands.first { $0.proxy != nil }.map { "\($0.method.rawValue) \($0.url)" } ?? "")).")
        }
        let environment = Environment(name: "default", baseURLTemplate: baseURL ?? "http://localhost", tls: tls, proxy: proxy)
        let collection = APICollection(name: "Imported from curl", environments: [environment], items: placed)
        return ImportResult(collection: collection, warnings: warnings)
    }

    private func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : baseDirectory.appendingPathComponent(path).path
    }

    private func readFile(_ path: String) throws -> String {
        if path == "-" { throw ImportError.invalidCurl("reading data from standard input (@-) needs a heredoc or a here-string in the pasted text.") }
        if Template.containsVariables(path) {
            throw ImportError.invalidCurl("the file \(path) is named by a shell variable, which is not known when importing; write its path.")
        }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { throw ImportError.unreadableFile(url.path) }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - curl's encodings

    /// `--data-urlencode`'s five forms: `content`, `=content`, `name=content`, `@file`, `name@file`.
    /// A file curl cannot read makes the whole piece empty, as curl sends it.
    private func urlencodeData(_ value: String, content: (String) throws -> String?) throws -> String {
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
    private func urlQuery(_ value: String, content: (String) throws -> String?) throws -> String {
        if value.hasPrefix("+") { return String(value.dropFirst()) }
        return try urlencodeData(value, content: content)
    }

    /// A `-F` value as curl reads it: `name=value`, `name="quoted"`, `name=@file`, `name=<file`,
    /// each optionally followed by `;type=…` and `;filename=…` (`;headers=` is not kept).
    private func formField(_ value: String, literal: Bool, content: (String) throws -> String) throws -> MultipartField {
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
                throw ImportError.invalidCurl("the form field \"\(name)\" sets \(parameter.prefix { $0 != "=" }), which a collection does not keep.")
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
                if stopsAtSemicolon || after.hasPrefix("type=") || after.hasPrefix("filename=") || after.hasPrefix("headers=") || after.hasPrefix("encoder=") {
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
