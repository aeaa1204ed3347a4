import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A request sent with async-http-client's delegate API, answered when its head has arrived;
/// the body follows through a `BodyChannel`, with back-pressure.
///
/// async-http-client's async `execute` starts an unstructured `Task` for every request (to
/// register it for cancellation), which wakes a thread of Swift's cooperative pool each time.
/// The delegate API starts none: the exchange stays on the connection's event loop until the
/// head is handed over. Measured with `explorer load -c 1` against the demo (its worker on a
/// loop): 1.0 context switch a request against 2.8, 6–25% less CPU (docs/benchmarks.md).
///
/// The head's deadline is the exchange's own (async-http-client's would cover the body too):
/// a timer on the event loop fails the request if no head has come by then.
enum DelegatedExchange {
    /// Sends a request on a client and answers when the head has arrived.
    ///
    /// - Parameters:
    ///   - request: the request (async-http-client's older type, which the delegate API takes).
    ///   - client: the client, whose configuration (TLS, proxy, pool) applies.
    ///   - deadline: when the head must have arrived.
    /// - Returns: the response, its body still arriving, and the channel it comes through
    ///   (which the response's body owns: letting go of that gives the transfer up).
    /// - Throws: async-http-client's errors (the transport maps them); `deadlineExceeded` at
    ///   the deadline; `cancelled` when the calling task is cancelled.
    static func execute(_ request: HTTPClient.Request, on client: HTTPClient, deadline: NIODeadline) async throws -> (
        HTTPClientResponse, BodyChannel
    ) {
        // The loop the caller is on, if any (`any()` prefers it): the pool then prefers a
        // connection of that loop, and the delegate runs there.
        let eventLoop = client.eventLoopGroup.any()
        let body = BodyChannel()
        let headPromise = eventLoop.makePromise(of: HTTPResponseHead.self)
        let delegate = StreamingDelegate(headPromise: headPromise, body: body)
        let task = client.execute(
            request: request, delegate: delegate, eventLoop: .delegate(on: eventLoop), deadline: nil)
        let timer = eventLoop.scheduleTask(deadline: deadline) { task.fail(reason: HTTPClientError.deadlineExceeded) }
        headPromise.futureResult.whenComplete { _ in timer.cancel() }
        // A reader that gives the body up (or a failure) ends the request and its connection.
        body.onTermination { task.cancel() }
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await headPromise.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            body.fail(error)
            throw error
        }
        return (
            HTTPClientResponse(
                version: head.version, status: head.status, headers: head.headers,
                body: .stream(ChannelBody(channel: body))), body
        )
    }
}

/// Hands the head to the exchange's promise and the body to its channel, reading no more while
/// the reader has a full buffer. async-http-client calls it on the task's event loop, one call
/// at a time.
private final class StreamingDelegate: HTTPClientResponseDelegate {
    typealias Response = Void

    private let headPromise: EventLoopPromise<HTTPResponseHead>
    private let body: BodyChannel
    /// Whether the head has been handed over (only touched on the task's event loop).
    private nonisolated(unsafe) var headArrived = false

    init(headPromise: EventLoopPromise<HTTPResponseHead>, body: BodyChannel) {
        self.headPromise = headPromise
        self.body = body
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        headArrived = true
        headPromise.succeed(head)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard !body.push(Data(buffer.readableBytesView)) else { return task.eventLoop.makeSucceededVoidFuture() }
        // Full, or the reader has gone (then `whenRoom` answers at once and the termination
        // handler has cancelled the task).
        let room = task.eventLoop.makePromise(of: Void.self)
        body.whenRoom { room.succeed(()) }
        return room.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        // Before the head, the head's error (the body goes with it); after it, the body's.
        if !headArrived { headPromise.fail(error) }
        body.fail(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        body.finish()
    }
}

/// The body of a response whose chunks come through a `BodyChannel`, as buffers. Letting go of
/// it (and of its iterator) before its end cancels the transfer, which closes the connection,
/// as async-http-client's own body does: a reader that stops early (a limit, a cancelled
/// transfer) leaves no connection waiting for room that never comes.
struct ChannelBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private let storage: Storage

    init(channel: BodyChannel) {
        storage = Storage(channel: channel)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let storage: Storage
        mutating func next() async throws -> ByteBuffer? {
            try await storage.channel.next().map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(storage: storage) }

    /// Owns the channel: when the last copy goes, an unfinished transfer is cancelled.
    fileprivate final class Storage: Sendable {
        let channel: BodyChannel
        init(channel: BodyChannel) { self.channel = channel }
        deinit { channel.cancel() }
    }
}
