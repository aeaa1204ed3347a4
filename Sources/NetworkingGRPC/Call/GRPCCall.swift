import Foundation
import NetworkingCore
import Synchronization

/// A gRPC call in flight: messages go out through `send(_:)`, `finish()` says there are no
/// more, and `events` gives what comes back in order: `headers` once, `message`s, `end` once.
///
/// Every kind of call is one of these: a unary call sends one message and finishes; a
/// bidirectional one sends and reads in turn.
///
/// ```swift
/// let call = dispatcher.open("/echo.Echo/Chat")
/// try await call.send(ping)
/// for try await event in call.events {
///     if case .message(let bytes) = event { … ; call.finish() }
/// }
/// ```
///
/// `events` throws, instead of ending with a status, when the call never reached a gRPC
/// server: `TransportError` (refused, unreachable, TLS) or a metadata adapter's error.
///
/// The call goes out when its shape is known: at `finish()`, at a second message, at the first
/// read of `events` or at `cancel()`, whichever comes first. One message then `finish()` (a
/// unary or server-streaming call) goes straight onto an HTTP/2 stream of the connection;
/// any other shape runs through grpc-swift's client.
public final class GRPCCall: Sendable {
    /// Why a message could not be sent.
    public enum SendError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `finish()` was called: the request stream is closed.
        case finished(path: String)
        /// The call is over (ended, failed or cancelled).
        case ended(path: String)

        /// One sentence.
        public var description: String {
            switch self {
            case .finished(let path): "\(path): finish() was called, so no more messages can be sent."
            case .ended(let path): "\(path): the call is over, so no more messages can be sent."
            }
        }
    }

    /// The method called: `/pkg.Service/Method`.
    public let path: String
    /// What comes back, in order, as the reader takes it (at most `bufferedMessageLimit`
    /// messages wait unread: the server is held back); iterate it once. Stopping the iteration
    /// cancels the call.
    public let events: GRPCEvents
    /// How many response messages wait unread at most before the call reads no more of the
    /// server's stream (fewer when they reach 4 MiB).
    public static var bufferedMessageLimit: Int { GRPCCallState.bufferLimit.messages }
    /// The largest message `send(_:)` accepts, in bytes.
    public let maximumRequestSize: Int
    let outbound: AsyncStream<[UInt8]>
    private let outboundContinuation: AsyncStream<[UInt8]>.Continuation
    let state: GRPCCallState
    let launch: GRPCCallLaunch

    init(path: String, maximumRequestSize: Int) {
        self.path = path
        self.maximumRequestSize = maximumRequestSize
        let (outbound, continuation) = AsyncStream<[UInt8]>.makeStream()
        self.outbound = outbound
        outboundContinuation = continuation
        let state = GRPCCallState()
        self.state = state
        let launch = GRPCCallLaunch(outbound: continuation)
        self.launch = launch
        events = GRPCEvents(state: state, launch: launch)
    }

    /// Sends one message.
    ///
    /// - Parameter message: the message's bytes (a serialized protobuf message).
    /// - Throws: `GRPCError` (`RESOURCE_EXHAUSTED`) for a message over `maximumRequestSize`,
    ///   saying how to raise it; `SendError` after `finish()` or the end of the call.
    public func send(_ message: [UInt8]) async throws {
        guard message.count <= maximumRequestSize else {
            throw GRPCError.requestTooLarge(path: path, size: message.count, limit: maximumRequestSize)
        }
        if state.isOver { throw SendError.ended(path: path) }
        switch launch.send(message) {
        case .terminated: throw state.isOver ? SendError.ended(path: path) : SendError.finished(path: path)
        default: break
        }
    }

    /// Half-closes the call: no more messages will be sent (the server may still answer).
    public func finish() { launch.finish() }

    /// Cancels the call: its HTTP/2 stream is reset and `events` ends with `CANCELLED`.
    public func cancel() {
        state.cancel()
        launch.start()
        outboundContinuation.finish()
    }

    /// When the call started, its headers arrived and it ended, and the message bytes received
    /// so far.
    public var timings: ResponseTimings { state.timings }

    /// Starts the work that runs the call, in a task that prefers `executor` (the loop of the
    /// call's connection) when given, else on Swift's global executor.
    func run(on executor: (any TaskExecutor)?, _ operation: @escaping @Sendable () async -> Void) {
        let task = Task(executorPreference: executor) {
            await operation()
            self.outboundContinuation.finish()
        }
        state.attach(task)
    }
}
