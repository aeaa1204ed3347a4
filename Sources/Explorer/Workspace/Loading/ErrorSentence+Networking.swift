import NetworkingCore

/// The library's errors in the collection's words.
///
/// `NetworkingCore` names what fixes a failure by its own API (`TLSSettings.caCertificateFile`)
/// and knows nothing of collections; here its TLS settings become the `tls:` keys an
/// environment writes (`tls.ca_cert`) and its proxy failures point at `proxy:`.
package enum NetworkingWording {
    /// A TLS setting as an environment writes it under `tls:`.
    package static func key(_ setting: TLSSettings.Setting) -> String {
        switch setting {
        case .caCertificateFile: return "tls.ca_cert"
        case .clientCertificateFile: return "tls.client_cert"
        case .clientKeyFile: return "tls.client_key"
        case .clientKeyPassword: return "tls.client_key_password"
        case .insecure: return "tls.insecure: true"
        case .minimumVersion: return "tls.min_version"
        }
    }

    /// An OAuth2 setting as an endpoint's `auth:` of `type: oauth2` writes it.
    package static func key(_ setting: OAuth2Error.Setting) -> String {
        switch setting {
        case .clientID: return "client_id"
        case .clientSecret: return "client_secret"
        case .clientAuthentication: return "client_auth: basic or body"
        case .scope: return "scope"
        case .grant: return "grant"
        case .redirectPort: return "redirect_port"
        }
    }

    /// The sentence of a library error in the collection's words, or nil for an error the
    /// library does not word with its own names.
    package static func sentence(for error: any Error) -> String? {
        switch error {
        case let failure as TLSSettings.Failure:
            return failure.description(naming: key)
        case let failure as OAuth2Error:
            return failure.description(naming: key)
        case let transport as TransportError:
            return sentence(for: transport)
        case WebSocketError.transport(let transport):
            return sentence(for: transport)
        default:
            return nil
        }
    }

    private static func sentence(for error: TransportError) -> String? {
        switch error {
        case .tlsFailure(let host, let reason):
            return "The secure connection to \(host) failed: \(reason.description(host: host, naming: key))."
        case .proxyUnreachable:
            return String(error.description.dropLast()) + " (proxy: none on an environment goes without a proxy)."
        default:
            return nil
        }
    }
}
