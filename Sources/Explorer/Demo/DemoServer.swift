import Foundation
import GRPCCore
import Hummingbird
import Logging
import NIOCore
import NetworkingGRPC
import ServiceLifecycle

/// The embedded demo API: three environments (`local`, `staging`, `production`) served by one
/// process on three ports of 127.0.0.1, each with its own data, and each with a gRPC server
/// (`explorer.demo.v1.Directory` and server reflection) on a port of its own over the same data.
///
/// ```swift
/// let server = try await DemoServer.start(port: 0)     // ephemeral ports
/// print(server.environments.map(\.baseURL), server.environments.map(\.grpcURL))
/// await server.stop()
/// ```
package final class DemoServer: Sendable {
    /// The environments, in the order `local`, `staging`, `production`, with the ports they got.
    package let environments: [DemoEnvironment]

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(environments: [DemoEnvironment], serviceGroup: ServiceGroup, runTask: Task<Void, any Error>) {
        self.environments = environments
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Starts serving and returns once every environment is listening.
    ///
    /// - Parameters:
    ///   - port: the port of `local`; `staging` and `production` take the next two, and the
    ///     three gRPC servers the three after them (PORT+3 to PORT+5). `0` picks free ports for all six.
    ///   - handleSignals: stop gracefully on SIGINT/SIGTERM (for `--serve-only`; the TUI handles
    ///     signals itself).
    ///   - accessLog: called with one line per request, if set.
    /// - Throws: `DemoServerError.couldNotListen` when a port is taken or cannot be bound.
    package static func start(
        port: Int = 0,
        handleSignals: Bool = false,
        accessLog: (@Sendable (String) -> Void)? = nil
    ) async throws -> DemoServer {
        let logger = Logger(label: "explorer.demo") { DemoLogHandler(label: $0) }
        let readiness = DemoReadiness(expected: DemoEnvironment.names.count * 2)
        let environmentCount = DemoEnvironment.names.count

        // Each environment's services are made at once, on the cores there are: building an
        // HTTP router (some hundred routes in Hummingbird's trie) is most of a start's work.
        let made = try await withThrowingTaskGroup(of: (Int, [ServiceGroupConfiguration.ServiceConfiguration]).self) {
            tasks in
            for (offset, name) in DemoEnvironment.names.enumerated() {
                tasks.addTask {
                    let api = DemoAPI(environment: name, accessLog: accessLog)
                    let wantedPort = port == 0 ? 0 : port + offset
                    let application = Application(
                        router: api.router(),
                        server: .demo { request, channel, _ in await api.shouldUpgrade(request, channel: channel) },
                        configuration: .init(
                            address: .hostname("127.0.0.1", port: wantedPort), serverName: "explorer-demo"),
                        onServerRunning: { channel in
                            await readiness.listening(name, port: channel.localAddress?.port ?? wantedPort)
                        },
                        logger: logger
                    )
                    let grpcPort = port == 0 ? 0 : port + environmentCount + offset
                    let grpc = try DemoGRPCServer(
                        port: grpcPort,
                        services: grpcServices(environment: name, store: api.store),
                        interceptors: accessLog.map { [DemoGRPCAccessLog(environment: name, log: $0)] } ?? [],
                        onListening: { await readiness.listening(grpcKey(name), port: $0) }
                    )
                    // Named, as the group would otherwise name each by describing it whole
                    // (the application's router included), by reflection.
                    return (
                        offset,
                        [
                            .init(service: application, serviceName: "\(name) HTTP"),
                            .init(service: grpc, serviceName: grpcKey(name)),
                        ]
                    )
                }
            }
            return try await tasks.reduce(into: []) { $0.append($1) }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: made.sorted { $0.0 < $1.0 }.flatMap(\.1),
                gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [],
                logger: logger
            ))
        let runTask = Task {
            do {
                try await group.run()
                await readiness.fail(DemoServerError.stoppedBeforeListening(port: port))
            } catch {
                await readiness.fail(DemoServerError.couldNotListen(port: port, reason: DemoServerError.reason(error)))
                throw error
            }
        }
        let ports = try await readiness.wait()
        let environments = DemoEnvironment.names.map {
            DemoEnvironment(name: $0, port: ports[$0] ?? 0, grpcPort: ports[grpcKey($0)] ?? 0)
        }
        return DemoServer(environments: environments, serviceGroup: group, runTask: runTask)
    }

    /// What an environment's gRPC server serves: the demo's service and server reflection (v1 and
    /// v1alpha) over `demo.proto` and the google.rpc messages of its error details.
    private static func grpcServices(environment: String, store: DemoStore) throws -> [any RegistrableRPCService] {
        [
            DemoDirectoryService(environment: environment, store: store),
            try GRPCReflectionService(descriptorSet: DemoDescriptorSet.data),
        ]
    }

    /// The key of an environment's gRPC server among the ports `DemoReadiness` collects.
    private static func grpcKey(_ environment: String) -> String { "\(environment) gRPC" }

    /// Stops serving: open connections finish, then the ports are released.
    package func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await runTask.value
    }

    /// Returns when the server has stopped (after `stop()` or a signal).
    package func waitUntilStopped() async {
        _ = try? await runTask.value
    }
}

/// Why the demo could not start.
enum DemoServerError: Error, CustomStringConvertible {
    case couldNotListen(port: Int, reason: String)
    case stoppedBeforeListening(port: Int)

    package var description: String {
        switch self {
        case .couldNotListen(let port, let reason):
            let ports = port == 0 ? "free ports" : "ports \(port)-\(port + 5)"
            return
                "The demo API could not listen on 127.0.0.1 (\(ports)): \(reason). "
                + "Try another --port, or --port 0 for free ones."
        case .stoppedBeforeListening:
            return "The demo API stopped before it was listening."
        }
    }

    /// A bind failure as the system words it (`Address already in use`), not NIO's description
    /// of the call that failed (which the gRPC server's transport wraps in an error of its own).
    static func reason(_ error: any Error) -> String {
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)) }
        if let failure = error as? RuntimeError, let cause = failure.cause { return reason(cause) }
        return String(describing: error)
    }
}

/// Collects the ports the environments got, and the first failure, for `DemoServer.start`.
private actor DemoReadiness {
    private let expected: Int
    private var ports: [String: Int] = [:]
    private var failure: (any Error)?
    private var waiter: CheckedContinuation<[String: Int], any Error>?

    init(expected: Int) { self.expected = expected }

    func listening(_ name: String, port: Int) {
        ports[name] = port
        resumeIfDone()
    }

    func fail(_ error: any Error) {
        if failure == nil { failure = error }
        resumeIfDone()
    }

    func wait() async throws -> [String: Int] {
        try await withCheckedThrowingContinuation { continuation in
            waiter = continuation
            resumeIfDone()
        }
    }

    private func resumeIfDone() {
        guard let waiter else { return }
        if ports.count == expected {
            self.waiter = nil
            waiter.resume(returning: ports)
        } else if let failure {
            self.waiter = nil
            waiter.resume(throwing: failure)
        }
    }
}
