/// Every option of curl 7.88.1 (the curl on the machine the importer was written on:
/// `curl --help all`), with whether it takes an argument, so a command line is read the way
/// curl reads it and no option ever takes the next word by mistake.
///
/// Options that newer curls added are listed with their arity from curl's documentation
/// (curl.se/docs/manpage.html), so a command written for a newer curl is read right too.
enum CurlOptions {
    /// Long options (without `--`) that take an argument.
    static let withArgument: Set<String> = [
        "abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers", "config",
        "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode", "crlfile",
        "curves", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface",
        "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "egd-file", "engine",
        "etag-compare", "etag-save", "expect100-timeout", "form", "form-string", "ftp-account",
        "ftp-alternative-to-user", "ftp-method", "ftp-port", "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms",
        "header", "help", "hostpubmd5", "hostpubsha256", "hsts", "interface", "json", "keepalive-time", "key",
        "key-type", "krb", "libcurl", "limit-rate", "local-port", "login-options", "mail-auth", "mail-from",
        "mail-rcpt", "max-filesize", "max-redirs", "max-time", "netrc-file", "noproxy", "oauth2-bearer", "output",
        "output-dir", "parallel-max", "pass", "pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir",
        "proxy", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile",
        "proxy-header", "proxy-key", "proxy-key-type", "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name",
        "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "proxy-user", "proxy1.0",
        "pubkey", "quote", "random-file", "range", "rate", "referer", "request", "request-target", "resolve", "retry",
        "retry-delay", "retry-max-time", "sasl-authzid", "service-name", "socks4", "socks4a", "socks5",
        "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "stderr", "telnet-option",
        "tftp-blksize", "time-cond", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "trace",
        "trace-ascii", "unix-socket", "upload-file", "url", "url-query", "user", "user-agent", "write-out",
        // Newer than 7.88.1 (curl's manual: added in 8.x).
        "variable", "haproxy-clientip", "trace-config", "ipfs-gateway", "ech", "ip-tos", "vlan-priority",
        "ssl-sessions", "upload-flags", "sigalgs", "knownhosts", "parallel-max-host", "keepalive-cnt",
    ]

    /// Long options (without `--`) that take no argument; `--no-NAME` turns one off.
    static let flags: Set<String> = [
        "anyauth", "append", "basic", "cert-status", "compressed", "compressed-ssh", "create-dirs", "crlf", "digest",
        "disable", "disable-eprt", "disable-epsv", "disallow-username-in-url", "doh-cert-status", "doh-insecure",
        "fail", "fail-early", "fail-with-body", "false-start", "form-escape", "ftp-create-dirs", "ftp-pasv",
        "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-control", "get", "globoff", "haproxy-protocol",
        "head", "http0.9", "http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only",
        "ignore-content-length", "include", "insecure", "ipv4", "ipv6", "junk-session-cookies", "list-only",
        "location", "location-trusted", "mail-rcpt-allowfails", "manual", "metalink", "negotiate", "netrc",
        "netrc-optional", "next", "no-alpn", "no-buffer", "no-clobber", "no-keepalive", "no-npn", "no-progress-meter",
        "no-sessionid", "ntlm", "ntlm-wb", "parallel", "parallel-immediate", "path-as-is", "post301", "post302",
        "post303", "progress-bar", "proxy-anyauth", "proxy-basic", "proxy-digest", "proxy-insecure",
        "proxy-negotiate", "proxy-ntlm", "proxy-ssl-allow-beast", "proxy-ssl-auto-client-cert", "proxy-tlsv1",
        "proxytunnel", "raw", "remote-header-name", "remote-name", "remote-name-all", "remote-time",
        "remove-on-error", "retry-all-errors", "retry-connrefused", "sasl-ir", "show-error", "silent", "socks5-basic",
        "socks5-gssapi", "socks5-gssapi-nec", "ssl", "ssl-allow-beast", "ssl-auto-client-cert", "ssl-no-revoke",
        "ssl-reqd", "ssl-revoke-best-effort", "sslv2", "sslv3", "styled-output", "suppress-connect-headers",
        "tcp-fastopen", "tcp-nodelay", "tftp-no-options", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3",
        "tr-encoding", "trace-time", "use-ascii", "verbose", "version", "xattr",
        // Newer than 7.88.1 (curl's manual: added in 8.x).
        "ca-native", "proxy-ca-native", "trace-ids", "dump-ca-embed", "mptcp", "skip-existing", "tls-earlydata",
        "follow", "out-null", "proxy-http2",
    ]

    /// Short options: the letter, then the long name it stands for.
    static let short: [Character: String] = {
        var table: [Character: String] = [:]
        for entry in shortNames { table[entry.first!] = String(entry.dropFirst()) }
        return table
    }()

    private static let shortNames = [
        "aappend", "Ecert", "Kconfig", "Ccontinue-at", "bcookie", "ccookie-jar", "ddata", "qdisable", "Ddump-header",
        "ffail", "Fform", "Pftp-port", "Gget", "ggloboff", "Ihead", "Hheader", "hhelp", "0http1.0", "iinclude",
        "kinsecure", "4ipv4", "6ipv6", "jjunk-session-cookies", "llist-only", "Llocation", "Mmanual", "mmax-time",
        "nnetrc", ":next", "Nno-buffer", "ooutput", "Zparallel", "#progress-bar", "xproxy", "Uproxy-user",
        "pproxytunnel", "Qquote", "rrange", "ereferer", "Jremote-header-name", "Oremote-name", "Rremote-time",
        "Xrequest", "Sshow-error", "ssilent", "Yspeed-limit", "yspeed-time", "2sslv2", "3sslv3", "ttelnet-option",
        "ztime-cond", "1tlsv1", "Tupload-file", "Buse-ascii", "uuser", "Auser-agent", "vverbose", "Vversion",
        "wwrite-out",
    ]

