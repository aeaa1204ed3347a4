import Foundation
import Synchronization

extension HTTPTransport {
    /// Streams through `send`: the head is answered from the first progress update, chunks are
    /// handed over as `send` delivers them (no back-pressure: for transports without a native
    /// `stream`).
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: deadlines and body limits.
    /// - Returns: the head and the body still arriving.
    /// - Throws: `TransportError`, for anything before the head.
    public func stream(_ request: PreparedRequest, options: TransferOptions) async throws -> StreamedResponse {
        let channel = BodyChannel()
        let started = HeadSignal()
        var streaming = options
        streaming.bodyDestination = .stream { chunk in
            guard channel.push(chunk) || channel.isOpen else { throw TransportError.cancelled }
        }
        let task = Task {
            do {
                let response = try await self.send(request, options: streaming) { progress in
                    if let head = progress.head { started.resolve(.success((head, progress.expectedBytes))) }
                }
                started.resolve(
                    .success(
                        (
                            ResponseHead(
                                status: response.status, headers: response.headers, httpVersion: response.httpVersion),
                            nil
                        )))
                channel.finish()
            } catch {
                started.resolve(.failure(error))
                channel.fail(error)
            }
        }
        channel.onTermination { task.cancel() }
        let (head, expected) = try await withTaskCancellationHandler {
            try await started.value
        } onCancel: {
            task.cancel()
        }
        return StreamedResponse(
            head: head, url: request.url, headReceived: Date(), redirects: [], body: ResponseBody(channel: channel),
            expectedBytes: expected)
    }

    /// Collects a streamed body into a destination, reporting progress: how `send` is built on
    /// `stream`.
    ///
    /// - Parameters:
    ///   - streamed: the response, its body still arriving.
    ///   - destination: where the body goes.
    ///   - progress: called when the head is in and as body bytes arrive.
    /// - Returns: the complete response.
    /// - Throws: `TransportError` from the body, or a destination's error.
    public func collect(
        _ streamed: StreamedResponse, destination: TransferOptions.BodyDestination,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        var sink = try BodySink(
            expected: streamed.expectedBytes, destination: destination, head: streamed.head, progress: progress)
        sink.begin()
        do {
            for try await chunk in streamed.body { try sink.append(chunk) }
        } catch {
            streamed.body.cancel()
            throw error
        }
        let body = try sink.finish()
        return TransportResponse(
            status: streamed.head.status, headers: streamed.head.headers, body: body, url: streamed.url,
            httpVersion: streamed.head.httpVersion, headReceived: streamed.headReceived, finished: Date(),
            bytesReceived: sink.count, redirects: streamed.redirects)
    }
}

/// A value that arrives once, awaited by one task.
final class HeadSignal: Sendable {
    private struct State {
        var result: Result<(ResponseHead, Int64?), any Error>?
        var waiter: CheckedContinuation<(ResponseHead, Int64?), any Error>?
    }
    private let state = Mutex(State())

    /// Sets the value; later calls are ignored.
    func resolve(_ result: Result<(ResponseHead, Int64?), any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<(ResponseHead, Int64?), any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            return state.waiter.take()
        }
        waiter?.resume(with: result)
    }

    /// The value, once set.
    var value: (ResponseHead, Int64?) {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state -> Result<(ResponseHead, Int64?), any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}
