import Foundation

extension ResponseFuture {
    /// The value, awaited: starts the future if needed.
    ///
    /// Cancelling the awaiting Task cancels the future (and its transport task); the await
    /// always resumes, throwing `TransportError.cancelled` on cancellation.
    public var value: T {
        get async throws {
            switch takeStart() {
            case .operation(let begin):
                return try await runHere(begin)
            case .action(let action):
                return try await outcomeValue { action(self) }
            case nil:
                return try await outcomeValue {}
            }
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
    /// work as it would the Task `start()` makes.
    private func runHere(_ begin: Begin) async throws -> T {
        guard let work = self.begin(begin, for: self) else { return try finishedValue() }
        let running = RunningTask()
        onCancel { running.cancel() }
        defer { running.release() }
        await withTaskCancellationHandler {
            do { succeed(with: try await work()) } catch { fail(with: error) }
        } onCancel: {
            self.cancel()
        }
        return try finishedValue()
    }

    /// The value of a finished future.
    private func finishedValue() throws -> T {
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error
        case .cancelled, nil: throw TransportError.cancelled
        }
    }
}

/// The Task running an operation in place, cancellable from another thread only while the
/// operation runs: its own lock (not the future's, which a cancellation re-enters) keeps a
/// cancellation that races with the end of the call from reaching a Task that has moved on.
private final class RunningTask: @unchecked Sendable {
    private let task: Locked<UnsafeCurrentTask?>

    init() { task = Locked(withUnsafeCurrentTask { $0 }) }

    func cancel() { task.withLock { $0?.cancel() } }

    func release() { task.withLock { $0 = nil } }
}
