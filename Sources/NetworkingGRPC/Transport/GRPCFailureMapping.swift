import Foundation
import GRPCCore
import NIOCore
import NetworkingCore

/// What an `RPCError` of grpc-swift means for a call: a status the server sent (or the client
/// set: a deadline, a message too large), or a failure to reach the server, as the
/// HTTP dispatcher words it (`TransportError`, `TLSFailure`).
enum GRPCFailureMapping {
    enum Outcome {
        /// The call ended with a status, and these trailers.
        case status(GRPCStatus, GRPCMetadata)
        /// The call never reached a gRPC server.
        case failure(any Error)
    }

    /// Maps an error of a call to a target.
    ///
    /// - Parameters:
    ///   - error: what grpc-swift threw.
    ///   - target: where the call went.
    ///   - responseLimit: the largest response message allowed, for the sentence of one over it.
    /// - Returns: a status or a failure.
    static func map(_ error: RPCError, target: GRPCTarget, responseLimit: Int) -> Outcome {
        if let failure = connectionFailure(error, target: target) { return .failure(failure) }
        // grpc-nio-transport words it "…exceeded the configured maximum payload size (max: 1000,
        // actual: 5003)", as INTERNAL or RESOURCE_EXHAUSTED depending on where it noticed.
        if error.message.contains("maximum payload size") {
            let actual =
                error.message.range(of: #"actual: [0-9]+"#, options: .regularExpression)
                .map { " (\(error.message[$0].dropFirst(8)) bytes)" } ?? ""
            let message =
                "a response message\(actual) is over the limit of \(responseLimit) bytes; "
                + "raise GRPCCallOptions.maximumResponseSize (or the dispatcher's maximumMessageSize) to accept it"
            return .status(GRPCStatus(code: 8, message: message), GRPCMetadata(error.metadata))
        }
        return .status(GRPCStatus(error), GRPCMetadata(error.metadata))
    }

    /// The failure to reach a gRPC server an error holds, or `nil` when it is a status.
    static func connectionFailure(_ error: RPCError, target: GRPCTarget) -> (any Error)? {
        if let failure = connectionFailure(cause: error, target: target) { return failure }
        if error.code == .unavailable, error.message.contains("HTTP/2 connection preface") {
            return notHTTP2(target)
        }
        return nil
    }

    /// The failure to reach a gRPC server an error of a connection holds (refused, unreachable,
    /// TLS, a name that does not resolve), or `nil`.
    static func connectionFailure(cause error: any Error, target: GRPCTarget) -> (any Error)? {
        let host = target.host
        if let ioError = find(IOError.self, in: error) {
            switch ioError.errnoCode {
            case ECONNREFUSED: return TransportError.connectionRefused(host: host, port: target.port)
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN:
                return TransportError.notConnected(host: host, reason: ioError.description)
            case ETIMEDOUT: return TransportError.notConnected(host: host, reason: "connecting timed out")
            default: break
            }
        }
        if let tls = findTLSError(in: error) {
            return TransportError.tlsFailure(host: host, reason: tlsFailure(String(describing: tls)))
        }
        if let connection = findNamed("NIOConnectionError", in: error) {
            let text = String(describing: connection)
            if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("refused") {
                return TransportError.connectionRefused(host: host, port: target.port)
            }
            return TransportError.dnsFailure(host: host)
        }
        return nil
    }

    /// A server that accepted the connection but did not speak HTTP/2.
    static func notHTTP2(_ target: GRPCTarget) -> TransportError {
        TransportError.other(
            "\(target.hostAndPort) accepted the connection but did not answer HTTP/2: it is not a gRPC server"
                + (target.usesTLS ? "" : ", or it wants TLS (grpcs://)"))
    }

    /// Why a TLS handshake failed, from what BoringSSL and NIOSSL say (as the HTTP transport reads it).
    static func tlsFailure(_ text: String) -> TLSFailure {
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return .untrustedCertificate }
        if text.contains("failedToValidateHostname") { return .hostnameMismatch }
        if text.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
        if text.contains("WRONG_VERSION_NUMBER") { return .notTLS }
        if text.contains("PROTOCOL_VERSION") || text.contains("UNSUPPORTED_PROTOCOL") { return .noCommonVersion }
        if let alert = text.range(of: #"TLSV1_ALERT_[A-Z_]+|SSLV3_ALERT_[A-Z_]+"#, options: .regularExpression) {
            return .alert(String(text[alert]))
        }
        return .other(text)
    }

    // MARK: - Looking into causes

    /// The errors an error holds: its cause, and what each holds, a few levels down.
    private static func causes(of value: Any, depth: Int = 0) -> [Any] {
        guard depth < 6 else { return [] }
        var found: [Any] = [value]
        if let rpcError = value as? RPCError, let cause = rpcError.cause {
            found += causes(of: cause, depth: depth + 1)
        } else if let runtimeError = value as? RuntimeError, let cause = runtimeError.cause {
            found += causes(of: cause, depth: depth + 1)
        } else {
            for child in Mirror(reflecting: value).children {
                found += causes(of: child.value, depth: depth + 1)
            }
        }
        return found
    }

    private static func find<T>(_ type: T.Type, in error: any Error) -> T? {
        causes(of: error).lazy.compactMap { $0 as? T }.first
    }

    private static func findNamed(_ name: String, in error: any Error) -> Any? {
        causes(of: error).first { String(reflecting: type(of: $0)).contains(name) }
    }

    private static func findTLSError(in error: any Error) -> Any? {
        causes(of: error).first { cause in
            guard cause is any Error else { return false }
            let name = String(reflecting: type(of: cause))
            return name.contains("NIOSSL") || name.contains("BoringSSL")
        }
    }
}
