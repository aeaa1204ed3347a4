/// What a call gives back, in order, read as the reader takes it: `headers` once, `message`s,
/// `end` once.
///
/// The events are pulled: at most `GRPCCall.bufferedMessageLimit` messages (and about 4 MiB of
/// them) wait unread, and the call reads no more of the server's stream until the reader takes
/// one, so HTTP/2's flow control holds a fast server back and a stream of any length holds
/// bounded memory. The end (status and trailers) always comes last, after every message.
///
/// Iterate it once. Stopping before the end (leaving the loop, dropping the iterator) or
/// cancelling the reading task cancels the call: its HTTP/2 stream is reset.
public struct GRPCEvents: AsyncSequence, Sendable {
    /// An event of the call.
    public typealias Element = GRPCEvent

    let state: GRPCCallState
    /// Sends the call out at the first read, when nothing else did.
    let launch: GRPCCallLaunch?

    init(state: GRPCCallState, launch: GRPCCallLaunch? = nil) {
        self.state = state
        self.launch = launch
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: Reader(state: state), launch: launch)
    }

    /// Reads the events one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: Reader
        var launch: GRPCCallLaunch?

        /// The next event, or `nil` after the end, or when the reading task was cancelled (the call
        /// is cancelled then).
        ///
        /// - Throws: `TransportError` (refused, unreachable, TLS) or a metadata adapter's error
        ///   when the call never reached a gRPC server, after the events before it.
        public mutating func next() async throws -> GRPCEvent? {
            if let launch {
                launch.start()
                self.launch = nil
            }
            return try await reader.state.next()
        }
    }

    /// Cancels the call when its last iterator goes before the end was read.
    final class Reader: Sendable {
        let state: GRPCCallState

        init(state: GRPCCallState) { self.state = state }

        deinit { state.readerLeft() }
    }
}
