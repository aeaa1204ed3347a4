import Foundation
import NetworkingCore
import Workspace

/// The request builder: one `--next` group's options, and one of its URLs, become the request
/// curl would send, step by step: the data, the credentials, the headers curl implies, where
/// the data goes, `-T`, the query, the method, TLS and the proxy.
extension CurlImporter {
    /// The data of the `-d` family, joined as curl joins it.
    struct DataBody {
        /// The pieces joined with `&` (`--json` pieces run together); `nil` without data.
        var text: String?
        /// A single `--data-binary @file`, sent as it is when the request is sent.
        var file: String?
        /// Whether `--json` gave data (and with it the JSON `Content-Type` and `Accept`).
        var isJSON = false
    }

    /// What the request carries once `-G`, `-F` and `-T` have had their say.
    struct Payload {
        /// The body text.
        var body: String?
        /// The file sent as the body.
        var bodyFile: String?
        /// What is appended to the URL's query: `--url-query`, then the data with `-G`.
        var extraQuery: [String]
    }

    /// One request of a group: the URL with its query, the method, the headers and the body.
    ///
    /// - Throws: `ImportError.invalidCurl` for `-F` mixed with `-d`, `-T` with other data, or a
    ///   data file named by a shell variable.
    func request(_ rawURL: String, upload: String?, group: Group, content: (String) throws -> String?) throws -> Command
    {
        var warnings = group.warnings
        if !group.ignored.isEmpty {
            warnings.append("Ignored (they do not change the request): \(group.ignored.joined(separator: ", ")).")
        }
        let data = try dataBody(of: group, content: content)
        let auth = Self.authentication(of: group, warnings: &warnings)
        var headers = impliedHeaders(of: group, url: rawURL, warnings: &warnings) + group.headers
        var payload = try Self.payload(of: group, data: data, headers: &headers)
        var url = rawURL
        if let upload { try send(upload, in: &payload, url: &url, group: group, content: content) }
        url = Self.appendingQuery(payload.extraQuery, to: url)
        let method = Self.method(of: group, upload: upload, payload: payload)
        let tls = tlsSettings(of: group, warnings: &warnings)
        let proxy = Self.proxySetting(of: group, warnings: &warnings)
        return Command(
            method: HTTPMethod(exactly: method), url: url, headers: headers, body: payload.body,
            bodyFile: payload.bodyFile,
            form: group.form, options: group.options, warnings: warnings, auth: auth, tls: tls, proxy: proxy)
    }

    /// The body, joined as curl joins several -d (with '&'; --json pieces are concatenated).
    private func dataBody(of group: Group, content: (String) throws -> String?) throws -> DataBody {
        var pieces: [String] = []
        var data = DataBody()
        for item in group.data {
            switch item.kind {
            case .ascii:
                pieces.append(
                    item.value.hasPrefix("@")
                        ? (try content(String(item.value.dropFirst())) ?? "").replacingOccurrences(of: "\r", with: "")
                            .replacingOccurrences(of: "\n", with: "")
                        : item.value)
            case .raw:
                pieces.append(item.value)
            case .binary:
                if item.value.hasPrefix("@") {
                    let path = String(item.value.dropFirst())
                    if group.data.count == 1, path != "-", !group.getMode,
                        FileManager.default.isReadableFile(atPath: absolutePath(path))
                    {
                        data.file = path  // sent as it is, read at send time like curl reads it
                    } else {
                        pieces.append(try content(path) ?? "")
                    }
                } else {
                    pieces.append(item.value)
                }
            case .json:
                let text = item.value.hasPrefix("@") ? (try content(String(item.value.dropFirst())) ?? "") : item.value
                if data.isJSON, let last = pieces.last {
                    pieces[pieces.count - 1] = last + text
                } else {
                    pieces.append(text)
                }
                data.isJSON = true
            case .urlencode:
                pieces.append(try Self.urlencodeData(item.value, content: content))
            }
        }
        data.text = pieces.isEmpty ? nil : pieces.joined(separator: "&")
        return data
    }