    /// An option as curl reads it from a command line word.
    enum Match: Equatable {
        /// A known long option (its full name), and whether it was written as `--no-NAME`.
        case option(String, negated: Bool)
        /// A prefix that fits several options.
        case ambiguous([String])
        /// No option of that name.
        case unknown
    }

    /// Finds a long option the way curl does: the exact name, `--no-NAME` of a flag, or an
    /// unambiguous prefix (`--sil` is `--silent`).
    ///
    /// - Parameter name: the word without its leading `--`.
    static func match(_ name: String) -> Match {
        if withArgument.contains(name) || flags.contains(name) { return .option(name, negated: false) }
        if name.hasPrefix("no-"), flags.contains(String(name.dropFirst(3))) {
            return .option(String(name.dropFirst(3)), negated: true)
        }
        let candidates = (withArgument.union(flags)).filter { $0.hasPrefix(name) }.sorted()
        if candidates.count == 1 { return .option(candidates[0], negated: false) }
        if candidates.count > 1 { return .ambiguous(candidates) }
        return .unknown
    }
}

extension CurlOptions {
    /// One option as a command line gives it, with the argument it takes.
    struct Given: Sendable, Hashable {
        /// The long name, without `--` (`request` for `-X`).
        var name: String
        /// The argument; empty for an option that takes none.
        var value: String
        /// Whether a flag was written as `--no-NAME`.
        var negated: Bool
        /// How the option was written (`-X`, `--req`), for the warnings that name it.
        var written: String
    }

    /// What one word of a command line is, once read.
    enum Argument: Sendable, Hashable {
        /// A word that is not an option: a URL.
        case url(String)
        /// The options a word holds: one for a long option, one or more for a cluster of
        /// short ones (`-sSL`).
        case options([Given])
    }

    /// Reads the words after `curl` one at a time, as curl reads them: an option that takes an
    /// argument takes the rest of its word or the next word, whatever that word looks like.
    struct Reader {
        private let words: [String]
        private var index = 0

        /// Creates a reader of the words after `curl`.
        init(_ words: [String]) {
            self.words = words
        }

        /// The next word, read with the value it takes; `nil` after the last one.
        ///
        /// - Throws: `ImportError.invalidCurl` for an option curl does not know, a prefix that
        ///   fits several options, or an option whose argument is missing.
        mutating func next() throws -> Argument? {
            guard let word = takeWord() else { return nil }
            if word.hasPrefix("--") && word.count > 2 { return .options([try longOption(word)]) }
            if word.hasPrefix("-") && word.count > 1 { return .options(try shortOptions(word)) }
            return .url(word)
        }

        /// `--name`, `--no-name`, `--name value`, a prefix of a name, or `--name=value`.
        private mutating func longOption(_ word: String) throws -> Given {
            var name = String(word.dropFirst(2))
            var attached: String?
            // curl itself has no `--name=value`; it is accepted for a known option that takes a value.
            if let equals = name.firstIndex(of: "="), CurlOptions.withArgument.contains(String(name[..<equals])) {
                attached = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            switch CurlOptions.match(name) {
            case .option(let long, let negated):
                guard CurlOptions.withArgument.contains(long) else {
                    return Given(name: long, value: "", negated: negated, written: word)
                }
                guard let value = attached ?? takeWord() else {
                    throw ImportError.invalidCurl("the option \(word) needs a value.")
                }
                return Given(name: long, value: value, negated: false, written: word)
            case .ambiguous(let candidates):
                throw ImportError.invalidCurl(
                    "the option \(word) could be any of \(candidates.map { "--" + $0 }.joined(separator: ", ")); "
                        + "curl refuses it too."
                )
            case .unknown:
                throw ImportError.invalidCurl(
                    "curl does not know the option \(word) (curl 7.88.1 and the newer "
                        + "options of curl's manual were checked); curl refuses it too."
                )
            }
        }

        /// `-x`, a cluster `-sSL`, and a letter's argument written after it (`-XPOST`) or as the
        /// next word; the letter that takes an argument ends the cluster.
        private mutating func shortOptions(_ word: String) throws -> [Given] {
            var options: [Given] = []
            var letters = Substring(word.dropFirst())
            while let letter = letters.popFirst() {
                guard let long = CurlOptions.short[letter] else {
                    throw ImportError.invalidCurl(
                        "curl does not know the option -\(letter) (in \(word)); curl refuses it too.")
                }
                guard CurlOptions.withArgument.contains(long) else {
                    options.append(Given(name: long, value: "", negated: false, written: "-\(letter)"))
                    continue
                }
                guard let value = letters.isEmpty ? takeWord() : String(letters) else {
                    throw ImportError.invalidCurl("the option -\(letter) needs a value.")
                }
                options.append(Given(name: long, value: value, negated: false, written: "-\(letter)"))
                break
            }
            return options
        }

        private mutating func takeWord() -> String? {
            guard index < words.count else { return nil }
            defer { index += 1 }
            return words[index]
        }
    }
}
