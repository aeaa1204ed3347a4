import NIOCore
import Synchronization

/// The listening channel of a Hummingbird server a test runs (from `onServerRunning`), so that
/// stopping the server closes its listener before cancelling its task.
///
/// Cancelling alone ends the server's loop over accepted connections while the listener still
/// takes them: a connection accepted in between is dropped unserved, which NIO traps on
/// ("Deinited NIOAsyncWriter without calling finish()", which crashed a CI run). Closed first,
/// the listener takes no more, and the connections it took are served (then cancelled).
/// Shared by the test targets that run Hummingbird servers (linked, as `RecordingProxy`).
package final class ServerListener: Sendable {
    private let channel = Mutex<(any Channel)?>(nil)
    private let ports: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    package init() {
        (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    /// For `Application(onServerRunning:)`.
    @Sendable package func running(_ listening: any Channel) async {
        channel.withLock { $0 = listening }
        continuation.yield(listening.localAddress?.port ?? 0)
    }

    /// The port, once the server listens (waits until it does; `nil` only if the waiting task
    /// is cancelled).
    package func port() async -> Int? {
        var iterator = ports.makeAsyncIterator()
        return await iterator.next()
    }

    /// Stops the server running in `task`: closes the listener, then cancels the task.
    package func stop(_ task: Task<Void, any Error>) async {
        let listening = channel.withLock { $0 }
        try? await listening?.close()
        task.cancel()
    }
}
