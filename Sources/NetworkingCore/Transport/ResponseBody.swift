import Foundation
import Synchronization

/// A response body as it arrives: an `AsyncSequence` of chunks with back-pressure.
///
/// The transport reads from the connection only while fewer than `BodyChannel.highWater`
/// bytes wait unread, so a slow reader holds a bounded amount of memory whatever the body's
/// size. Iterate it once. Cancelling the iterating Task, or releasing the body before its end,
/// cancels the request and closes its connection. The limits and deadlines of the request's
/// `TransferOptions` end the sequence with their `TransportError`, after the bytes that came
/// before it (a size limit: exactly the bytes up to the limit).
///
/// ```swift
/// let streamed = try await transport.stream(request, options: TransferOptions())
/// for try await chunk in streamed.body { output.write(chunk) }
/// ```
public struct ResponseBody: AsyncSequence, Sendable {
    public typealias Element = Data

    private let storage: Storage

    init(channel: BodyChannel) {
        self.storage = Storage(channel: channel)
    }

    /// Cancels the transfer: the connection is closed and the sequence ends with
    /// `TransportError.cancelled`.
    public func cancel() {
        storage.channel.cancel()
    }

    /// Bytes received so far, after decompression.
    public var bytesReceived: Int { storage.channel.bytesDelivered }

    public func makeAsyncIterator() -> Iterator {
        Iterator(storage: storage)
    }

    /// Reads the next chunk.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let storage: Storage

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// - Throws: `TransportError` (a limit, a deadline, cancellation, the connection).
        public mutating func next() async throws -> Data? {
            try await storage.channel.next()
        }
    }

    /// Owns the channel: when the last copy of the body goes, an unfinished transfer is cancelled.
    fileprivate final class Storage: Sendable {
        let channel: BodyChannel
        init(channel: BodyChannel) { self.channel = channel }
        deinit { channel.cancel() }
    }
}

/// A response whose head has arrived and whose body is still streaming.
public struct StreamedResponse: Sendable {
    /// The status line and headers.
    public var head: ResponseHead
    /// The URL that finally answered, after redirects.
    public var url: URL
    /// When the head arrived.
    public var headReceived: Date
    /// The redirects followed, in order.
    public var redirects: [ResponseTimings.Redirect]
    /// The body, chunk by chunk (decompressed when the transport decompresses).
    public var body: ResponseBody
    /// The expected body size from `Content-Length` when the body is not being decompressed.
    public var expectedBytes: Int64?

    /// Creates a streamed response.
    public init(
        head: ResponseHead, url: URL, headReceived: Date, redirects: [ResponseTimings.Redirect], body: ResponseBody,
        expectedBytes: Int64?
    ) {
        self.head = head
        self.url = url
        self.headReceived = headReceived
        self.redirects = redirects
        self.body = body
        self.expectedBytes = expectedBytes
    }
}

