import Foundation

extension ResponseFuture {
    /// The value, awaited: starts the future if needed.
    ///
    /// Cancelling the awaiting Task cancels the future (and its transport task); the await
    /// always resumes, throwing `TransportError.cancelled` on cancellation.
    public var value: T {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    observe { outcome in
                        switch outcome {
                        case .success(let value): continuation.resume(returning: value)
                        case .failure(let error): continuation.resume(throwing: error)
                        case .cancelled: continuation.resume(throwing: TransportError.cancelled)
                        }
                    }
                    start()
                }
            } onCancel: {
                self.cancel()
            }
        }
    }
}
