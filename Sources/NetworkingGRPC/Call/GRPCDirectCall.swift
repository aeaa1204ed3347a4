import Foundation
import NIOCore
import NetworkingCore

/// Runs a call of one request message (unary or server-streaming) on the direct path: the
/// target from the base URL, the adapters (in a task only when there are some), then a stream
/// of the connection of the call's loop, where the whole exchange runs.
///
/// It fails and ends as `GRPCCallRun` does for the same causes, so that a reader cannot tell
/// which path a call took.
struct GRPCDirectCall: Sendable {
    let call: GRPCCall
    let baseURL: Result<URL, any Error>
    let metadata: GRPCMetadata
    let options: GRPCCallOptions
    let adapters: [any GRPCMetadataAdapter]
    let responseLimit: Int
    let connections: GRPCConnectionPool
    /// The index of the connection's loop; the caller's executor when it runs on one.
    let loop: Int
    let callerExecutor: (any TaskExecutor)?

    /// Starts the call with its one message.
    func start(_ message: [UInt8]) {
        let state = call.state
        let target: GRPCTarget
        do {
            target = try GRPCTarget(baseURL: try baseURL.get())
            _ = try GRPCCallRun.descriptor(call.path)
        } catch {
            return finish(with: error)
        }
        guard !adapters.isEmpty else { return stream(message, metadata: metadata, target: target) }
        let task = Task(executorPreference: callerExecutor) {
            do {
                var metadata = self.metadata
                for adapter in adapters { try await adapter.adapt(&metadata, path: call.path) }
                try Task.checkCancellation()
                stream(message, metadata: metadata, target: target)
            } catch {
                finish(with: error)
            }
        }
        state.attach(task)
    }

    /// Opens the stream on the connection's loop (at once when this is it).
    private func stream(_ message: [UInt8], metadata: GRPCMetadata, target: GRPCTarget) {
        if call.state.isCancelled { return finish(with: CancellationError()) }
        let key = GRPCClientPool.Key(target: target, authority: options.authority, loop: loop)
        let request = GRPCStreamHandler.Request(
            path: call.path,
            headers: GRPCWire.requestHeaders(
                path: call.path, usesTLS: target.usesTLS, authority: options.authority ?? target.hostAndPort,
                timeout: options.timeout, metadata: metadata),
            message: message, timeout: options.timeout, responseLimit: responseLimit)
        let eventLoop = connections.loops[loop]
        let state = call.state
        let connections = connections
        let begin: @Sendable () -> Void = {
            let handler = GRPCStreamHandler(request: request, state: state, target: target, loop: eventLoop) {
                try connections.connection(for: key)
            }
            handler.start()
        }
        if eventLoop.inEventLoop {
            begin()
        } else {
            eventLoop.execute(begin)
        }
    }

    private func finish(with error: any Error) {
        let state = call.state
        if state.isCancelled || error is CancellationError {
            state.end(GRPCStatus(code: 1, message: "the call was cancelled by the client"), trailers: [])
        } else {
            state.fail(error)
        }
    }
}
