import Synchronization

/// When a call goes out, and by which path: it waits until its shape is known.
///
/// The request messages wait here until `finish()`, a second message, the first read of the
/// events or a cancellation. Then one message and `finish()` (the shape of a unary or a
/// server-streaming call) is handed whole to the direct path; any other shape has its messages
/// moved, in order, to the outbound stream grpc-swift's client reads, and later ones follow
/// them there.
final class GRPCCallLaunch: Sendable {
    /// The request side of a call when it goes out.
    enum Shape: Sendable {
        /// One message, and no more to come.
        case single([UInt8])
        /// Anything else: the messages are (and will be) in the outbound stream.
        case stream
    }

    /// Starts the call; it runs once, on the thread that made the shape known.
    typealias Starter = @Sendable (Shape) -> Void

    private struct State {
        var pending: [[UInt8]] = []
        var finished = false
        var started = false
        /// Dropped once run, so that the call it holds is let go.
        var starter: Starter?

        /// Marks the call started and says how.
        mutating func begin(outbound: AsyncStream<[UInt8]>.Continuation) -> (Starter, Shape)? {
            guard !started else { return nil }
            started = true
            let shape: Shape
            if finished, pending.count == 1 {
                shape = .single(pending[0])
                outbound.finish()
            } else {
                // Moved while the lock is held, so that a message sent meanwhile comes after them.
                for message in pending { outbound.yield(message) }
                if finished { outbound.finish() }
                shape = .stream
            }
            pending = []
            defer { starter = nil }
            return starter.map { ($0, shape) }
        }
    }

    private let state = Mutex(State())
    private let outbound: AsyncStream<[UInt8]>.Continuation

    init(outbound: AsyncStream<[UInt8]>.Continuation) { self.outbound = outbound }

    /// Sets what starts the call (the dispatcher's path choice), before any message.
    func set(_ starter: @escaping Starter) { state.withLock { $0.starter = starter } }

    /// Keeps a message until the call goes out, or hands it to the outbound stream after.
    func send(_ message: [UInt8]) -> AsyncStream<[UInt8]>.Continuation.YieldResult {
        let (result, start) = state.withLock {
            state -> (AsyncStream<[UInt8]>.Continuation.YieldResult, (Starter, Shape)?) in
            if state.started { return (outbound.yield(message), nil) }
            if state.finished { return (.terminated, nil) }
            state.pending.append(message)
            let start = state.pending.count >= 2 ? state.begin(outbound: outbound) : nil
            return (.enqueued(remaining: .max), start)
        }
        if let start { start.0(start.1) }
        return result
    }

    /// No more messages: the call goes out now if it has not.
    func finish() {
        let start = state.withLock { state -> (Starter, Shape)? in
            if state.started {
                outbound.finish()
                return nil
            }
            if state.finished { return nil }
            state.finished = true
            return state.begin(outbound: outbound)
        }
        if let start { start.0(start.1) }
    }

    /// Sends the call out with what it has, if it has not gone out yet.
    func start() {
        if let start = state.withLock({ $0.begin(outbound: outbound) }) { start.0(start.1) }
    }
}
