import NetworkingCore
import SwiftProtobuf

extension GRPCDispatcher {
    // MARK: - Unary

    /// A lazy future of a unary call: nothing is sent until it starts, and the base URL is
    /// asked for then.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - request: the request message.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response message's type.
    /// - Returns: a future of the response; it fails with `GRPCError` for a status other than
    ///   OK, `TransportError` when the server was not reached.
    public func unary<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ path: String, _ request: Request, metadata: GRPCMetadata = [], options: GRPCCallOptions = GRPCCallOptions(),
        as type: Response.Type
    ) -> ResponseFuture<GRPCResponse<Response>> {
        ResponseFuture(callbackQueue: callbackQueue) { future in
            let call = self.open(path, metadata: metadata, options: options)
            let task = Task {
                do {
                    try await GRPCTypedCall.send([request], on: call)
                    future.succeed(with: try await GRPCTypedCall.collect(call, as: Response.self))
                } catch {
                    future.fail(with: error)
                }
            }
            future.onCancel {
                call.cancel()
                task.cancel()
            }
        }
    }

    /// Makes a unary call and waits for its response.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - request: the request message.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response message's type.
    /// - Returns: the response, OK.
    /// - Throws: `GRPCError` for a status other than OK, `TransportError` when the server was
    ///   not reached (`.cancelled` when the awaiting task is cancelled).
    public func unary<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ path: String, _ request: Request, metadata: GRPCMetadata = [], options: GRPCCallOptions = GRPCCallOptions(),
        as type: Response.Type
    ) async throws -> GRPCResponse<Response> {
        let call = open(path, metadata: metadata, options: options)
        try await GRPCTypedCall.send([request], on: call)
        return try await GRPCTypedCall.collect(call, as: Response.self)
    }

    // MARK: - Streams

    /// Makes a server-streaming call: one request, messages back as they come.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - request: the request message.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response messages' type.
    /// - Returns: the messages; then the headers, status and trailers.
    public func serverStream<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ path: String, _ request: Request, metadata: GRPCMetadata = [], options: GRPCCallOptions = GRPCCallOptions(),
        as type: Response.Type
    ) -> GRPCMessageStream<Response> {
        bidirectionalStream(path, [request], metadata: metadata, options: options, as: type)
    }

    /// Makes a client-streaming call: the requests of an array, one response.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - requests: the request messages, sent in order.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response message's type.
    /// - Returns: the response, OK.
    /// - Throws: as `unary` does.
    public func clientStream<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ path: String, _ requests: [Request], metadata: GRPCMetadata = [],
        options: GRPCCallOptions = GRPCCallOptions(), as type: Response.Type
    ) async throws -> GRPCResponse<Response> {
        let call = open(path, metadata: metadata, options: options)
        try await GRPCTypedCall.send(requests, on: call)
        return try await GRPCTypedCall.collect(call, as: Response.self)
    }

    /// Makes a client-streaming call: the requests of a sequence as it gives them, one response.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - requests: the request messages; the call is finished when the sequence ends.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response message's type.
    /// - Returns: the response, OK.
    /// - Throws: as `unary` does, and what the sequence throws.
    public func clientStream<Requests: AsyncSequence & Sendable, Response: SwiftProtobuf.Message>(
        _ path: String, _ requests: Requests, metadata: GRPCMetadata = [],
        options: GRPCCallOptions = GRPCCallOptions(), as type: Response.Type
    ) async throws -> GRPCResponse<Response> where Requests.Element: SwiftProtobuf.Message {
        let call = open(path, metadata: metadata, options: options)
        let sending = Task { try await GRPCTypedCall.send(requests, on: call) }
        do {
            let response = try await GRPCTypedCall.collect(call, as: Response.self)
            try await sending.value
            return response
        } catch {
            sending.cancel()
            throw error
        }
    }

    /// Makes a bidirectional call with the requests of an array.
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - requests: the request messages, sent in order, then the call is finished.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response messages' type.
    /// - Returns: the messages as they come; then the headers, status and trailers.
    public func bidirectionalStream<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(
        _ path: String, _ requests: [Request], metadata: GRPCMetadata = [],
        options: GRPCCallOptions = GRPCCallOptions(), as type: Response.Type
    ) -> GRPCMessageStream<Response> {
        let call = open(path, metadata: metadata, options: options)
        Task { try? await GRPCTypedCall.send(requests, on: call) }
        return GRPCMessageStream(call: call)
    }

    /// Makes a bidirectional call with the requests of a sequence, sent as it gives them (an
    /// `AsyncStream` fed while reading lets each request follow an answer).
    ///
    /// - Parameters:
    ///   - path: the method: `/package.Service/Method`.
    ///   - requests: the request messages; the call is finished when the sequence ends, and
    ///     cancelled when it throws.
    ///   - metadata: the request metadata.
    ///   - options: a deadline, an authority, size limits.
    ///   - type: the response messages' type.
    /// - Returns: the messages as they come; then the headers, status and trailers.
    public func bidirectionalStream<Requests: AsyncSequence & Sendable, Response: SwiftProtobuf.Message>(
        _ path: String, _ requests: Requests, metadata: GRPCMetadata = [],
        options: GRPCCallOptions = GRPCCallOptions(), as type: Response.Type
    ) -> GRPCMessageStream<Response> where Requests.Element: SwiftProtobuf.Message {
        let call = open(path, metadata: metadata, options: options)
        Task { try? await GRPCTypedCall.send(requests, on: call) }
        return GRPCMessageStream(call: call)
    }
}
