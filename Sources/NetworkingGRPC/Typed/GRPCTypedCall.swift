import NetworkingCore
import SwiftProtobuf

/// What the typed calls share: encoding requests, decoding responses, collecting a call.
enum GRPCTypedCall {
    /// Sends each message, then finishes; a failure to send cancels the call.
    static func send<Request: SwiftProtobuf.Message>(_ requests: [Request], on call: GRPCCall) async throws {
        do {
            for request in requests { try await call.send(try request.serializedBytes()) }
            call.finish()
        } catch {
            call.cancel()
            throw error
        }
    }

    /// Sends each message of a sequence as it comes, then finishes.
    static func send<Requests: AsyncSequence & Sendable>(_ requests: Requests, on call: GRPCCall) async throws
    where Requests.Element: SwiftProtobuf.Message {
        do {
            for try await request in requests { try await call.send(try request.serializedBytes()) }
            call.finish()
        } catch {
            call.cancel()
            throw error
        }
    }

    /// A response message, decoded.
    ///
    /// - Throws: `GRPCError` (`INTERNAL`) when the bytes are not such a message; the call is cancelled.
    static func decode<Message: SwiftProtobuf.Message>(_ type: Message.Type, _ bytes: [UInt8], call: GRPCCall) throws
        -> Message
    {
        do {
            return try Message(serializedBytes: bytes)
        } catch {
            call.cancel()
            throw GRPCError(
                path: call.path,
                status: GRPCStatus(
                    code: 13, message: "a response message is not a \(Message.protoMessageName) (\(error))"))
        }
    }

    /// Throws for a status other than OK.
    static func check(_ status: GRPCStatus, call: GRPCCall, headers: GRPCMetadata, trailers: GRPCMetadata) throws {
        guard !status.isOK else { return }
        if status.code == 1, call.state.isCancelled { throw TransportError.cancelled }
        throw GRPCError(path: call.path, status: status, headers: headers, trailers: trailers)
    }

    /// Reads a call to its end.
    ///
    /// - Throws: `GRPCError` for a status other than OK, what `events` throws, and
    ///   `TransportError.cancelled` when the call was cancelled here.
    static func collect<Message: SwiftProtobuf.Message>(_ call: GRPCCall, as type: Message.Type) async throws
        -> GRPCResponse<Message>
    {
        try await withTaskCancellationHandler {
            var headers: GRPCMetadata = []
            var messages: [Message] = []
            for try await event in call.events {
                switch event {
                case .headers(let received): headers = received
                case .message(let bytes): messages.append(try decode(Message.self, bytes, call: call))
                case .end(let status, let trailers):
                    try check(status, call: call, headers: headers, trailers: trailers)
                    return GRPCResponse(
                        path: call.path, headers: headers, messages: messages, status: status, trailers: trailers,
                        timings: call.timings)
                }
            }
            throw TransportError.cancelled
        } onCancel: {
            call.cancel()
        }
    }
}
