import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// The library names what fixes a failure by its own API; the app's sentences name the
/// collection's keys instead.
@Suite struct NetworkingWordingTests {
    @Test func everyTLSSettingIsNamedByAKeyTheCollectionReads() throws {
        // Each key, written as the sentence names it, loads without a warning.
        var lines: [String] = []
        for setting in TLSSettings.Setting.allCases {
            let key = NetworkingWording.key(setting)
            #expect(key.hasPrefix("tls."), "\(setting)")
            let name = String(key.dropFirst("tls.".count).prefix { $0 != ":" })
            lines.append(
                "      \(name): \(setting == .insecure ? "true" : setting == .minimumVersion ? "\"1.2\"" : "x.pem")")
        }
        let yaml =
            "name: t\nenvironments:\n  - name: e\n    base_url: https://h\n    tls:\n" + lines.joined(separator: "\n")
            + "\nendpoints: []\n"
        let collection = try CollectionLoader.parse(yaml, file: "t.yaml")
        #expect(collection.warnings.isEmpty, "\(collection.warnings)")
        let tls = try #require(collection.environments.first?.tls)
        #expect(
            tls.caCertificateFile == "x.pem" && tls.clientKeyPassword == "x.pem" && tls.insecure
                && tls.minimumVersion == .tls1_2)
    }

    @Test func aTLSFileThatDoesNotReadIsNamedByItsKey() {
        let error = #expect(throws: TLSSettings.Failure.self) {
            try TLSSettings(caCertificateFile: "/no/such.pem").tlsConfiguration()
        }
        #expect(error.map(sentence(describing:)) == "tls.ca_cert /no/such.pem cannot be used: there is no such file.")
        let locked = TLSSettings.Failure(
            setting: .clientKeyFile, path: "/k.pem", problem: .encryptedKey(passwordGiven: true))
        #expect(
            sentence(describing: locked)
                == "tls.client_key /k.pem cannot be used: the key is encrypted and tls.client_key_password does not open it."
        )
        #expect(!sentence(describing: locked).contains("TLSSettings"))
    }

    @Test func aHandshakeFailureNamesTheKeysThatFixIt() {
        let untrusted = TransportError.tlsFailure(host: "api.internal", reason: .untrustedCertificate)
        #expect(
            sentence(describing: untrusted)
                == "The secure connection to api.internal failed: its certificate is not signed by a CA this machine trusts, "
                + "or it has expired or is not valid yet; set tls.ca_cert to the CA's PEM file (tls.insecure: true skips the check, for local development only)."
        )
        #expect(
            untrusted.description.contains("TLSSettings.caCertificateFile"), "the library's own sentence names its API")
        let client = WebSocketError.transport(.tlsFailure(host: "ws.internal", reason: .clientCertificateRequired))
        #expect(
            sentence(describing: client).hasSuffix(
                "it requires a client certificate; set tls.client_cert and tls.client_key."))
        let version = TransportError.tlsFailure(host: "old", reason: .noCommonVersion)
        #expect(sentence(describing: version).hasSuffix("check tls.min_version."))
    }

    @Test func anUnreachableProxyPointsAtProxyNone() {
        let gone = TransportError.proxyUnreachable(
            proxy: "http://127.0.0.1:9", source: "the HTTPS_PROXY variable",
            reason: "nothing accepts connections at 127.0.0.1:9")
        #expect(!gone.description.contains("proxy: none"), "the library knows no environments")
        #expect(
            sentence(describing: gone)
                == "The proxy http://127.0.0.1:9 (from the HTTPS_PROXY variable) could not be reached: nothing accepts connections at 127.0.0.1:9. "
                + "Check that it runs and the address is right, or fix the HTTPS_PROXY variable (proxy: none on an environment goes without a proxy)."
        )
    }

    @Test func anOAuth2ErrorNamesTheAuthKeys() {
        let refused = OAuth2Error(.server(status: 400, code: "invalid_scope", description: "unknown scope"))
        #expect(
            sentence(describing: refused)
                == "The OAuth2 token endpoint refused the request (HTTP 400, invalid_scope: unknown scope). Check scope."
        )
        let listener = OAuth2Error(.listenerFailed("port 80: permission denied"))
        #expect(sentence(describing: listener).hasSuffix("Set redirect_port to a free port."))
        // Every key is one the oauth2 auth reads.
        for setting in OAuth2Error.Setting.allCases {
            let key = String(NetworkingWording.key(setting).prefix { $0 != ":" })
            #expect(OAuth2Settings.keys.contains(key), "\(key)")
        }
    }

    @Test func otherErrorsKeepTheLibrarysSentence() {
        let refused = TransportError.connectionRefused(host: "127.0.0.1", port: 9)
        #expect(sentence(describing: refused) == refused.description)
    }
}
