import Crypto
import Foundation
import GRPCNIOTransportHTTP2
import X509

/// A CA made when a test runs and a server certificate for `localhost` it signs.
struct TestCertificateAuthority {
    let key = P256.Signing.PrivateKey()
    let name: DistinguishedName
    let certificate: Certificate

    init() throws {
        name = try DistinguishedName { CommonName("explorer gRPC test CA") }
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

    /// Writes the CA's PEM in a new folder and gives its path.
    func writePEM() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("ca.pem")
        try Data(try certificate.serializeAsPEM().pemString.utf8).write(to: file)
        return file.path
    }

    /// The server side of TLS with a certificate for `localhost` this CA signs.
    func serverSecurity() throws -> HTTP2ServerTransport.Posix.TransportSecurity {
        let serverKey = P256.Signing.PrivateKey()
        let now = Date()
        let serverCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(3600),
            issuer: name, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName("localhost")]) },
            issuerPrivateKey: .init(key))
        let pem = try serverCertificate.serializeAsPEM().pemString
        return .tls(
            certificateChain: [.bytes(Array(pem.utf8), format: .pem)],
            privateKey: .bytes(Array(serverKey.pemRepresentation.utf8), format: .pem))
    }
}
