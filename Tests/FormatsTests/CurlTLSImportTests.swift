import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `explorer import curl` keeps curl's TLS options as the environment's `tls:`: `--cacert`,
/// `-E/--cert` (with `:password`), `--key`, `--pass`, `-k` and `--tlsv1.2`/`--tlsv1.3`.
@Suite struct CurlTLSImportTests {
    let folder = URL(fileURLWithPath: "/work/api")

    private func imported(_ command: String) throws -> ImportResult {
        try CurlImporter(baseDirectory: folder).importCommand(command)
    }

    @Test func certificatesKeyPasswordAndVersionBecomeTheEnvironmentsTLS() throws {
        let result = try imported(
            "curl --cacert certs/ca.pem -E certs/client.pem:s3cret --key certs/client.key --tlsv1.3 https://api.example.com/v1/me"
        )
        let tls = try #require(result.collection.environments.first?.tls)
        #expect(
            tls
                == TLSSettings(
                    caCertificateFile: "/work/api/certs/ca.pem", clientCertificateFile: "/work/api/certs/client.pem",
                    clientKeyFile: "/work/api/certs/client.key", clientKeyPassword: "s3cret", minimumVersion: .tls1_3))
        #expect(!result.warnings.contains { $0.contains("ignored") }, "\(result.warnings)")

        // Written and read back as the collection file keeps it.
        let reread = try writtenAndReadBack(result.collection)
        #expect(reread.environments.first?.tls == tls)
    }

    @Test func insecureIsKeptWithAWarningAndThePasswordMayComeFromPass() throws {
        let result = try imported("curl -k --cert /etc/client.pem --pass 'pa ss' --tlsv1.2 https://localhost:8443/")
        let tls = try #require(result.collection.environments.first?.tls)
        #expect(tls.insecure)
        #expect(tls.clientCertificateFile == "/etc/client.pem")
        #expect(
            tls.clientKeyFile == "/etc/client.pem",
            "curl reads the key from the certificate's file when --key is not given")
        #expect(tls.clientKeyPassword == "pa ss")
        #expect(tls.minimumVersion == .tls1_2)
        #expect(result.warnings.contains { $0.contains("tls.insecure: true") })
    }

    @Test func anEscapedColonBelongsToTheFileName() {
        #expect(CurlImporter.certificateAndPassword(#"my\:cert.pem:pw"#) == ("my:cert.pem", "pw"))
        #expect(CurlImporter.certificateAndPassword("client.pem") == ("client.pem", nil))
        #expect(CurlImporter.certificateAndPassword("client.pem:a:b") == ("client.pem", "a:b"))
    }

    @Test func aKeyWithoutACertificateIsAWarningAndNoTLSOptionsMeansNone() throws {
        let keyOnly = try imported("curl --key client.key https://api.example.com/")
        #expect(keyOnly.warnings.contains { $0.contains("--key is given without -E/--cert") })
        #expect(try imported("curl https://api.example.com/").collection.environments.first?.tls == nil)
    }
}
