import Foundation
import NetworkingCore
import Workspace

extension CurlImporter {
    /// How a data option encodes its value (`-d`, `--data-raw`, `--data-binary`,
    /// `--data-urlencode`, `--json`).
    enum DataKind { case ascii, raw, binary, urlencode, json }

    /// The options of one `--next` group, shared by its URLs.
    struct Group {
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

        /// Whether the command writes a header of that name itself, or removes curl's own with
        /// `-H 'Name:'`: either way curl does not add the one an option implies.
        func writes(header name: String) -> Bool {
            headers.contains { $0.name.lowercased() == name.lowercased() } || removedHeaders.contains(name.lowercased())
        }
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
}

extension CurlOptions.Given {
    /// The option and its argument as the command wrote them, for the lists of what was ignored.
    var asWritten: String {
        value.isEmpty ? written : "\(written) \(value)"
    }
}

// MARK: - What each option does

extension CurlImporter.Group {
    /// Records what one option says about this group's requests, as curl reads it.
    ///
    /// The options are taken by what they change (the request line, the body, the headers, the
    /// credentials, TLS, the proxy); the rest are listed as ignored or warned about.
    /// - Throws: `ImportError.invalidCurl` for `-K`, a malformed `-F`, or a file named by a
    ///   shell variable; `ImportError.unreadableFile` for an unreadable `-H @file` or `-F` file.
    mutating func apply(_ option: CurlOptions.Given, reading reader: inout CurlDataReader) throws {
        if try applyRequestLineOption(option, reading: &reader) { return }
        if try applyBodyOption(option, reading: &reader) { return }
        if try applyHeaderOption(option, reading: &reader) { return }
        if applyCredentialOption(option) { return }
        if applyTLSOption(option) { return }
        if applyProxyOption(option) { return }
        try applyOtherOption(option)
    }

    /// The URL, the method, `-G` and `--url-query`.
    private mutating func applyRequestLineOption(_ option: CurlOptions.Given, reading reader: inout CurlDataReader)
        throws -> Bool
    {
        switch option.name {
        case "url": urls.append(option.value)
        case "request": explicitMethod = option.value
        case "get": getMode = !option.negated
        case "head": head = !option.negated
        case "url-query":
            urlQueries.append(try CurlImporter.urlQuery(option.value) { try reader.dataContent(ofFile: $0) })
        default: return false
        }
        return true
    }

    /// The data options, `-F` and `-T`.
    private mutating func applyBodyOption(_ option: CurlOptions.Given, reading reader: inout CurlDataReader) throws
        -> Bool
    {
        switch option.name {
        case "data", "data-ascii": data.append((.ascii, option.value))
        case "data-raw": data.append((.raw, option.value))
        case "data-binary": data.append((.binary, option.value))
        case "data-urlencode": data.append((.urlencode, option.value))
        case "json": data.append((.json, option.value))
        case "form", "form-string":
            form.append(
                try CurlImporter.formField(option.value, literal: option.name == "form-string") {
                    try reader.content(ofFile: $0)
                })
        case "upload-file": uploads.append(option.value)
        default: return false
        }
        return true
    }

    /// `-H` and the options that imply a header (`-b`, `-A`, `-e`, `-r`), and `-c`.
    private mutating func applyHeaderOption(_ option: CurlOptions.Given, reading reader: inout CurlDataReader) throws
        -> Bool
    {
        let value = option.value
        switch option.name {
        case "header":
            if value.hasPrefix("@") {
                for line in try reader.content(ofFile: String(value.dropFirst())).split(whereSeparator: \.isNewline) {
                    addHeader(String(line))
                }
            } else {
                addHeader(value)
            }
        case "cookie":
            // As curl reads -b: a value with '=' is cookies, anything else a file of them.
            if value.contains("=") {
                cookie = cookie.map { $0 + "; " + value } ?? value
            } else {
                cookieFiles.append(value)
            }
        case "cookie-jar": cookieJarFile = value
        case "user-agent": userAgent = value
        case "referer":
            let referer = value.hasSuffix(";auto") ? String(value.dropLast(5)) : value
            if !referer.isEmpty { self.referer = referer }
        case "range": range = value
        default: return false
        }
        return true
    }

