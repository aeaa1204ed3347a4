import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// `tls:` on an environment: read, checked at its line, written back, files found beside the
/// collection.
@Suite struct TLSSettingsLoadingTests {
    let yaml = """
        name: t
        environments:
          - name: mtls
            base_url: https://127.0.0.1:8443
            tls:
              ca_cert: certs/ca.pem
              client_cert: /etc/explorer/client.pem
              client_key: certs/client.key
              client_key_password: "{{key_password}}"
              min_version: "1.3"
          - name: dev
            base_url: https://localhost:8443
            tls: { insecure: true }
        endpoints: []
        """

    @Test func tlsIsReadWrittenBackAndItsFilesAreFoundBesideTheCollection() throws {
        let collection = try CollectionLoader.parse(yaml, file: "t.yaml")
        let mtls = try #require(collection.environments.first?.tls)
        #expect(
            mtls
                == TLSSettings(
                    caCertificateFile: "certs/ca.pem", clientCertificateFile: "/etc/explorer/client.pem",
                    clientKeyFile: "certs/client.key", clientKeyPassword: "{{key_password}}", minimumVersion: .tls1_3))
        #expect(collection.environments[1].tls == TLSSettings(insecure: true))

        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(reread == collection)

        let resolved = try #require(
            collection.environments[0].tlsSettings(collectionFile: URL(fileURLWithPath: "/work/api/t.yaml")))
        #expect(resolved.caCertificateFile == "/work/api/certs/ca.pem")
        #expect(resolved.clientCertificateFile == "/etc/explorer/client.pem")
        #expect(resolved.clientKeyFile == "/work/api/certs/client.key")
    }

    @Test(arguments: [
        ("tls: yes", "t.yaml:5:", "a mapping"),
        ("tls: { insecure: maybe }", "t.yaml:5:", "true or false"),
        ("tls: { min_version: \"1.1\" }", "t.yaml:5:", "\"1.2\" or \"1.3\""),
        ("tls: { client_cert: c.pem }", "t.yaml:5:", "client_cert and client_key together"),
    ])
    func aMalformedTLSIsAnErrorAtItsLine(line: String, place: String, message: String) {
        #expect(environmentSettingError(line)?.hasPrefix(place) == true)
        #expect(environmentSettingError(line)?.contains(message) == true)
    }
}

/// The error of a collection whose one environment has this extra line (line 5 of `t.yaml`),
/// or nil when it loads.
func environmentSettingError(_ line: String) -> String? {
    do {
        _ = try CollectionLoader.parse(
            """
            name: t
            environments:
              - name: e
                base_url: https://127.0.0.1:1
                \(line)
            endpoints: []
            """, file: "t.yaml")
        return nil
    } catch {
        return String(describing: error)
    }
}
