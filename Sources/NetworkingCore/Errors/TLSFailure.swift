/// Why a TLS handshake failed, as far as the TLS stack says, and which of the `TLSSettings`
/// can fix it.
///
/// `description(host:naming:)` words it with the settings named by the caller: the library's
/// own sentence names the properties (`TLSSettings.caCertificateFile`); an application that
/// reads its settings from a file names its own keys.
public enum TLSFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's certificate is not signed by a CA this machine trusts, or it has expired or
    /// is not valid yet (BoringSSL reports these with one code).
    case untrustedCertificate
    /// The server's certificate is not for the host the request went to.
    case hostnameMismatch
    /// The server asked for a client certificate and none was sent.
    case clientCertificateRequired
    /// The server does not speak TLS on that port.
    case notTLS
    /// No TLS version both sides accept.
    case noCommonVersion
    /// The server ended the handshake with this alert (`TLSV1_ALERT_…`).
    case alert(String)
    /// Anything else, in the TLS stack's words.
    case other(String)

    /// The settings that can fix it, most likely first.
    public var settings: [TLSSettings.Setting] {
        switch self {
        case .untrustedCertificate: return [.caCertificateFile, .insecure]
        case .hostnameMismatch: return [.insecure]
        case .clientCertificateRequired: return [.clientCertificateFile, .clientKeyFile]
        case .noCommonVersion: return [.minimumVersion]
        case .alert: return [.clientCertificateFile, .clientKeyFile, .minimumVersion]
        case .notTLS, .other: return []
        }
    }

    /// Why the connection to `host` failed and what fixes it, the settings named by `name`.
    ///
    /// - Parameters:
    ///   - host: the server's host.
    ///   - name: a setting's name as the reader knows it.
    /// - Returns: a clause (no capital, no final period).
    public func description(host: String, naming name: (TLSSettings.Setting) -> String) -> String {
        let skip = "(\(name(.insecure)) skips the check, for local development only)"
        switch self {
        case .untrustedCertificate:
            return "its certificate is not signed by a CA this machine trusts, or it has expired or is not valid yet; "
                + "set \(name(.caCertificateFile)) to the CA's PEM file \(skip)"
        case .hostnameMismatch:
            return "its certificate is not for \(host) (name mismatch); send to the name it was issued for \(skip)"
        case .clientCertificateRequired:
            return
                "the server refused the handshake: it requires a client certificate; "
                + "set \(name(.clientCertificateFile)) and \(name(.clientKeyFile))"
        case .notTLS:
            return "the server does not speak TLS on that port; use http:// if it serves plain HTTP"
        case .noCommonVersion:
            return "the server refused the handshake: no TLS version both accept; check \(name(.minimumVersion))"
        case .alert(let alert):
            return
                "the server refused the handshake (\(alert)); check \(name(.clientCertificateFile)), "
                + "\(name(.clientKeyFile)) and \(name(.minimumVersion))"
        case .other(let text):
            return text
        }
    }

    /// The clause with the settings named as properties; no host is known here.
    public var description: String { description(host: "the host", naming: \.description) }
}
