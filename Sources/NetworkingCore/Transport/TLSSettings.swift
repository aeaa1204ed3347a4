import Foundation
import NIOSSL

/// How requests to one server are secured beyond the system's defaults: a CA to trust, a
/// client certificate (mutual TLS), the lowest TLS version, or no verification at all.
///
/// Files are read when `tlsConfiguration()` is called, so a missing or unreadable one is an
/// error naming the setting and the path before anything is sent.
public struct TLSSettings: Sendable, Hashable {
    /// The lowest TLS version accepted.
    public enum Version: String, Sendable, Hashable, CaseIterable {
        case tls1_2 = "1.2"
        case tls1_3 = "1.3"
    }

    /// A PEM file of CA certificates trusted besides the system's.
    public var caCertificateFile: String?
    /// The client certificate (PEM, its chain after it) sent when the server asks for one.
    public var clientCertificateFile: String?
    /// The client certificate's private key (PEM).
    public var clientKeyFile: String?
    /// The key's password, when the PEM is encrypted.
    public var clientKeyPassword: String?
    /// Whether the server's certificate goes unchecked: for local development only.
    public var insecure: Bool
    /// The lowest TLS version accepted (the library's default, 1.2, when `nil`).
    public var minimumVersion: Version?

    /// Creates settings.
    public init(caCertificateFile: String? = nil, clientCertificateFile: String? = nil, clientKeyFile: String? = nil,
                clientKeyPassword: String? = nil, insecure: Bool = false, minimumVersion: Version? = nil) {
        self.caCertificateFile = caCertificateFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.clientKeyPassword = clientKeyPassword
        self.insecure = insecure
        self.minimumVersion = minimumVersion
    }

    /// A setting whose file does not read.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The setting, as a collection writes it (`tls.ca_cert`).
        public var setting: String
        /// The file.
        public var path: String
        /// Why it does not read.
        public var reason: String

        /// Creates a failure.
        public init(setting: String, path: String, reason: String) {
            self.setting = setting
            self.path = path
            self.reason = reason
        }

        public var description: String { "\(setting) \(path) cannot be used: \(reason)." }
    }

    /// The client TLS configuration these settings describe.
    ///
    /// - Throws: `Failure` naming the setting and file that does not read.
    public func tlsConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if insecure { configuration.certificateVerification = .none }
        if let minimumVersion { configuration.minimumTLSVersion = minimumVersion == .tls1_3 ? .tlsv13 : .tlsv12 }
        if let caCertificateFile {
            let certificates = try read("tls.ca_cert", caCertificateFile) { try NIOSSLCertificate.fromPEMBytes(Array($0)) }
            guard !certificates.isEmpty else { throw Failure(setting: "tls.ca_cert", path: caCertificateFile, reason: "it holds no PEM certificate") }
            configuration.additionalTrustRoots = [.certificates(certificates)]
        }
        switch (clientCertificateFile, clientKeyFile) {
        case (nil, nil):
            break
        case (let certificate?, let key?):
            let chain = try read("tls.client_cert", certificate) { try NIOSSLCertificate.fromPEMBytes(Array($0)) }
            guard !chain.isEmpty else { throw Failure(setting: "tls.client_cert", path: certificate, reason: "it holds no PEM certificate") }
            let password = clientKeyPassword
            let privateKey = try read("tls.client_key", key) { data -> NIOSSLPrivateKey in
                if let password {
                    return try NIOSSLPrivateKey(bytes: Array(data), format: .pem) { body in body(Array(password.utf8)) }
                }
                return try NIOSSLPrivateKey(bytes: Array(data), format: .pem)
            }
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(privateKey)
        case (let certificate?, nil):
            throw Failure(setting: "tls.client_key", path: certificate, reason: "a client certificate needs its key: add tls.client_key")
        case (nil, let key?):
            throw Failure(setting: "tls.client_cert", path: key, reason: "a client key needs its certificate: add tls.client_cert")
        }
        return configuration
    }

    private func read<T>(_ setting: String, _ path: String, _ parse: (Data) throws -> T) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(setting: setting, path: path, reason: FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file")
        }
        do {
            return try parse(data)
        } catch {
            let encrypted = String(decoding: data.prefix(4096), as: UTF8.self).contains("ENCRYPTED")
            throw Failure(setting: setting, path: path, reason: encrypted && setting == "tls.client_key"
                ? "the key is encrypted and \(clientKeyPassword == nil ? "no tls.client_key_password is set" : "tls.client_key_password does not open it")"
                : "it is not PEM (\(error))")
        }
    }
}

extension AsyncHTTPClientTransport.Configuration {
    /// Uses these TLS settings for every connection.
    ///
    /// - Throws: `TLSSettings.Failure` naming the setting and file that does not read.
    public mutating func apply(_ settings: TLSSettings) throws {
        tls = try settings.tlsConfiguration()
    }
}
