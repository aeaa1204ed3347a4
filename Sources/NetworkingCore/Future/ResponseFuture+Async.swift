import Foundation

extension ResponseFuture {
    /// The value, awaited: starts the future if needed.
    ///
    /// Cancelling the awaiting Task cancels the future (and its transport task); the await
    /// always resumes, throwing `TransportError.cancelled` on cancellation.
    public var value: T {
        get async throws { try await awaitedValue() }
    }

    /// What `value` does (a function, so that it is specialized for the dispatcher's futures:
    /// generic code looks up the metadata of its types at every call).
    @_specialize(where T == Response<Data?>)
    nonisolated(nonsending) private func awaitedValue() async throws -> T {
        switch withUnsafeCurrentTask(body: { takeStart(awaitingTask: $0) }) {
        case .operation:
            return try await runHere()
        case .action(let action):
            return try await outcomeValue { action(self) }
        case nil:
            return try await outcomeValue {}
        }
    }

    /// Waits for the outcome (after `starting` runs) and gives its value.
    private func outcomeValue(starting: () -> Void) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                observe { outcome in
                    switch outcome {
                    case .success(let value): continuation.resume(returning: value)
                    case .failure(let error): continuation.resume(throwing: error)
                    case .cancelled: continuation.resume(throwing: TransportError.cancelled)
                    }
                }
                starting()
            }
        } onCancel: {
            self.cancel()
        }
    }

    /// Runs an operation in the awaiting Task; `cancel()` from elsewhere cancels that Task's
    /// work as it would the Task `start()` makes. Cancelling the awaiting Task needs no handler
    /// of its own: the operation runs in it, and the future finishes as cancelled when the
    /// operation gives up.
    @_specialize(where T == Response<Data?>)
    nonisolated(nonsending) private func runHere() async throws -> T {
        guard beginOperationOrFail() else { return try finishedValue() }
        let value: T?
        do { value = succeed(givingBack: try await runOperation()) } catch {
            if Task.isCancelled { cancel() } else { fail(with: error) }
            value = nil
        }
        // Finished here: the Task was taken out with no one cancelling it.
        if let value { return value }
        // Finished elsewhere (cancelled): that may still be cancelling this Task.
        while isCancellingRunningTask { await Task.yield() }
        return try finishedValue()
    }

    /// The value of a finished future.
    @_specialize(where T == Response<Data?>)
    private func finishedValue() throws -> T {
        switch finishedOutcome() {
        case .success(let value): return value
        case .failure(let error): throw error
        case .cancelled, nil: throw TransportError.cancelled
        }
    }
}
