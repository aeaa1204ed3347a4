import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Maps the errors of async-http-client and NIO to `TransportError`.
enum TransportErrorMapping {
    /// Maps an error of a request sent through a proxy (or directly, for `nil`): a failure to
    /// reach the proxy, its 407 and a refused `CONNECT` name the proxy and its setting.
    static func map(_ error: any Error, url: URL, redirectLimit: Int, proxy: ProxyServer?) -> any Error {
        guard let proxy else { return map(error, url: url, redirectLimit: redirectLimit) }
        let shown = proxy.description
        let target = "\(url.host ?? url.absoluteString):\(url.port ?? NoProxyList.defaultPort(of: url))"
        if let clientError = error as? HTTPClientError {
            if clientError == .proxyAuthenticationRequired {
                return TransportError.proxyAuthenticationRequired(
                    proxy: shown, source: proxy.source, sentCredentials: proxy.username != nil)
            }
            if clientError == .invalidProxyResponse {
                let reason =
                    url.scheme?.lowercased() == "http"
                    ? "it answered the request in a form that could not be read"
                    : "it refused the tunnel (its answer to CONNECT was not 2xx)"
                return TransportError.proxyFailed(proxy: shown, source: proxy.source, target: target, reason: reason)
            }
            if clientError == .socksHandshakeTimeout {
                return TransportError.proxyFailed(
                    proxy: shown, source: proxy.source, target: target,
                    reason: "it did not finish the SOCKS5 handshake in time")
            }
            if clientError == .httpProxyHandshakeTimeout {
                return TransportError.proxyFailed(
                    proxy: shown, source: proxy.source, target: target, reason: "it did not answer CONNECT in time")
            }
        }
        if String(reflecting: type(of: error)).contains("SOCKS") {
            return TransportError.proxyFailed(
                proxy: shown, source: proxy.source, target: target,
                reason: "it refused the SOCKS5 connection (\(error))")
        }
        let mapped = map(error, url: url, redirectLimit: redirectLimit)
        // Every connection goes to the proxy first: not reaching one is not reaching the proxy.
        switch mapped as? TransportError {
        case .connectionRefused?:
            return TransportError.proxyUnreachable(
                proxy: shown, source: proxy.source, reason: "nothing accepts connections at \(proxy.host):\(proxy.port)"
            )
        case .dnsFailure?:
            return TransportError.proxyUnreachable(
                proxy: shown, source: proxy.source, reason: "its host name \(proxy.host) could not be resolved")
        case .notConnected(_, let reason)?:
            return TransportError.proxyUnreachable(
                proxy: shown, source: proxy.source, reason: "there is no network path to it (\(reason))")
        case .timedOut(_, let phase)? where phase == "connecting":
            return TransportError.proxyUnreachable(
                proxy: shown, source: proxy.source, reason: "connecting to it timed out")
        default:
            return mapped
        }
    }

    static func map(_ error: any Error, url: URL, redirectLimit: Int) -> any Error {
        if error is TransportError || error is CancellationError { return error }
        let host = url.host ?? url.absoluteString
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout: return TransportError.timedOut(url: url, phase: "connecting")
            case .readTimeout: return TransportError.timedOut(url: url, phase: "reading")
            case .writeTimeout: return TransportError.timedOut(url: url, phase: "writing")
            case .deadlineExceeded: return TransportError.timedOut(url: url, phase: "deadline exceeded")
            case .getConnectionFromPoolTimeout:
                return TransportError.timedOut(url: url, phase: "waiting for a connection")
            case .tlsHandshakeTimeout: return TransportError.timedOut(url: url, phase: "TLS handshake")
            case .cancelled, .requestStreamCancelled: return TransportError.cancelled
            case .remoteConnectionClosed: return TransportError.connectionClosed(url: url)
            case .redirectLimitReached, .redirectCycleDetected:
                return TransportError.tooManyRedirects(url: url, limit: redirectLimit)
            case .invalidURL, .emptyHost, .emptyScheme: return TransportError.invalidURL(url.absoluteString)
            default:
                if String(describing: clientError).contains("unsupportedScheme") {
                    return TransportError.invalidURL(url.absoluteString)
                }
            }
        }
        // NIO's errors are looked for by what they hold, so NIOPosix/NIOSSL need not be imported.
        if let ioError = findIOError(in: error) {
            switch ioError.errnoCode {
            case ECONNREFUSED: return TransportError.connectionRefused(host: host, port: port)
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN:
                return TransportError.notConnected(host: host, reason: ioError.description)
            case ETIMEDOUT: return TransportError.timedOut(url: url, phase: "connecting")
            case ECONNRESET, EPIPE: return TransportError.connectionClosed(url: url)
            default: break
            }
        }
        let typeName = String(reflecting: type(of: error))
        let text = String(describing: error)
        if typeName.contains("NIOConnectionError"), connectionErrorCount(in: error) == 0 {
            return TransportError.dnsFailure(host: host)
        }
        if typeName.contains("SocketAddressError") || text.contains("unknown(host:") {
            return TransportError.dnsFailure(host: host)
        }
        if typeName.contains("Decompression") || typeName.contains("Zlib") {
            return TransportError.decompressionFailed(url: url, reason: text)
        }
        if typeName.contains("SSL") || typeName.contains("TLS") || typeName.contains("BoringSSL") {
            return TransportError.tlsFailure(host: host, reason: tlsFailure(text))
        }
        if let parserError = error as? HTTPParserError, let problem = malformedResponse(parserError) {
            return TransportError.malformedResponse(url: url, problem: problem)
        }
        if typeName.contains("HTTPParserError") || text.contains("invalidEOFState") || text.contains("uncleanShutdown")
        {
            return TransportError.connectionClosed(url: url)
        }
        return TransportError.other("\(typeName): \(text)")
    }

    /// What was wrong with a reply the HTTP parser refused, or `nil` when the parser only found
    /// it cut short (the connection closed before the end: `TransportError.connectionClosed`).
    static func malformedResponse(_ error: HTTPParserError) -> MalformedResponse? {
        switch error {
        case .invalidEOFState: return nil
        case .invalidConstant: return .noStatusLine
        case .invalidVersion: return .unsupportedVersion
        case .invalidStatus: return .invalidStatus
        case .invalidHeaderToken, .invalidCharactersUsed: return .invalidHeaderCharacter
        case .lfExpected: return .carriageReturnWithoutLineFeed
        case .headerOverflow:
            return .headersTooLarge(
                bytes: MalformedResponse.headerBytesLimit, fields: MalformedResponse.headerFieldsLimit)
        case .invalidContentLength: return .invalidContentLength
        case .unexpectedContentLength: return .duplicateContentLength
        case .invalidChunkSize: return .invalidChunkSize
        case .closedConnection, .trailingGarbage: return .dataAfterClose
        case .unknown: return .unnamed
        default: return .other("\(error)")
        }
    }

    /// Why a TLS handshake failed, from what BoringSSL and NIOSSL report. (BoringSSL reports an
    /// unknown CA and an expired certificate with the same code.)
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

    /// Finds an `IOError` in an error or, a few levels down, in what it holds.
    private static func findIOError(in value: Any, depth: Int = 0) -> IOError? {
        if let ioError = value as? IOError { return ioError }
        guard depth < 4 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let found = findIOError(in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }

    private static func connectionErrorCount(in error: any Error) -> Int {
        for child in Mirror(reflecting: error).children where child.label == "connectionErrors" {
            return Mirror(reflecting: child.value).children.count
        }
        return 0
    }
}
