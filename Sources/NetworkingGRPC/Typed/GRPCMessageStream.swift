import NetworkingCore
import SwiftProtobuf
import Synchronization

/// The response messages of a streaming call, decoded, as they arrive; then its headers,
/// status and trailers.
///
/// Iterating ends after the last message when the call ends OK, and throws `GRPCError` when it
/// ends otherwise. Iterate it once; stopping early cancels the call.
///
/// ```swift
/// let updates = dispatcher.serverStream("/feed.Feed/Watch", request, as: Update.self)
/// for try await update in updates { print(update) }
/// print(updates.status ?? .ok, updates.trailers ?? [])
/// ```
public struct GRPCMessageStream<Message: SwiftProtobuf.Message>: AsyncSequence, Sendable {
    private final class Seen: Sendable {
        struct Parts {
            var headers: GRPCMetadata?
            var status: GRPCStatus?
            var trailers: GRPCMetadata?
        }
        let parts = Mutex(Parts())
    }

    /// The call underneath.
    public let call: GRPCCall
    private let seen = Seen()

    init(call: GRPCCall) { self.call = call }

    /// The response headers, once they arrived.
    public var headers: GRPCMetadata? { seen.parts.withLock { $0.headers } }
    /// How the call ended, once it did.
    public var status: GRPCStatus? { seen.parts.withLock { $0.status } }
    /// The trailers, once the call ended.
    public var trailers: GRPCMetadata? { seen.parts.withLock { $0.trailers } }
    /// When the call started, its headers arrived and it ended.
    public var timings: ResponseTimings { call.timings }

    /// Cancels the call.
    public func cancel() { call.cancel() }

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(events: call.events.makeAsyncIterator(), stream: self) }

    /// Reads the events and gives the messages.
    public struct Iterator: AsyncIteratorProtocol {
        var events: GRPCEvents.AsyncIterator
        let stream: GRPCMessageStream

        /// The next message, or `nil` after the last of a call that ended OK.
        ///
        /// - Throws: `GRPCError` when the call ends with another status, `TransportError`
        ///   when it never reached the server (`.cancelled` when it was cancelled here).
        public mutating func next() async throws -> Message? {
            while let event = try await events.next() {
                switch event {
                case .headers(let headers):
                    stream.seen.parts.withLock { $0.headers = headers }
                case .message(let bytes):
                    return try GRPCTypedCall.decode(Message.self, bytes, call: stream.call)
                case .end(let status, let trailers):
                    stream.seen.parts.withLock {
                        $0.status = status
                        $0.trailers = trailers
                    }
                    try GRPCTypedCall.check(
                        status, call: stream.call, headers: stream.headers ?? [], trailers: trailers)
                    return nil
                }
            }
            if stream.call.state.isCancelled { throw TransportError.cancelled }
            return nil
        }
    }
}
