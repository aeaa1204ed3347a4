import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Runs a Hummingbird server for a test and stops it without dropping a connection it accepted.
///
/// Cancelling the server's task ends its loop over accepted connections at once: one accepted
/// and not yet taken from that loop is dropped unserved, which NIO traps on ("Deinited
/// NIOAsyncWriter without calling finish()", which crashed CI runs, also when the listener was
/// closed just before: the connections it had accepted were still waiting in the loop). So
/// `stop` shuts the server down gracefully: its listener closes, the loop takes every connection
/// accepted, and the server ends once they close; connections still open after a moment (a
/// stream that never ends) are then cancelled. Shared by the test targets that run Hummingbird
/// servers (linked, as `RecordingProxy`).
package final class ServerListener: Sendable {
    private let group = Mutex<ServiceGroup?>(nil)
    private let ports: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    package init() {
        (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    /// For `Application(onServerRunning:)`.
    @Sendable package func running(_ listening: any Channel) async {
        continuation.yield(listening.localAddress?.port ?? 0)
    }

    /// Runs the server (an `Application` made with `onServerRunning: running`) until `stop(_:)`.
    package func run(_ server: some Service) -> Task<Void, any Error> {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let group = ServiceGroup(services: [server], gracefulShutdownSignals: [], logger: logger)
        self.group.withLock { $0 = group }
        return Task { try await group.run() }
    }

    /// The port, once the server listens (waits until it does; `nil` only if the waiting task
    /// is cancelled).
    package func port() async -> Int? {
        var iterator = ports.makeAsyncIterator()
        return await iterator.next()
    }

    /// Stops the server running in `task` (from `run(_:)`): gracefully, then, for the
    /// connections still open after `grace`, by cancelling it.
    package func stop(_ task: Task<Void, any Error>, grace: Duration = .seconds(2)) async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
        await withTaskGroup(of: Void.self) { race in
            race.addTask { _ = try? await task.value }
            race.addTask { try? await Task.sleep(for: grace) }
            await race.next()
            race.cancelAll()
        }
        task.cancel()
    }
}
