import GRPCCore
import GRPCNIOTransportHTTP2
import ServiceLifecycle

/// One environment's gRPC server, plaintext HTTP/2 on 127.0.0.1, as a service of the demo's
/// service group: it serves until the group shuts down gracefully.
struct DemoGRPCServer: Service {
    /// The port to bind, `0` for a free one.
    let port: Int
    /// What the server serves: the demo's service and its reflection.
    let services: [any RegistrableRPCService]
    /// Around every call (the access log).
    let interceptors: [any ServerInterceptor]
    /// Called with the bound port once the server listens.
    let onListening: @Sendable (Int) async -> Void

    /// How long open calls may go on once the demo stops, before their connections close.
    static let shutdownGrace = Duration.seconds(1)

    func run() async throws {
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: port),
            transportSecurity: .plaintext,
            config: .defaults { $0.connection.maxGraceTime = Self.shutdownGrace }
        )
        let server = GRPCServer(transport: transport, services: services, interceptors: interceptors)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                try await withGracefulShutdownHandler {
                    try await server.serve()
                } onGracefulShutdown: {
                    server.beginGracefulShutdown()
                }
            }
            group.addTask {
                let address = try await transport.listeningAddress
                await onListening(address.ipv4?.port ?? port)
            }
        }
    }
}