    /// The endpoint's `auth:` from `-u` (basic or digest) or `--oauth2-bearer`, unless the
    /// command writes its own `Authorization`; challenge-based schemes are warned about.
    private static func authentication(of group: Group, warnings: inout [String]) -> Authentication? {
        var auth: Authentication?
        if let user = group.user, !group.writes(header: "Authorization") {
            if group.authentication == "basic" || group.authentication == "digest" {
                let colon = user.firstIndex(of: ":")
                let name = colon.map { String(user[..<$0]) } ?? user
                let password = colon.map { String(user[user.index(after: $0)...]) } ?? ""
                if colon == nil {
                    warnings.append(
                        "curl would ask for the password of \(user); "
                            + "the imported \(group.authentication) auth has an empty one."
                    )
                }
                auth = Authentication(
                    group.authentication == "digest"
                        ? .digest(username: name, password: password) : .basic(username: name, password: password))
            } else {
                warnings.append(
                    "--\(group.authentication) authentication is not imported: curl computes it with the server, "
                        + "and sending Basic instead would be a downgrade, so no Authorization header was written; "
                        + "add the credentials to the endpoint by hand."
                )
            }
        } else if group.user == nil, group.authentication != "basic", group.bearer == nil {
            warnings.append("--\(group.authentication) is ignored: it has no credentials (-u) to use.")
        }
        if let bearer = group.bearer, group.user == nil, !group.writes(header: "Authorization") {
            auth = Authentication(.bearer(token: bearer))
        }
        return auth
    }

    /// curl's own headers (`-r` → `Range`, `-A` → `User-Agent`, `-e` → `Referer`, `-b` →
    /// `Cookie`), each left out when the command sets (or removes) one of that name.
    private func impliedHeaders(of group: Group, url: String, warnings: inout [String]) -> [KeyValue] {
        var headers: [KeyValue] = []
        if let range = group.range, !group.writes(header: "Range") {
            // curl: -r 600 is 600-
            headers.append(KeyValue("Range", "bytes=" + range + (range.contains("-") ? "" : "-")))
        }
        if let agent = group.userAgent, !group.writes(header: "User-Agent") {
            headers.append(KeyValue("User-Agent", agent))
        }
        if let referer = group.referer, !group.writes(header: "Referer") {
            headers.append(KeyValue("Referer", referer))
        }
        let fileCookies = cookies(fromFiles: group.cookieFiles, for: url, warnings: &warnings)
        // curl sends the file's cookies first, then those -b NAME=VALUE wrote.
        let cookie = [fileCookies, group.cookie].compactMap { $0 }.joined(separator: "; ")
        if !cookie.isEmpty, !group.writes(header: "Cookie") { headers.append(KeyValue("Cookie", cookie)) }
        if let file = group.cookieJarFile {
            warnings.append(
                "-c \(file) is not needed: the cookies servers set are kept in the environment's cookie jar (in the "
                    + "state folder; C in the TUI lists them), not in \(file)."
            )
        }
        return headers
    }

