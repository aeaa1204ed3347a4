import Foundation
import NetworkingCore
import Synchronization

/// What a call has told its reader, and what stops it: the events in order (headers once,
/// then messages, then one end), its timings, and how to cancel the work that runs it.
///
/// The events wait in a bounded buffer until the reader takes them: when `bufferLimit`'s
/// messages or bytes wait unread, `message(_:)` suspends the task that reads the response
/// stream until the reader takes one (and `offer(_:)` tells a stream handler to stop reading
/// until `whenRoom(_:)`'s handler runs), so no more is read from the connection and HTTP/2's
/// flow control holds the server back. The headers and the end (status and trailers, or a
/// failure) are never held back nor dropped.
final class GRPCCallState: Sendable {
    /// How many messages, and how many of their bytes, wait unread at most before the response
    /// stream is read no further (a message larger than the bytes waits alone).
    static let bufferLimit = (messages: 16, bytes: 4 * 1024 * 1024)

    private struct State {
        /// Stops the work that runs the call (its task, or its stream on the connection's loop).
        var stop: (@Sendable () -> Void)?
        var cancelled = false
        var headersSent = false
        var over = false
        var timings = ResponseTimings(started: Date())
        /// The events not yet read, from `head` on.
        var queue: [GRPCEvent] = []
        var head = 0
        var queuedMessages = 0
        var queuedBytes = 0
        /// The most messages that ever waited unread (tests read it).
        var mostQueuedMessages = 0
        /// Why the call failed, thrown once the events before it are read.
        var failure: (any Error)?
        /// The reader waiting for an event, and the response stream's reader waiting for room.
        var reader: CheckedContinuation<GRPCEvent?, any Error>?
        var writer: CheckedContinuation<Void, Never>?
        /// A stream handler's way on once there is room (the direct path's `writer`).
        var roomHandler: (@Sendable () -> Void)?
        /// Waiters for the writer to be held back (tests).
        var heldBackWaiters: [CheckedContinuation<Void, Never>] = []
        /// The reader stopped (its iterator was dropped or its task cancelled): nothing more is kept.
        var readerGone = false
        /// The reader took the end (or the failure).
        var readerDone = false

        var isFull: Bool {
            queuedMessages > 0
                && (queuedMessages >= GRPCCallState.bufferLimit.messages
                    || queuedBytes >= GRPCCallState.bufferLimit.bytes)
        }

        /// The next event waiting, taken from the queue.
        mutating func dequeue() -> GRPCEvent? {
            guard head < queue.count else { return nil }
            let event = queue[head]
            queue[head] = .headers([])
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            if case .message(let bytes) = event {
                queuedMessages -= 1
                queuedBytes -= bytes.count
            }
            return event
        }

        /// Gives an event to the waiting reader, or queues it; returns the reader to resume.
        mutating func deliver(_ event: GRPCEvent) -> CheckedContinuation<GRPCEvent?, any Error>? {
            if let reader, head == queue.count {
                self.reader = nil
                return reader
            }
            queue.append(event)
            if case .message(let bytes) = event {
                queuedMessages += 1
                queuedBytes += bytes.count
                mostQueuedMessages = max(mostQueuedMessages, queuedMessages)
            }
            return nil
        }

        /// Marks the call over, handing back who waited for the writer to be held back; nil
        /// when it was over already.
        mutating func close() -> [CheckedContinuation<Void, Never>]? {
            guard !over else { return nil }
            over = true
            timings.finished = Date()
            defer { heldBackWaiters = [] }
            return heldBackWaiters
        }
    }

    private let state = Mutex(State())

    /// Whether the call was cancelled by this side.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
    /// Whether the call has ended (with a status or an error).
    var isOver: Bool { state.withLock { $0.over } }
    var timings: ResponseTimings { state.withLock { $0.timings } }
    /// How many messages wait unread now, and the most that ever did.
    var bufferedMessages: (now: Int, most: Int) { state.withLock { ($0.queuedMessages, $0.mostQueuedMessages) } }

    func attach(_ task: Task<Void, Never>) {
        attach { task.cancel() }
    }

