import Crypto
import Foundation
import NIOSSL
import X509

/// A CA and the certificates it signs, made when a test runs (nothing is kept on disk but
/// the PEM files a test writes for `TLSSettings`).
struct TestCertificateAuthority {
    let key = P256.Signing.PrivateKey()
    let name: DistinguishedName
    let certificate: Certificate

    init(name commonName: String = "explorer test CA") throws {
        name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(3600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            },
            issuerPrivateKey: .init(key))
    }

    /// A certificate for `host` signed by this CA, valid from `from` to `until`.
    func issue(
        for host: String, validFrom from: Date = Date().addingTimeInterval(-3600),
        until: Date = Date().addingTimeInterval(3600)
    ) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: from, notValidAfter: until,
            issuer: name, subject: try DistinguishedName { CommonName(host) }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName(host)]) },
            issuerPrivateKey: .init(self.key))
        return TestIdentity(certificate: certificate, key: key)
    }

    var pem: String { get throws { try certificate.serializeAsPEM().pemString } }
    var nioCertificate: NIOSSLCertificate {
        get throws { try NIOSSLCertificate(bytes: Array(try pem.utf8), format: .pem) }
    }
}

/// A certificate and its private key.
struct TestIdentity {
    let certificate: Certificate
    let key: P256.Signing.PrivateKey

    var certificatePEM: String { get throws { try certificate.serializeAsPEM().pemString } }
    var keyPEM: String { key.pemRepresentation }

    /// Writes the certificate and the key as PEM files in `folder`.
    func write(to folder: URL, named name: String) throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("\(name).crt")
        let key = folder.appendingPathComponent("\(name).key")
        try Data(try certificatePEM.utf8).write(to: certificate)
        try Data(keyPEM.utf8).write(to: key)
        return (certificate.path, key.path)
    }

    /// The server side of a TLS configuration with this identity.
    func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [
                .certificate(try NIOSSLCertificate(bytes: Array(try certificatePEM.utf8), format: .pem))
            ],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)))
    }
}
