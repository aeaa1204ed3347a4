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
    public init(
        caCertificateFile: String? = nil, clientCertificateFile: String? = nil, clientKeyFile: String? = nil,
        clientKeyPassword: String? = nil, insecure: Bool = false, minimumVersion: Version? = nil
    ) {
        self.caCertificateFile = caCertificateFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.clientKeyPassword = clientKeyPassword
        self.insecure = insecure
        self.minimumVersion = minimumVersion
    }

    /// One of these settings, for an error to say which one failed or which one fixes it.
    ///
    /// Its `description` is the property's name (`TLSSettings.caCertificateFile`); an
    /// application that reads the settings from a file of its own words them with its own keys
    /// through the `naming` parameter of `Failure.description(naming:)` and
    /// `TLSFailure.description(host:naming:)`.
    public enum Setting: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `caCertificateFile`.
        case caCertificateFile
        /// `clientCertificateFile`.
        case clientCertificateFile
        /// `clientKeyFile`.
        case clientKeyFile
        /// `clientKeyPassword`.
        case clientKeyPassword
        /// `insecure`.
        case insecure
        /// `minimumVersion`.
        case minimumVersion

        /// The property's name: `TLSSettings.caCertificateFile`.
        public var description: String { "TLSSettings.\(rawValue)" }
    }

    /// A setting whose file does not read.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the file.
        public enum Problem: Sendable, Hashable {
            /// There is no file at the path.
            case noSuchFile
            /// The file exists and cannot be read.
            case unreadable
            /// The file is PEM and holds no certificate.
            case noCertificate
            /// The file is not PEM; the TLS stack's words.
            case notPEM(String)
            /// The key is encrypted and `clientKeyPassword` is not set (`passwordGiven` false)
            /// or does not open it.
            case encryptedKey(passwordGiven: Bool)
            /// A client certificate without `clientKeyFile`.
            case missingKey
            /// A client key without `clientCertificateFile`.
            case missingCertificate
        }

        /// The setting that failed.
        public var setting: Setting
        /// The file.
        public var path: String
        /// What is wrong with it.
        public var problem: Problem

        /// Creates a failure.
        public init(setting: Setting, path: String, problem: Problem) {
            self.setting = setting
            self.path = path
            self.problem = problem
        }

        /// The sentence, with the settings named by `name` (an application's own keys).
        public func description(naming name: (Setting) -> String) -> String {
            let reason: String
            switch problem {
            case .noSuchFile: reason = "there is no such file"
            case .unreadable: reason = "it cannot be read"
            case .noCertificate: reason = "it holds no PEM certificate"
            case .notPEM(let detail): reason = "it is not PEM (\(detail))"
            case .encryptedKey(let passwordGiven):
                reason =
                    passwordGiven
                    ? "the key is encrypted and \(name(.clientKeyPassword)) does not open it"
                    : "the key is encrypted and no \(name(.clientKeyPassword)) is set"
            case .missingKey: reason = "a client certificate needs its key: add \(name(.clientKeyFile))"
            case .missingCertificate: reason = "a client key needs its certificate: add \(name(.clientCertificateFile))"
            }
            return "\(name(setting)) \(path) cannot be used: \(reason)."
        }

        /// The sentence, with the settings named as properties (`TLSSettings.caCertificateFile`).
        public var description: String { description(naming: \.description) }
    }

    /// The client TLS configuration these settings describe.
    ///
    /// - Throws: `Failure` naming the setting and file that does not read.
    public func tlsConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if insecure { configuration.certificateVerification = .none }
        if let minimumVersion { configuration.minimumTLSVersion = minimumVersion == .tls1_3 ? .tlsv13 : .tlsv12 }
        if let caCertificateFile {
            let certificates = try read(.caCertificateFile, caCertificateFile) {
                try NIOSSLCertificate.fromPEMBytes(Array($0))
            }
            guard !certificates.isEmpty else {
                throw Failure(setting: .caCertificateFile, path: caCertificateFile, problem: .noCertificate)
            }
            configuration.additionalTrustRoots = [.certificates(certificates)]
        }
        switch (clientCertificateFile, clientKeyFile) {
        case (nil, nil):
            break
        case (let certificate?, let key?):
            let chain = try read(.clientCertificateFile, certificate) { try NIOSSLCertificate.fromPEMBytes(Array($0)) }
            guard !chain.isEmpty else {
                throw Failure(setting: .clientCertificateFile, path: certificate, problem: .noCertificate)
            }
            let password = clientKeyPassword
            let privateKey = try read(.clientKeyFile, key) { data -> NIOSSLPrivateKey in
                if let password {
                    return try NIOSSLPrivateKey(bytes: Array(data), format: .pem) { body in body(Array(password.utf8)) }
                }
                return try NIOSSLPrivateKey(bytes: Array(data), format: .pem)
            }
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(privateKey)
        case (let certificate?, nil):
            throw Failure(setting: .clientKeyFile, path: certificate, problem: .missingKey)
        case (nil, let key?):
            throw Failure(setting: .clientCertificateFile, path: key, problem: .missingCertificate)
        }
        return configuration
    }

    private func read<T>(_ setting: Setting, _ path: String, _ parse: (Data) throws -> T) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(
                setting: setting, path: path,
                problem: FileManager.default.fileExists(atPath: path) ? .unreadable : .noSuchFile)
        }
        do {
            return try parse(data)
        } catch {
            let encrypted = String(decoding: data.prefix(4096), as: UTF8.self).contains("ENCRYPTED")
            throw Failure(
                setting: setting, path: path,
                problem: encrypted && setting == .clientKeyFile
                    ? .encryptedKey(passwordGiven: clientKeyPassword != nil) : .notPEM(String(describing: error)))
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