/// A bounded hand-over of body chunks from one producer (the transport) to one consumer.
///
/// A producer either awaits room (`send`, the pull-based async-http-client pump) or pushes and
/// learns whether it should pause (`push`), then asks to be told when there is room again
/// (`whenRoom`, for a producer on an event loop, which must not wait). The channel also keeps the request's clock: the
/// shared `BodyClock` fails the transfer at the total deadline, or when the consumer has waited
/// for bytes longer than the idle timeout.
final class BodyChannel: ClockWatched, Sendable {
    /// Bytes buffered before the producer is held back.
    static let highWater = 1 << 20

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var bufferedBytes = 0
        var ended: (any Error)??
        var consumer: CheckedContinuation<Data?, any Error>?
        var producers: [CheckedContinuation<Bool, Never>] = []
        var roomWatchers: [@Sendable () -> Void] = []
        var waitingSince: ContinuousClock.Instant?
        var terminationHandlers: [@Sendable () -> Void] = []
        var delivered = 0
        /// The clock that watches this channel and the deadlines it checks, until the body ends.
        var watch: (clock: BodyClock, deadlines: BodyDeadlines)?
    }
    private let state = Mutex(State())

    /// Creates a channel.
    init() {}

    /// Whether the body is still open (not finished, failed or cancelled).
    var isOpen: Bool { state.withLock { $0.ended == nil } }

    /// Bytes handed to the consumer so far.
    var bytesDelivered: Int { state.withLock { $0.delivered } }

    /// Bytes the channel holds on to (what waits unread, and nothing already read).
    var retainedBytes: Int { state.withLock { $0.chunks.reduce(0) { $0 + $1.count } } }

    // MARK: - Producer

    /// Hands over a chunk, waiting while the buffer is full.
    ///
    /// - Returns: `false` when the consumer has gone (stop producing).
    func send(_ chunk: Data) async -> Bool {
        guard push(chunk) else {
            return await withCheckedContinuation { continuation in
                let resumeNow: Bool? = state.withLock { state in
                    if state.ended != nil { return false }
                    if state.bufferedBytes < Self.highWater { return true }
                    state.producers.append(continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        }
        return state.withLock { $0.ended == nil }
    }

    /// Calls `action` once there is room for more chunks, or once the body has ended (then
    /// `push` answers `false` again, and the producer stops); at once if either is so already.
    ///
    /// - Parameter action: called once, on whichever thread frees the room.
    func whenRoom(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.ended != nil || state.bufferedBytes < Self.highWater { return true }
            state.roomWatchers.append(action)
            return false
        }
        if now { action() }
    }

    /// Hands over a chunk without waiting.
    ///
    /// - Returns: whether there is still room (`false`: the buffer is full or the consumer gone).
    @discardableResult
    func push(_ chunk: Data) -> Bool {
        guard !chunk.isEmpty else {
            return state.withLock { $0.ended == nil && $0.bufferedBytes < Self.highWater }
        }
        let (waiting, room): (CheckedContinuation<Data?, any Error>?, Bool) = state.withLock { state in
            guard state.ended == nil else { return (nil, false) }
            if let consumer = state.consumer {
                state.consumer = nil
                state.waitingSince = nil
                state.delivered += chunk.count
                return (consumer, true)
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            return (nil, state.bufferedBytes < Self.highWater)
        }
        waiting?.resume(returning: chunk)
        return room
    }

    /// Ends the body, normally or with an error. Later calls are ignored.
    ///
    /// - Parameters:
    ///   - error: the error the reader gets after the chunks already buffered (what arrived
    ///     is kept: a limit or a deadline ends the body, it does not take back what came).
    ///   - discardingBuffered: drop the buffered chunks too (the reader has given up).
    func finish(throwing error: (any Error)? = nil, discardingBuffered: Bool = false) {
        let (waiting, producers, watchers, watched) = state.withLock {
            state -> (
                CheckedContinuation<Data?, any Error>?, [CheckedContinuation<Bool, Never>], [@Sendable () -> Void],
                BodyClock?
            ) in
            guard state.ended == nil else { return (nil, [], [], nil) }
            state.ended = .some(error)
            if discardingBuffered {
                state.chunks = []
                state.head = 0
                state.bufferedBytes = 0
            }
            let waiting = state.bufferedBytes == 0 ? state.consumer : nil
            if waiting != nil { state.consumer = nil }
            let producers = state.producers
            state.producers = []
            let watchers = state.roomWatchers
            state.roomWatchers = []
            let watched = state.watch?.clock
            state.watch = nil
            return (waiting, producers, watchers, watched)
        }
        watched?.unwatch(self)
        if let waiting {
            if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
        }
        for producer in producers { producer.resume(returning: false) }
        for watcher in watchers { watcher() }
    }

    /// Ends the transfer with an error and runs the termination handlers (closing the
    /// connection); the reader gets the chunks already buffered, then the error.
    func fail(_ error: any Error) {
        finish(throwing: error)
        terminate()
    }

    /// Registers work to run when the consumer goes away or the transfer fails early.
    func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if case .some(.some) = state.ended { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - Consumer

    /// The next chunk, waiting for one.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                enum Answer: Sendable {
                    case chunk(Data, [CheckedContinuation<Bool, Never>], [@Sendable () -> Void])
                    case end((any Error)?)
                    case wait
                }
                let answer: Answer = state.withLock { state in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        // Let go of the chunk now: a reader slower than the connection never
                        // empties the buffer, and the array must not keep what it has read.
                        state.chunks[state.head] = Data()
                        state.head += 1
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        } else if state.head >= 64, state.head * 2 >= state.chunks.count {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        state.bufferedBytes -= chunk.count
                        state.delivered += chunk.count
                        var released: [CheckedContinuation<Bool, Never>] = []
                        var watchers: [@Sendable () -> Void] = []
                        if state.bufferedBytes < Self.highWater {
                            released = state.producers
                            state.producers = []
                            watchers = state.roomWatchers
                            state.roomWatchers = []
                        }
                        return .chunk(chunk, released, watchers)
                    }
                    if let ended = state.ended { return .end(ended) }
                    state.consumer = continuation
                    state.waitingSince = .now
                    return .wait
                }
                switch answer {
                case .chunk(let chunk, let released, let watchers):
                    continuation.resume(returning: chunk)
                    for producer in released { producer.resume(returning: true) }
                    for watcher in watchers { watcher() }
                case .end(let error?):
                    continuation.resume(throwing: error)
                case .end(nil):
                    continuation.resume(returning: nil)
                case .wait:
                    break
                }
            }
        } onCancel: {
            self.cancel()
        }
    }

    /// The consumer gives up: the transfer is cancelled.
    func cancel() {
        finish(throwing: TransportError.cancelled, discardingBuffered: true)
        terminate()
    }

    private func terminate() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            let handlers = state.terminationHandlers
            state.terminationHandlers = []
            return handlers
        }
        for handler in handlers { handler() }
    }

    // MARK: - Clock

    /// Has a `BodyClock` fail the transfer at `deadline`, or when the consumer has waited
    /// longer than `idle` for bytes.
    ///
    /// - Parameters:
    ///   - deadline: the total deadline, if any.
    ///   - idle: the idle timeout, if any.
    ///   - url: the URL, for the error.
    ///   - clock: the clock (the one every transfer shares, unless a test has its own).
    func watch(deadline: ContinuousClock.Instant?, idle: Duration?, url: URL, clock: BodyClock = .shared) {
        guard deadline != nil || idle != nil else { return }
        let deadlines = BodyDeadlines(deadline: deadline, idle: idle, url: url)
        let keep = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            state.watch = (clock, deadlines)
            return true
        }
        guard keep else { return }
        clock.watch(self, firstCheck: deadlines.firstCheck(from: .now))
    }

    /// Fails the transfer when its total deadline has passed or the consumer has waited longer
    /// than the idle timeout (the `BodyClock` asks).
    ///
    /// - Parameter now: the clock's time.
    /// - Returns: when to ask again, or `nil` when the body has ended (now or before).
    func check(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let watched = state.withLock { state in state.watch.map { ($0.deadlines, state.waitingSince) } }
        guard let (deadlines, since) = watched else { return nil }
        switch deadlines.check(at: now, waitingSince: since) {
        case .success(let wake):
            return wake
        case .failure(let timeout):
            fail(timeout)
            return nil
        }
    }
}

extension Duration {
    /// The duration as a person reads it: `300 ms`, `3 s`, `1.5 s`.
    package var shortDescription: String {
        let milliseconds = Double(nanoseconds) / 1_000_000
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
