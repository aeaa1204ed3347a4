import NIOCore
import NIOHPACK
import NIOHTTP2
import NetworkingCore

/// One call of the direct path, on an HTTP/2 stream of its connection's loop: it writes the
/// request (headers, the one message, end of stream), reads the answer frame by frame, and tells
/// the call's reader each part as grpc-swift-2's client would (the same statuses and messages).
///
/// Everything runs on the connection's loop: no task, no hop between threads. A reader slower
/// than the server holds the stream back: once the call's buffer is full the handler asks for
/// no more reads (so no more WINDOW_UPDATEs go out) until the reader takes a message. The
/// deadline resets the stream and ends the call `DEADLINE_EXCEEDED`; `cancel()` resets it and
/// ends it `CANCELLED`.
final class GRPCStreamHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// What the call sends and may receive.
    struct Request: Sendable {
        var path: String
        var headers: HPACKHeaders
        var message: [UInt8]
        var timeout: Duration?
        var responseLimit: Int
    }

    private let request: Request
    private let state: GRPCCallState
    private let loop: any EventLoop
    /// Gives the connection to open the stream on (a new one for the retry).
    private let connect: () throws -> GRPCConnection
    private let target: GRPCTarget
    private var connection: GRPCConnection?
    private var context: ChannelHandlerContext?
    private var deadline: Scheduled<Void>?
    private var attempts = 0
    private var sent = false
    private var gotHeaders = false
    private var ended = false
    /// The bytes of a message not whole yet.
    private var inbound: ByteBuffer?
    /// Messages the call had no room for yet, and the end that comes after them.
    private var waiting = CircularBuffer<[UInt8]>()
    private var waitingEnd: (GRPCStatus, GRPCMetadata)?
    private var paused = false
    private var readAsked = false

    init(
        request: Request, state: GRPCCallState, target: GRPCTarget, loop: any EventLoop,
        connect: @escaping () throws -> GRPCConnection
    ) {
        self.request = request
        self.state = state
        self.target = target
        self.loop = loop
        self.connect = connect
    }

    // MARK: - Starting

    /// Starts the call: the deadline, the way to cancel it, the stream. On `loop`.
    func start() {
        let bound = NIOLoopBound(self, eventLoop: loop)
        if let timeout = request.timeout {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            deadline = loop.scheduleTask(in: .nanoseconds(nanoseconds)) { bound.value.deadlinePassed() }
        }
        let loop = loop
        state.attach { loop.execute { bound.value.cancel() } }
        // Cancelled before it went out: nothing is sent (a stream opened and reset at once can
        // leave grpc-swift's server waiting for a cancellation it missed).
        if state.isCancelled { return cancel() }
        open()
    }

    private func open() {
        guard !ended else { return }
        attempts += 1
        let connection: GRPCConnection
        do {
            connection = try connect()
        } catch {
            return fail(error)
        }
        self.connection = connection
        let bound = NIOLoopBound(self, eventLoop: loop)
        state.started()
        connection.openStream({ bound.value }, failed: { bound.value.streamFailed($0) })
    }

    /// No stream: the connection failed, or closed before the stream opened (then once more on
    /// a new connection, since nothing reached the server).
    private func streamFailed(_ error: any Error) {
        guard !ended else { return }
        if let connection, !connection.isUsable, attempts == 1, connection.failureBeforeHTTP2() == nil {
            return open()
        }
        if let failure = connectionFailure(error) { return fail(failure) }
        end(GRPCStatus(code: 14, message: "Stream unexpectedly closed."), trailers: [], reset: false)
    }

    /// What a connection's error means: a failure to reach a gRPC server, or `nil`.
    private func connectionFailure(_ error: any Error) -> (any Error)? {
        if error is GRPCConnection.NotHTTP2 { return GRPCFailureMapping.notHTTP2(target) }
        if let failure = GRPCFailureMapping.connectionFailure(cause: error, target: target) { return failure }
        if let before = connection?.failureBeforeHTTP2() {
            return GRPCFailureMapping.connectionFailure(cause: before, target: target)
                ?? GRPCFailureMapping.notHTTP2(target)
        }
        return nil
    }

    // MARK: - The stream

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if !ended, context.channel.isActive { send(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        // A call that ended while its stream was being made (cancelled, past its deadline)
        // closes it once it is active: closing it while it is made leaves it half made.
        if ended {
            context.close(promise: nil)
        } else {
            send(context: context)
        }
        context.fireChannelActive()
    }

    private func send(context: ChannelHandlerContext) {
        guard !sent, !ended else { return }
        sent = true
        let headers = HTTP2Frame.FramePayload.headers(.init(headers: request.headers))
        context.write(wrapOutboundOut(headers), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: 5 + request.message.count)
        buffer.writeInteger(UInt8(0))
        buffer.writeInteger(UInt32(request.message.count))
        buffer.writeBytes(request.message)
        let data = HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(buffer), endStream: true))
        context.writeAndFlush(wrapOutboundOut(data), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ended else { return }
        switch unwrapInboundIn(data) {
        case .headers(let frame): received(frame.headers, endStream: frame.endStream)
        case .data(let frame):
            guard gotHeaders else {
                return end(
                    GRPCStatus(code: 13, message: "Server sent a DATA frame before sending initial metadata."),
                    trailers: [])
            }
            guard !frame.endStream else {
                return end(
                    GRPCStatus(
                        code: 13,
                        message: "Server sent EOS alongside a data frame, but server is only allowed to close by "
                            + "sending status and trailers."),
                    trailers: [])
            }
            guard case .byteBuffer(var bytes) = frame.data else { return }
            if inbound == nil {
                inbound = bytes
            } else {
                inbound!.writeBuffer(&bytes)
            }
            deframe()
        case .rstStream(let code):
            end(
                GRPCStatus(
                    code: 14, message: "Stream unexpectedly closed: received RST_STREAM frame (\(describe(code)))."),
                trailers: [], reset: false)
        default: break
        }
    }

    private func received(_ headers: HPACKHeaders, endStream: Bool) {
        guard gotHeaders else {
            switch GRPCWire.head(headers, endStream: endStream) {
            case .skip: return
            case .headers(let metadata):
                gotHeaders = true
                state.headers(metadata)
            case .end(let status, let trailers): end(status, trailers: trailers, reset: false)
            case .refused(let status, let metadata): end(status, trailers: metadata)
            }
            return
        }
        let (status, trailers) = GRPCWire.end(headers)
        end(status, trailers: trailers, reset: !endStream)
    }

    /// Takes each whole message out of the bytes read.
    private func deframe() {
        while !ended, var buffer = inbound, buffer.readableBytes >= 5 {
            let start = buffer.readerIndex
            let compressed = buffer.readInteger(as: UInt8.self)! == 1
            let length = Int(buffer.readInteger(as: UInt32.self)!)
            if length > request.responseLimit {
                let message =
                    "a response message (\(length) bytes) is over the limit of \(request.responseLimit) bytes; "
                    + "raise GRPCCallOptions.maximumResponseSize (or the dispatcher's maximumMessageSize) to accept it"
                return end(GRPCStatus(code: 8, message: message), trailers: [])
            }
            guard let bytes = buffer.readBytes(length: length) else {
                buffer.moveReaderIndex(to: start)
                inbound = buffer
                return
            }
            if compressed {
                return end(
                    GRPCStatus(
                        code: 13,
                        message: "Failed to decode message internalError: \"Received a compressed message payload, "
                            + "but no decompressor has been configured.\""),
                    trailers: [])
            }
            inbound = buffer.readableBytes == 0 ? nil : buffer
            deliver(bytes)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.context = nil
        if !ended {
            // The connection's own handlers learn why after the streams: look one tick later.
            let bound = NIOLoopBound(self, eventLoop: loop)
            loop.execute { bound.value.closedWithoutStatus() }
        }
        context.fireChannelInactive()
    }

    private func closedWithoutStatus() {
        guard !ended else { return }
        if !gotHeaders, let before = connection?.failureBeforeHTTP2() {
            return fail(connectionFailure(before) ?? GRPCFailureMapping.notHTTP2(target))
        }
        end(GRPCStatus(code: 14, message: "Stream unexpectedly closed."), trailers: [], reset: false)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !ended else { return }
        end(GRPCStatus(code: 14, message: "Stream unexpectedly closed with error."), trailers: [])
    }

    // MARK: - Holding the server back

    func read(context: ChannelHandlerContext) {
        if paused {
            readAsked = true
        } else {
            context.read()
        }
    }

    private func deliver(_ message: [UInt8]) {
        if paused || !waiting.isEmpty {
            waiting.append(message)
        } else if !state.offer(message) {
            pause()
        }
    }

    private func pause() {
        paused = true
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = loop
        if !state.whenRoom({ loop.execute { bound.value.resume() } }) { resume() }
    }

    /// The reader took a message: hand it those that waited, then read on.
    private func resume() {
        guard paused else { return }
        paused = false
        while let message = waiting.popFirst() {
            if !state.offer(message) {
                pause()
                if paused { return }
            }
        }
        if let end = waitingEnd {
            waitingEnd = nil
            state.end(end.0, trailers: end.1)
        }
        if readAsked, let context {
            readAsked = false
            context.read()
        }
    }

    // MARK: - Ending

    private func deadlinePassed() {
        guard !ended else { return }
        let timeout = request.timeout.map { " (\($0))" } ?? ""
        end(
            GRPCStatus(code: 4, message: "the deadline\(timeout) passed before the call ended"), trailers: [], now: true
        )
    }

    /// The caller cancelled: the stream is reset.
    private func cancel() {
        guard !ended else { return }
        end(GRPCStatus(code: 1, message: "the call was cancelled by the client"), trailers: [], now: true)
    }

    /// Ends the call with a status (after the messages that wait, unless `now`), resetting the
    /// stream when it is still open.
    private func end(_ status: GRPCStatus, trailers: GRPCMetadata, reset: Bool = true, now: Bool = false) {
        guard !ended else { return }
        ended = true
        deadline?.cancel()
        if now || waiting.isEmpty {
            waiting.removeAll()
            state.end(status, trailers: trailers)
        } else {
            waitingEnd = (status, trailers)
        }
        // Closing a stream that is still open sends RST_STREAM (CANCEL); one the server ended
        // closes by itself.
        if reset { context?.close(promise: nil) }
    }

    /// The call never reached a gRPC server.
    private func fail(_ error: any Error) {
        guard !ended else { return }
        ended = true
        deadline?.cancel()
        state.fail(error)
        context?.close(promise: nil)
    }

    private func describe(_ code: HTTP2ErrorCode) -> String {
        let name: String
        switch code {
        case .noError: name = "no error"
        case .protocolError: name = "protocol error"
        case .internalError: name = "internal error"
        case .flowControlError: name = "flow control error"
        case .settingsTimeout: name = "settings Timeout"
        case .streamClosed: name = "stream closed"
        case .frameSizeError: name = "frame size error"
        case .refusedStream: name = "refused stream"
        case .cancel: name = "cancel"
        case .compressionError: name = "compression error"
        case .connectError: name = "connect error"
        case .enhanceYourCalm: name = "enhance your calm"
        case .inadequateSecurity: name = "inadequate security"
        case .http11Required: name = "HTTP/1.1 required"
        default: name = "unknown error"
        }
        return "0x" + String(code.networkCode, radix: 16) + ": " + name
    }
}