    /// The `Cookie` value curl sends to `url` from `-b FILE` cookie files (Netscape format):
    /// the cookies whose domain, path and `Secure` match, unexpired.
    private func cookies(fromFiles files: [String], for rawURL: String, warnings: inout [String]) -> String? {
        guard !files.isEmpty, let url = URL(string: rawURL.contains("://") ? rawURL : "http://" + rawURL) else {
            return nil
        }
        var found: [Cookie] = []
        for file in files {
            let text: String
            do {
                text = try readFile(file)
            } catch {
                // curl starts with an empty cookie engine when the file is missing.
                warnings.append(
                    "-b \(file) cannot be read, so no cookies come from it (curl sends none from it either).")
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

    /// Where the data goes: the query with `-G`, else the body, with the `Content-Type` curl
    /// implies for it (form, JSON, multipart) unless the command sets one.
    ///
    /// - Throws: `ImportError.invalidCurl` for `-F` mixed with `-d`, which curl refuses.
    private static func payload(of group: Group, data: DataBody, headers: inout [KeyValue]) throws -> Payload {
        var payload = Payload(body: nil, bodyFile: data.file, extraQuery: group.urlQueries)
        if group.getMode {
            if let text = data.text { payload.extraQuery.append(text) }
        } else if let text = data.text {
            payload.body = text
            if data.isJSON {
                if !group.writes(header: "Content-Type") {
                    headers.append(KeyValue("Content-Type", "application/json"))
                }
                if !group.writes(header: "Accept") { headers.append(KeyValue("Accept", "application/json")) }
            } else if !group.writes(header: "Content-Type") {
                headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
            }
        } else if data.file != nil, !group.writes(header: "Content-Type") {
            headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
        }
        if !group.form.isEmpty && (payload.body != nil || payload.bodyFile != nil) {
            throw ImportError.invalidCurl("it mixes -F with -d; curl refuses that too.")
        }
        if !group.form.isEmpty && !group.writes(header: "Content-Type") {
            headers.append(KeyValue("Content-Type", "multipart/form-data"))
        }
        return payload
    }

    /// `-T`: the file (or the standard input for `-` and `.`) becomes the body, and a URL that
    /// ends in '/' (or has no path) gets the file's name, as curl appends it.
    ///
    /// - Throws: `ImportError.invalidCurl` when the request has other data too.
    private func send(
        _ upload: String, in payload: inout Payload, url: inout String, group: Group,
        content: (String) throws -> String?
    ) throws {
        guard payload.body == nil, payload.bodyFile == nil, group.form.isEmpty else {
            throw ImportError.invalidCurl("it sends both -T \(upload) and other data; curl sends only one body.")
        }
        if upload == "-" || upload == "." {
            payload.body = try content("-") ?? ""
            return
        }
        payload.bodyFile = upload
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? Substring(url)
        let pathPart = afterScheme.split(separator: "?", maxSplits: 1).first ?? ""
        if !pathPart.contains("/") {
            url += "/" + (upload as NSString).lastPathComponent
        } else if pathPart.hasSuffix("/") {
            url = url.replacingOccurrences(
                of: String(pathPart), with: pathPart + (upload as NSString).lastPathComponent)
        }
    }

    /// The URL with `--url-query` and `-G` data appended to its query (its fragment dropped),
    /// as curl appends them: no second '&' after a query that ends with one.
    private static func appendingQuery(_ extraQuery: [String], to url: String) -> String {
        guard !extraQuery.isEmpty else { return url }
        var url = url
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        let separator = !url.contains("?") ? "?" : (url.hasSuffix("&") || url.hasSuffix("?") ? "" : "&")
        return url + separator + extraQuery.joined(separator: "&")
    }

    /// The method curl sends: `-X` as written, else `HEAD` for `-I`, `PUT` for `-T`, `GET` for
    /// `-G`, `POST` with a body, `GET` without.
    private static func method(of group: Group, upload: String?, payload: Payload) -> String {
        if let explicitMethod = group.explicitMethod { return explicitMethod }
        if group.head { return "HEAD" }
        if upload != nil { return "PUT" }
        if group.getMode { return "GET" }
        if payload.body != nil || payload.bodyFile != nil || !group.form.isEmpty { return "POST" }
        return "GET"
    }

    /// The environment's `tls:` from `--cacert`, `-E`, `--key`, `--pass`, `-k` and the TLS
    /// versions (files made absolute); `nil` when the command gives none.
    private func tlsSettings(of group: Group, warnings: inout [String]) -> TLSSettings? {
        var tls = group.tls
        tls.insecure = group.options.contains("insecure")
        tls.caCertificateFile = tls.caCertificateFile.map(absolutePath)
        tls.clientCertificateFile = tls.clientCertificateFile.map(absolutePath)
        tls.clientKeyFile = tls.clientKeyFile.map(absolutePath)
        if tls.clientKeyFile != nil, tls.clientCertificateFile == nil {
            warnings.append(
                "--key is given without -E/--cert: curl sends no client certificate, so the key was left out.")
            tls.clientKeyFile = nil
        } else if tls.clientCertificateFile != nil, tls.clientKeyFile == nil {
            // As curl reads -E alone: the key is in the same PEM file as the certificate.
            tls.clientKeyFile = tls.clientCertificateFile
        }
        if tls.insecure {
            warnings.append(
                "-k is kept as tls.insecure: true on the environment: the server's certificate is not checked. "
                    + "Use tls.ca_cert instead where you can."
            )
        }
        return tls == TLSSettings() ? nil : tls
    }

    /// `-x`, `-U` and `--noproxy` as the environment's `proxy:`, with a warning for each proxy
    /// option it cannot keep. `-x ""` and `--noproxy '*'` go without a proxy (`proxy: none`).
    private static func proxySetting(of group: Group, warnings: inout [String]) -> ProxySetting? {
        if !group.proxyIgnored.isEmpty {
            warnings.append(
                "\(group.proxyIgnored.joined(separator: ", ")): explorer speaks plain http:// (with Basic "
                    + "authentication) or SOCKS5 (without) to a proxy, "
                    + "so these proxy options were not kept; "
                    + "the requests go through the proxy: of the environment without them."
            )
        }
        let noProxy = group.noProxy.map { NoProxyList($0).entries }
        guard let url = group.proxy?.trimmingCharacters(in: .whitespaces) else {
            if noProxy == ["*"] { return ProxySetting.none }
            if let noProxy, !noProxy.isEmpty {
                warnings.append(
                    "--noproxy without -x applies to the proxy variables (HTTP_PROXY …), which a collection does not "
                        + "set; it was not kept. Set NO_PROXY when you send, or give -x too."
                )
            }
            if group.proxyUser != nil { warnings.append("-U/--proxy-user without -x names no proxy; it was not kept.") }
            return nil
        }
        if url.isEmpty || noProxy == ["*"] { return ProxySetting.none }
        let parsed: ProxyServer
        do {
            parsed = try ProxyServer(parsing: url, source: "-x")
        } catch let failure as ProxyServer.Failure {
            warnings.append(
                "-x \(failure.value) was not kept: \(failure.reason). "
                    + "The requests go without a proxy unless the proxy variables name one."
            )
            return nil
        } catch {
            return nil
        }
        var setting = ProxySetting.Server(url: url, noProxy: noProxy)
        if parsed.kind == .socks5, let user = group.proxyUser {
            warnings.append(
                "-U \(user.split(separator: ":").first ?? "") was not kept: \(ProxyServer.socksCredentials).")
        } else if let user = group.proxyUser {
            if let colon = user.firstIndex(of: ":") {
                setting.user = String(user[..<colon])
                setting.password = String(user[user.index(after: colon)...])
            } else {
                setting.user = user
                warnings.append(
                    "-U \(user) gives no password (curl asks for it); "
                        + "add proxy.password to the environment, e.g. \"{{proxy_password}}\"."
                )
            }
        }
        if let challenge = group.proxyAuthentication {
            let hadCredentials = setting.user != nil || (try? ProxyServer(parsing: url, source: "-x"))?.username != nil
            if hadCredentials {
                // Sending them as Basic would show them to anyone on the path: a silent downgrade.
                setting.user = nil
                setting.password = nil
                setting.url = ProxySetting.withoutCredentials(url)
                warnings.append(
                    "\(challenge) answers the proxy's challenge, which explorer cannot do (it sends Basic only); "
                        + "the proxy's user and password were not kept, "
                        + "so they are never sent in a form anyone on the path can read. "
                        + "Add proxy.user and proxy.password if the proxy accepts Basic.")
            } else {
                warnings.append("\(challenge) was ignored: explorer authenticates to a proxy with Basic only.")
            }
        }
        return .server(setting)
    }
}
