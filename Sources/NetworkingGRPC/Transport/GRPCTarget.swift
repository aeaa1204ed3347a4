import Foundation
import GRPCNIOTransportHTTP2
import NetworkingCore

/// Where a call goes: the host and port of the base URL, and whether the connection is TLS.
///
/// `grpc://` (and `http://`) is plaintext HTTP/2 with prior knowledge, `grpcs://` (and
/// `https://`) is TLS; without a port, 80 and 443. A base path is not used: a gRPC path is
/// always `/package.Service/Method`.
struct GRPCTarget: Sendable, Hashable, CustomStringConvertible {
    var host: String
    var port: Int
    var usesTLS: Bool

    /// The target of a base URL.
    ///
    /// - Throws: `TransportError.invalidURL` for another scheme or no host.
    init(baseURL: URL) throws {
        guard let scheme = baseURL.scheme?.lowercased(), let host = baseURL.host, !host.isEmpty else {
            throw TransportError.invalidURL(baseURL.absoluteString)
        }
        switch scheme {
        case "grpc", "http": usesTLS = false
        case "grpcs", "https": usesTLS = true
        default: throw TransportError.invalidURL(baseURL.absoluteString)
        }
        // URL keeps an IPv6 literal's brackets on Linux; the resolver wants the address alone.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = baseURL.port ?? (usesTLS ? 443 : 80)
    }

    /// `grpcs://host:port`.
    var description: String { "\(usesTLS ? "grpcs" : "grpc")://\(hostAndPort)" }

    /// `host:port`, an IPv6 address in brackets.
    var hostAndPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// What grpc-swift resolves: an IP address as it is, a name through DNS.
    var resolvable: any ResolvableTarget {
        if host.contains(":") { return .ipv6(address: host, port: port) }
        if isIPv4Address { return .ipv4(address: host, port: port) }
        return .dns(host: host, port: port)
    }

    /// Whether the host is an IP address (TLS sends no server name for one).
    var isIPAddress: Bool { host.contains(":") || isIPv4Address }

    private var isIPv4Address: Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
