import Foundation
import NetworkingCore
import NetworkingGRPC
import Workspace

/// A resolved gRPC endpoint as the dispatcher takes it: the server, the method, the metadata,
/// the messages, and the `tls:` of its environment.
package struct GRPCCallPlan: Sendable {
    /// The server (`grpc://host:port` or `grpcs://host:port`).
    package let server: URL
    /// `package.Service/Method`.
    package let method: String
    /// The request metadata: the endpoint's `metadata:`, the environment's headers and the
    /// `auth:` header, as the resolver put them together.
    package let metadata: GRPCMetadata
    /// The request messages, proto3 JSON, expanded.
    package let messages: [JSONValue]
    /// The environment's `tls:`, paths made absolute.
    package let tls: TLSSettings?
    /// The largest message either way: the endpoint's `max_message_size:`, else gRPC's 4 MiB.
    package let maximumMessageSize: Int
    /// The endpoint's deadline (`timeout:`), in seconds.
    package let timeout: Double?

    /// Names the transport sets itself: a header of these would break the call.
    static let reservedNames: Set<String> = [
        "content-type", "te", "host", "grpc-timeout", "grpc-encoding", "connection",
    ]

    /// The plan of a resolved gRPC endpoint.
    ///
    /// - Throws: `GRPCPlanError` when the endpoint is not a gRPC call or its server is not a
    ///   grpc(s) URL.
    package init(_ resolved: ResolvedRequest, collectionFile: URL?) throws {
        guard let settings = resolved.endpoint.grpc, let messages = resolved.grpcMessages else {
            throw GRPCPlanError.notGRPC(endpoint: resolved.endpoint.id)
        }
        guard let url = URL(string: resolved.url), let scheme = url.scheme?.lowercased(),
            scheme == "grpc" || scheme == "grpcs", let host = url.host
        else {
            throw GRPCPlanError.notAGRPCServer(
                endpoint: resolved.endpoint.id, url: resolved.masker.mask(resolved.url))
        }
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = url.port
        server = components.url ?? url
        method = settings.method
        var metadata = GRPCMetadata()
        for header in resolved.request.headers where !Self.reservedNames.contains(header.name.lowercased()) {
            metadata.add(header.name, header.value)
        }
        self.metadata = metadata
        self.messages = messages
        tls = resolved.environment.tlsSettings(collectionFile: collectionFile)
        maximumMessageSize = settings.maximumMessageSize ?? Self.defaultMaximumMessageSize
        timeout = settings.timeout
    }

    /// A dispatcher sending to this plan's server. Its own limit is gRPC's default (what the
    /// reflection calls that read the schema take); the call's is in `callOptions`.
    ///
    /// - Returns: the dispatcher and the server provider it holds weakly: keep both while calling.
    package func dispatcher() -> (GRPCDispatcher, FixedServer) {
        let provider = FixedServer(server)
        let dispatcher = GRPCDispatcher(serverProvider: provider, tls: tls ?? TLSSettings())
        return (dispatcher, provider)
    }

    /// The options a call of this plan is made with: the endpoint's deadline and message size.
    package var callOptions: GRPCCallOptions {
        GRPCCallOptions(
            timeout: timeout.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            maximumRequestSize: maximumMessageSize, maximumResponseSize: maximumMessageSize)
    }

    /// gRPC's own default limit on a message, both ways: 4 MiB.
    package static let defaultMaximumMessageSize = 4 * 1024 * 1024
}

/// A server provider that always answers one URL: a call resolved already.
package final class FixedServer: ServerProvider, Sendable {
    package let baseURL: URL?

    /// A provider of `url`.
    package init(_ url: URL) { baseURL = url }
}

/// Why a resolved endpoint cannot be called over gRPC.
package enum GRPCPlanError: Error, CustomStringConvertible, Sendable {
    /// It is not a gRPC endpoint.
    case notGRPC(endpoint: String)
    /// Its server is not `grpc://` or `grpcs://`.
    case notAGRPCServer(endpoint: String, url: String)

    package var description: String {
        switch self {
        case .notGRPC(let endpoint): "\(endpoint) is not a gRPC endpoint (it has no grpc: method)."
        case .notAGRPCServer(let endpoint, let url):
            "\(endpoint) is a gRPC call but goes to \(url): give its environment a base_url of grpc://host:port "
                + "(or grpcs:// for TLS), or the endpoint a server:."
        }
    }
}
