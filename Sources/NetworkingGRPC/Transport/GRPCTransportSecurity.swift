import GRPCNIOTransportHTTP2
import NIOCore
import NIOSSL
import NetworkingCore

/// A target's `TLSSettings` as the HTTP/2 transport's security.
///
/// grpc-swift's own TLS configuration replaces the system's trust roots with a given CA and
/// always accepts TLS 1.2; the settings say "this CA besides the system's" and may ask for 1.3.
/// So the connection is `customSecure` and the TLS handler, made from
/// `TLSSettings.tlsConfiguration()` exactly as the HTTP dispatcher makes it, goes first in each
/// new connection's pipeline.
enum GRPCTransportSecurity {
    /// The security and the transport configuration for a target.
    ///
    /// - Parameters:
    ///   - target: the host, port and scheme.
    ///   - authority: the `:authority` override, whose host is the server name TLS sends.
    ///   - tls: the TLS settings (unused for plaintext).
    /// - Returns: what the transport is made with.
    /// - Throws: `TLSSettings.Failure` when a file of the settings does not read.
    static func make(target: GRPCTarget, authority: String?, tls: TLSSettings) throws -> (
        HTTP2ClientTransport.Posix.TransportSecurity, HTTP2ClientTransport.Posix.Config
    ) {
        var config = HTTP2ClientTransport.Posix.Config.defaults
        config.http2.authority = authority
        guard target.usesTLS else { return (.plaintext, config) }
        var configuration = try tls.tlsConfiguration()
        configuration.applicationProtocols = ["grpc-exp", "h2"]
        let context = try NIOSSLContext(configuration: configuration)
        let serverName = serverName(target: target, authority: authority)
        config.channelDebuggingCallbacks.onCreateTCPConnection = { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }
        }
        return (.customSecure, config)
    }

    /// The name sent in SNI and checked against the certificate: the authority's host, else the
    /// target's; none for an IP address (the certificate is then checked against the address).
    static func serverName(target: GRPCTarget, authority: String?) -> String? {
        if let authority, !authority.isEmpty {
            // An IPv6 address ([::1]:443) is no server name.
            if authority.hasPrefix("[") { return nil }
            var host = Substring(authority)
            if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
            let name = String(host)
            return isIPv4(name) ? nil : name
        }
        return target.isIPAddress ? nil : target.host
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
