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
        if name.hasPrefix("no-"), flags.contains(String(name.dropFirst(3))) { return .option(String(name.dropFirst(3)), negated: true) }
        let candidates = (withArgument.union(flags)).filter { $0.hasPrefix(name) }.sorted()
        if candidates.count == 1 { return .option(candidates[0], negated: false) }
        if candidates.count > 1 { return .ambiguous(candidates) }
        return .unknown
    }
}