    /// Adds a `-H` value as curl does: `Name: value` adds, `Name:` removes curl's own header of
    /// that name, `Name;` sends it empty.
    private mutating func addHeader(_ value: String) {
        if let colon = value.firstIndex(of: ":") {
            let name = value[..<colon].trimmingCharacters(in: .whitespaces)
            let headerValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if headerValue.isEmpty {
                removedHeaders.insert(name.lowercased())
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
            } else {
                headers.append(KeyValue(name, headerValue))
            }
        } else if value.hasSuffix(";") {
            headers.append(KeyValue(String(value.dropLast()).trimmingCharacters(in: .whitespaces), ""))
        } else {
            warnings.append("The header \"\(value)\" has no colon; curl does not send it either.")
        }
    }

    /// `-u`, `--oauth2-bearer` and the authentication schemes (`--basic`, `--digest` …).
    private mutating func applyCredentialOption(_ option: CurlOptions.Given) -> Bool {
        switch option.name {
        case "user": user = option.value
        case "basic": if !option.negated { authentication = "basic" }
        case "oauth2-bearer": bearer = option.value
        case _ where CurlImporter.negotiatedAuth.contains(option.name):
            if !option.negated { authentication = option.name }
        default: return false
        }
        return true
    }

    /// The certificates, the key and the minimum TLS version.
    private mutating func applyTLSOption(_ option: CurlOptions.Given) -> Bool {
        switch option.name {
        case "cacert": tls.caCertificateFile = option.value
        case "cert":
            // curl reads `file:password`; a colon escaped with a backslash is the file's.
            let (file, password) = CurlImporter.certificateAndPassword(option.value)
            tls.clientCertificateFile = file
            if let password { tls.clientKeyPassword = password }
        case "key": tls.clientKeyFile = option.value
        case "pass": tls.clientKeyPassword = option.value
        case "tlsv1.2": tls.minimumVersion = tls.minimumVersion ?? .tls1_2
        case "tlsv1.3": tls.minimumVersion = .tls1_3
        default: return false
        }
        return true
    }

    /// `-x`, `--socks5`, `-U`, `--noproxy`, how to authenticate to the proxy, and the proxy
    /// options a collection cannot keep.
    private mutating func applyProxyOption(_ option: CurlOptions.Given) -> Bool {
        let value = option.value
        switch option.name {
        case "proxy": proxy = value
        case "socks5", "socks5-hostname":
            // As curl reads them: a SOCKS5 proxy, names resolved by it (-hostname) or locally.
            proxy = value.contains("://") ? value : "socks5h://" + value
        case "proxy-user": proxyUser = value
        case "noproxy": noProxy = value
        case "proxy-basic": if !option.negated { proxyAuthentication = nil }
        case "proxytunnel": break  // explorer always tunnels through a proxy (CONNECT)
        case "proxy-digest", "proxy-ntlm", "proxy-negotiate", "proxy-anyauth":
            if !option.negated { proxyAuthentication = option.written }
        case let name where name.hasPrefix("proxy") || name.hasPrefix("socks") || name == "preproxy":
            proxyIgnored.append(option.asWritten)
        default: return false
        }
        return true
    }

    /// What explorer does anyway (`-L`, `-k`, `--compressed`), `-K`, and every option that
    /// does not change the request (ignored) or changes it in a way a collection does not keep
    /// (warned about).
    private mutating func applyOtherOption(_ option: CurlOptions.Given) throws {
        switch option.name {
        case "config":
            throw ImportError.invalidCurl(
                "-K \(option.value) reads more options from a file; "
                    + "run it through curl --libcurl, or paste the options themselves."
            )
        case "location", "location-trusted", "follow", "insecure", "compressed":
            // Honoured: explorer follows redirects and decompresses bodies by default.
            let name = option.name == "insecure" || option.name == "compressed" ? option.name : "location"
            if option.negated { options.remove(name) } else { options.insert(name) }
        case "silent":
            options.insert("silent")
            ignored.append(option.written)
        case "dump-header":
            options.insert("dump_header")
            ignored.append(option.written)
        case _ where CurlImporter.outputOnly.contains(option.name): ignored.append(option.asWritten)
        default:
            warnings.append(
                "\(option.asWritten) changes how curl connects or sends, "
                    + "which a collection does not keep; it was ignored."
            )
        }
    }
}
