import Foundation
import GRPCCore
import NetworkingCore

/// Runs one call: the target from the base URL, the adapters, the client, then the RPC, each
/// part of the answer told to the call's reader as it comes.
struct GRPCCallRun: Sendable {
    let call: GRPCCall
    let baseURL: Result<URL, any Error>
    let metadata: GRPCMetadata
    let options: GRPCCallOptions
    let adapters: [any GRPCMetadataAdapter]
    let responseLimit: Int
    let clients: GRPCClientPool
    /// The index of the loop the call runs on, in `clients.executors`.
    let loop: Int

    func run() async {
        let state = call.state
        var target: GRPCTarget?
        do {
            let resolved = try GRPCTarget(baseURL: try baseURL.get())
            target = resolved
            let descriptor = try Self.descriptor(call.path)
            var metadata = metadata
            for adapter in adapters { try await adapter.adapt(&metadata, path: call.path) }
            let client = try clients.client(for: .init(target: resolved, authority: options.authority, loop: loop))
            var callOptions = CallOptions.defaults
            callOptions.timeout = options.timeout
            // grpc-nio-transport 2.9 limits what it receives with `maxRequestMessageBytes`; both
            // are set so that the response limit holds whichever it reads.
            callOptions.maxRequestMessageBytes = responseLimit
            callOptions.maxResponseMessageBytes = responseLimit
            let outbound = call.outbound
            let request = StreamingClientRequest<[UInt8]>(metadata: metadata.grpcMetadata) { writer in
                for await message in outbound { try await writer.write(message) }
            }
            try Task.checkCancellation()
            state.started()
            try await client.bidirectionalStreaming(
                request: request, descriptor: descriptor, serializer: GRPCBytesCoder(),
                deserializer: GRPCBytesCoder(), options: callOptions
            ) { response in
                try await relay(response, target: resolved)
            }
        } catch {
            finish(with: error, target: target)
        }
        // A call whose answer ended without a status (a transport bug) still ends.
        state.end(GRPCStatus(code: 2, message: "the server closed the call without a status"), trailers: [])
    }

    /// Tells the reader the headers, each message and the end.
    private func relay(_ response: StreamingClientResponse<[UInt8]>, target: GRPCTarget) async throws {
        let state = call.state
        switch response.accepted {
        case .success(let contents):
            state.headers(GRPCMetadata(contents.metadata))
            do {
                for try await part in contents.bodyParts {
                    switch part {
                    case .message(let bytes): await state.message(bytes)
                    case .trailingMetadata(let trailers): state.end(.ok, trailers: GRPCMetadata(trailers))
                    }
                }
            } catch let error as RPCError where !Task.isCancelled {
                report(error, target: target)
            }
        case .failure(let error):
            // Cancelled (by the deadline or the caller) before the headers: the caller words it.
            if Task.isCancelled { throw error }
            report(error, target: target)
        }
    }

    private func finish(with error: any Error, target: GRPCTarget?) {
        let state = call.state
        if let rpcError = error as? RPCError, rpcError.code == .deadlineExceeded, !state.isCancelled {
            let timeout = options.timeout.map { " (\($0))" } ?? ""
            state.end(GRPCStatus(code: 4, message: "the deadline\(timeout) passed before the call ended"), trailers: [])
        } else if state.isCancelled || error is CancellationError || Task.isCancelled {
            state.end(GRPCStatus(code: 1, message: "the call was cancelled by the client"), trailers: [])
        } else if let rpcError = error as? RPCError, let target {
            report(rpcError, target: target)
        } else {
            state.fail(error)
        }
    }

    private func report(_ error: RPCError, target: GRPCTarget) {
        switch GRPCFailureMapping.map(error, target: target, responseLimit: responseLimit) {
        case .status(let status, let trailers): call.state.end(status, trailers: trailers)
        case .failure(let failure):
            clients.discard(.init(target: target, authority: options.authority, loop: loop))
            call.state.fail(failure)
        }
    }

    /// The method of a path: `/package.Service/Method`.
    static func descriptor(_ path: String) throws -> MethodDescriptor {
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw TransportError.invalidURL("\(path) (a gRPC method is /package.Service/Method)")
        }
        return MethodDescriptor(fullyQualifiedService: String(parts[0]), method: String(parts[1]))
    }
}

/// Messages as they travel: bytes, neither serialized nor parsed.
struct GRPCBytesCoder: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
