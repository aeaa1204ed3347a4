import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `explorer mock`'s server: one Hummingbird application on 127.0.0.1 answering from a
/// `MockPlan`.
///
/// ```swift
/// let server = try await MockServer.start(plan: plan, port: 0)
/// print(server.port)
/// await server.stop()
/// ```
package final class MockServer: Sendable {
    /// The port it listens on.
    package let port: Int

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(port: Int, serviceGroup: ServiceGroup, runTask: Task<Void, any Error>) {
        self.port = port
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Starts serving and returns once the server is listening.
    ///
    /// - Parameters:
    ///   - port: the port; `0` picks a free one.
    ///   - handleSignals: stop gracefully on SIGINT/SIGTERM (for the command).
    ///   - allowedHosts: the names answered in `Host` besides 127.0.0.1 and localhost (none by default).
    ///   - validatesRequests: refuse requests that break their operation's rules (`MockRequestRules`).
    ///   - state: the resources a stateful mock keeps (`MockStateStore`), or `nil` for none.
    ///   - accessLog: called with one line per request, if set.
    /// - Throws: `MockError` when the port is taken or cannot be bound.
    package static func start(
        plan: MockPlan, port: Int = 0, chaos: MockChaos = MockChaos(), handleSignals: Bool = false,
        allowedHosts: MockAllowedHosts = MockAllowedHosts(), validatesRequests: Bool = true,
        state: MockStateStore? = nil, accessLog: (@Sendable (String) -> Void)? = nil
    ) async throws -> MockServer {
        var logger = Logger(label: "explorer.mock")
        logger.logLevel = .critical
        let (stream, continuation) = AsyncStream.makeStream(of: Result<Int, MockError>.self)
        let application = Application(
            responder: MockResponder(
                plan: plan, chaos: chaos, allowedHosts: allowedHosts, validatesRequests: validatesRequests,
                state: state, accessLog: accessLog),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "explorer-mock"),
            onServerRunning: { channel in continuation.yield(.success(channel.localAddress?.port ?? port)) },
            logger: logger)
        let group = ServiceGroup(
            services: [application], gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        let runTask = Task {
            do {
                try await group.run()
                continuation.yield(.failure(MockError("explorer mock stopped before it was listening.")))
            } catch {
                let reason =
                    (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? String(describing: error)
                continuation.yield(
                    .failure(
                        MockError(
                            "explorer mock could not listen on 127.0.0.1:\(port): \(reason). "
                                + "Try another --port, or --port 0 for a free one."
                        )))
                throw error
            }
        }
        for await result in stream {
            continuation.finish()
            switch result {
            case .success(let bound): return MockServer(port: bound, serviceGroup: group, runTask: runTask)
            case .failure(let error): throw error
            }
        }
        throw MockError("explorer mock stopped before it was listening.")
    }

    /// Stops serving: open connections finish, then the port is released.
    package func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await runTask.value
    }

    /// Returns when the server has stopped (after `stop()` or a signal).
    package func waitUntilStopped() async {
        _ = try? await runTask.value
    }
}
