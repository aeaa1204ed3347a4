import Foundation
import NetworkingCore
import Synchronization

/// What a call has told its reader, and what stops it: the events in order (headers once,
/// then messages, then one end), its timings, and the task that runs it.
final class GRPCCallState: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var cancelled = false
        var headersSent = false
        var over = false
        var timings = ResponseTimings(started: Date())
    }

    private let continuation: AsyncThrowingStream<GRPCEvent, any Error>.Continuation
    private let state = Mutex(State())

    init(continuation: AsyncThrowingStream<GRPCEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Whether the call was cancelled by this side.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
    /// Whether the call has ended (with a status or an error).
    var isOver: Bool { state.withLock { $0.over } }
    var timings: ResponseTimings { state.withLock { $0.timings } }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard !state.over, !state.cancelled else { return nil }
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// The request is handed to the transport now.
    func started() { state.withLock { $0.timings.started = Date() } }

    func headers(_ metadata: GRPCMetadata) {
        let send = state.withLock { state -> Bool in
            guard !state.over, !state.headersSent else { return false }
            state.headersSent = true
            state.timings.headReceived = Date()
            return true
        }
        if send { continuation.yield(.headers(metadata)) }
    }

    func message(_ bytes: [UInt8]) {
        let send = state.withLock { state -> Bool in
            guard !state.over else { return false }
            state.timings.bytesReceived += bytes.count
            return true
        }
        if send { continuation.yield(.message(bytes)) }
    }

    /// Ends the call with a status (headers first, empty, when none came).
    func end(_ status: GRPCStatus, trailers: GRPCMetadata) {
        headers([])
        guard closing() else { return }
        continuation.yield(.end(status, trailers: trailers))
        continuation.finish()
    }

    /// Ends the call with an error: it never reached a gRPC server.
    func fail(_ error: any Error) {
        guard closing() else { return }
        continuation.finish(throwing: error)
    }

    /// Marks the call over; false when it was already.
    private func closing() -> Bool {
        state.withLock { state in
            guard !state.over else { return false }
            state.over = true
            state.timings.finished = Date()
            return true
        }
    }
}