    /// Sets what `cancel()` runs; runs it now when the call was cancelled already.
    func attach(stop: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.stop = stop
            return state.cancelled
        }
        if cancelled { stop() }
    }

    func cancel() {
        let stop = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.over, !state.cancelled else { return nil }
            state.cancelled = true
            return state.stop
        }
        stop?()
    }

    /// The request is handed to the transport now.
    func started() { state.withLock { $0.timings.started = Date() } }

    // MARK: - The response stream's side

    func headers(_ metadata: GRPCMetadata) {
        let reader = state.withLock { state -> CheckedContinuation<GRPCEvent?, any Error>? in
            guard !state.over, !state.headersSent else { return nil }
            state.headersSent = true
            state.timings.headReceived = Date()
            return state.readerGone ? nil : state.deliver(.headers(metadata))
        }
        reader?.resume(returning: .headers(metadata))
    }

    /// Hands a message to the reader; returns once fewer than `bufferLimit` wait unread (or at
    /// once when the call's task is cancelled or the reader is gone).
    func message(_ bytes: [UInt8]) async {
        if !offer(bytes) { await waitForRoom() }
    }

    /// Hands a message to the reader without waiting: the direct path's `message(_:)`.
    ///
    /// - Returns: whether there is room for more; when not, the caller stops reading the
    ///   stream and waits for `whenRoom(_:)`.
    func offer(_ bytes: [UInt8]) -> Bool {
        enum Delivery {
            case handed(CheckedContinuation<GRPCEvent?, any Error>)
            case queued(full: Bool)
        }
        let delivery = state.withLock { state -> Delivery in
            guard !state.over, !state.readerGone else { return .queued(full: false) }
            state.timings.bytesReceived += bytes.count
            if let reader = state.deliver(.message(bytes)) { return .handed(reader) }
            return .queued(full: state.isFull)
        }
        switch delivery {
        case .handed(let reader):
            reader.resume(returning: .message(bytes))
            return true
        case .queued(let full): return !full
        }
    }

    /// Runs `handler` once the reader has taken a message (or left, or the call ended).
    ///
    /// - Returns: `false`, without keeping `handler`, when there is room already.
    func whenRoom(_ handler: @escaping @Sendable () -> Void) -> Bool {
        let heldBack = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard state.isFull, !state.readerGone, !state.over else { return nil }
            state.roomHandler = handler
            defer { state.heldBackWaiters = [] }
            return state.heldBackWaiters
        }
        guard let heldBack else { return false }
        for waiter in heldBack { waiter.resume() }
        return true
    }

    /// Waits until the reader takes a message (or it leaves, or this task is cancelled).
    private func waitForRoom() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                let heldBack = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    guard state.isFull, !state.readerGone, !Task.isCancelled else { return nil }
                    state.writer = writer
                    defer { state.heldBackWaiters = [] }
                    return state.heldBackWaiters
                }
                guard let heldBack else { return writer.resume() }
                for waiter in heldBack { waiter.resume() }
            }
        } onCancel: {
            releaseWriter()
        }
    }

    /// Ends the call with a status (headers first, empty, when none came).
    func end(_ status: GRPCStatus, trailers: GRPCMetadata) {
        headers([])
        let (waiters, reader) = state.withLock {
            state -> ([CheckedContinuation<Void, Never>], CheckedContinuation<GRPCEvent?, any Error>?) in
            guard let waiters = state.close() else { return ([], nil) }
            return (waiters, state.readerGone ? nil : state.deliver(.end(status, trailers: trailers)))
        }
        for waiter in waiters { waiter.resume() }
        reader?.resume(returning: .end(status, trailers: trailers))
    }

    /// Ends the call with an error: it never reached a gRPC server. The reader gets it after
    /// the events before it.
    func fail(_ error: any Error) {
        let (waiters, reader) = state.withLock {
            state -> ([CheckedContinuation<Void, Never>], CheckedContinuation<GRPCEvent?, any Error>?) in
            guard let waiters = state.close() else { return ([], nil) }
            guard let reader = state.reader else {
                state.failure = error
                return (waiters, nil)
            }
            state.reader = nil
            state.readerDone = true
            return (waiters, reader)
        }
        for waiter in waiters { waiter.resume() }
        reader?.resume(throwing: error)
    }

    /// Lets the response stream's reader go on (its task was cancelled, or there is room).
    private func releaseWriter() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.writer = nil }
            return state.writer
        }?.resume()
    }

    // MARK: - The reader's side

    /// The next event, waiting for it; `nil` after the end, or when the reader's task is cancelled
    /// (the call is cancelled then).
    ///
    /// - Throws: the failure `fail(_:)` gave, after the events before it.
    func next() async throws -> GRPCEvent? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<GRPCEvent?, any Error>) in
                enum Answer {
                    case event(GRPCEvent?, room: CheckedContinuation<Void, Never>?, handler: (@Sendable () -> Void)?)
                    case failure(any Error)
                    case wait
                }
                let answer = state.withLock { state -> Answer in
                    if state.readerGone || state.readerDone { return .event(nil, room: nil, handler: nil) }
                    if let event = state.dequeue() {
                        if case .end = event { state.readerDone = true }
                        var room: CheckedContinuation<Void, Never>?
                        var handler: (@Sendable () -> Void)?
                        if !state.isFull {
                            room = state.writer
                            state.writer = nil
                            handler = state.roomHandler
                            state.roomHandler = nil
                        }
                        return .event(event, room: room, handler: handler)
                    }
                    if let failure = state.failure {
                        state.failure = nil
                        state.readerDone = true
                        return .failure(failure)
                    }
                    if state.over {
                        state.readerDone = true
                        return .event(nil, room: nil, handler: nil)
                    }
                    state.reader = reader
                    return .wait
                }
                switch answer {
                case .event(let event, let room, let handler):
                    room?.resume()
                    handler?()
                    reader.resume(returning: event)
                case .failure(let error): reader.resume(throwing: error)
                case .wait: break
                }
            }
        } onCancel: {
            readerLeft()
        }
    }

    /// The reader stopped before the end (its iterator was dropped, or its task cancelled):
    /// the call is cancelled and nothing more is kept for it.
    func readerLeft() {
        let (reader, writer, handler, waiters, done) = state.withLock { state in
            defer {
                state.heldBackWaiters = []
                state.reader = nil
                state.writer = nil
                state.roomHandler = nil
                state.queue = []
                state.head = 0
                state.queuedMessages = 0
                state.queuedBytes = 0
            }
            let done = state.readerDone || state.readerGone
            state.readerGone = true
            return (state.reader, state.writer, state.roomHandler, state.heldBackWaiters, done)
        }
        reader?.resume(returning: nil)
        writer?.resume()
        handler?()
        for waiter in waiters { waiter.resume() }
        if !done { cancel() }
    }

    /// Returns once the response stream's reader waits for room: `bufferLimit` messages wait
    /// unread (tests).
    func heldBack() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.writer != nil || state.roomHandler != nil || state.over || state.readerGone { return true }
                state.heldBackWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }
}
