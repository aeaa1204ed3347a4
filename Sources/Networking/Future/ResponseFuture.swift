import Dispatch
import Foundation

/// A lazy, cancellable result of an asynchronous operation, with callbacks and chaining.
///
/// Nothing happens until `send()` (or `start()`). Then exactly one of success, error or
/// cancellation happens, followed by `completion`, exactly once. Callbacks run on the
/// future's `callbackQueue`; the closures given to `then`/`replace` run on whatever thread
/// delivered the result. Every method is safe to call from any thread.
///
/// ```swift
/// dispatcher.future(from: request)
///     .ensureValidResponse()
///     .ensureDecoded(Post.self)
///     .response { post in print(post.body.title) }
///     .error { error in print(error) }
///     .completion { print("done") }
///     .send()
/// ```
public final class ResponseFuture<T: Sendable>: @unchecked Sendable {
    /// What a future ended with: a value, an error, or cancellation.
    public enum Outcome: Sendable {
        /// The operation produced a value.
        case success(T)
        /// The operation failed.
        case failure(any Error)
        /// The future was cancelled.
        case cancelled
    }

    /// What a started operation uses to report its result.
    public typealias Action = @Sendable (ResponseFuture<T>) -> Void

    private enum Phase {
        case idle(Action)
        case running
        case finished(Outcome)
    }

    private struct State {
        var phase: Phase
        var successHandlers: [@Sendable (T) -> Void] = []
        var errorHandlers: [@Sendable (any Error) -> Void] = []
        var cancellationHandlers: [@Sendable () -> Void] = []
        var completionHandlers: [@Sendable () -> Void] = []
        var progressHandlers: [@Sendable (TransferProgress) -> Void] = []
        var observers: [@Sendable (Outcome) -> Void] = []
        var progressObservers: [@Sendable (TransferProgress) -> Void] = []
        var cancelHandlers: [@Sendable () -> Void] = []
        var latestProgress: TransferProgress?
        var progressDeliveryPending = false
    }

    /// The queue user callbacks run on.
    public let callbackQueue: DispatchQueue
    private let state: Locked<State>

    /// Creates a lazy future that runs `action` when it is started.
    ///
    /// The action must eventually call `succeed(with:)`, `fail(with:)` or observe
    /// cancellation through `onCancel(_:)`.
    ///
    /// - Parameters:
    ///   - callbackQueue: the queue user callbacks run on.
    ///   - action: the work to start; it receives this future.
    public init(callbackQueue: DispatchQueue = .global(), action: @escaping Action) {
        self.callbackQueue = callbackQueue
        self.state = Locked(State(phase: .idle(action)))
    }

    /// Creates a future that is already finished with a value.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - callbackQueue: the queue user callbacks run on.
    public convenience init(value: T, callbackQueue: DispatchQueue = .global()) {
        self.init(callbackQueue: callbackQueue) { $0.succeed(with: value) }
    }

    /// Creates a future that fails with an error when started.
    ///
    /// - Parameters:
    ///   - error: the error.
    ///   - callbackQueue: the queue user callbacks run on.
    public convenience init(error: any Error, callbackQueue: DispatchQueue = .global()) {
        self.init(callbackQueue: callbackQueue) { $0.fail(with: error) }
    }

    // MARK: - Starting

    /// Starts the operation; calling it again, or after cancellation, does nothing.
    ///
    /// - Returns: this future.
    @discardableResult
    public func start() -> Self {
        let action: Action? = state.withLock { state in
            guard case .idle(let action) = state.phase else { return nil }
            state.phase = .running
            return action
        }
        action?(self)
        return self
    }

    /// Sends the request: the same as `start()`, reads better at the end of a chain.
    ///
    /// - Returns: this future.
    @discardableResult
    public func send() -> Self { start() }

    /// Cancels the operation: the transport task is cancelled (its connection closed),
    /// `cancellation` then `completion` callbacks run. Does nothing once finished.
    public func cancel() {
        finish(.cancelled)
    }

    /// Whether the future has finished (succeeded, failed or been cancelled).
    public var isFinished: Bool {
        state.withLock { if case .finished = $0.phase { return true } else { return false } }
    }

    /// What the future ended with, or `nil` while it has not finished.
    public var outcome: Outcome? {
        state.withLock { if case .finished(let outcome) = $0.phase { return outcome } else { return nil } }
    }

    // MARK: - Reporting (for operations)

    /// Finishes the future with a value; ignored when already finished.
    ///
    /// - Parameter value: the value.
    public func succeed(with value: T) { finish(.success(value)) }

    /// Finishes the future with an error; ignored when already finished.
    ///
    /// A `CancellationError` finishes it as cancelled.
    ///
    /// - Parameter error: the error.
    public func fail(with error: any Error) {
        if error is CancellationError { finish(.cancelled) } else { finish(.failure(error)) }
    }

    /// Reports transfer progress; progress callbacks are coalesced so a slow queue only sees
    /// the latest value.
    ///
    /// - Parameter progress: the progress so far.
    public func update(progress: TransferProgress) {
        let (observers, schedule) = state.withLock { state -> ([@Sendable (TransferProgress) -> Void], Bool) in
            guard case .running = state.phase else { return ([], false) }
            state.latestProgress = progress
            let schedule = !state.progressHandlers.isEmpty && !state.progressDeliveryPending
            if schedule { state.progressDeliveryPending = true }
            return (state.progressObservers, schedule)
        }
        for observer in observers { observer(progress) }
        guard schedule else { return }
        callbackQueue.async {
            let (handlers, latest) = self.state.withLock { state in
                state.progressDeliveryPending = false
                return (state.progressHandlers, state.latestProgress)
            }
            if let latest { for handler in handlers { handler(latest) } }
        }
    }

    /// Registers work to run when the future is cancelled (e.g. cancelling a transport task).
    ///
    /// Runs at once if the future is already cancelled.
    ///
    /// - Parameter handler: the work.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            switch state.phase {
            case .finished(.cancelled): return true
            case .finished: return false
            default:
                state.cancelHandlers.append(handler)
                return false
            }
        }
        if runNow { handler() }
    }

    // MARK: - Callbacks

    /// Adds a callback for the value; runs on `callbackQueue`.
    ///
    /// - Parameter handler: receives the value.
    /// - Returns: this future.
    @discardableResult
    public func response(_ handler: @escaping @Sendable (T) -> Void) -> Self {
        addCallback { $0.successHandlers.append(handler) } ifFinished: { outcome in
            if case .success(let value) = outcome { handler(value) }
        }
    }

    /// Adds a callback for the value; the same as `response(_:)`.
    ///
    /// - Parameter handler: receives the value.
    /// - Returns: this future.
    @discardableResult
    public func success(_ handler: @escaping @Sendable (T) -> Void) -> Self { response(handler) }

    /// Adds a callback for any error thrown anywhere in the chain; runs on `callbackQueue`.
    ///
    /// - Parameter handler: receives the error.
    /// - Returns: this future.
    @discardableResult
    public func error(_ handler: @escaping @Sendable (any Error) -> Void) -> Self {
        addCallback { $0.errorHandlers.append(handler) } ifFinished: { outcome in
            if case .failure(let error) = outcome { handler(error) }
        }
    }

    /// Adds a callback for cancellation; runs on `callbackQueue`.
    ///
    /// - Parameter handler: runs when the future is cancelled.
    /// - Returns: this future.
    @discardableResult
    public func cancellation(_ handler: @escaping @Sendable () -> Void) -> Self {
        addCallback { $0.cancellationHandlers.append(handler) } ifFinished: { outcome in
            if case .cancelled = outcome { handler() }
        }
    }

    /// Adds a callback that runs exactly once after success, error or cancellation, after
    /// their own callbacks; runs on `callbackQueue`.
    ///
    /// - Parameter handler: runs when the future finishes.
    /// - Returns: this future.
    @discardableResult
    public func completion(_ handler: @escaping @Sendable () -> Void) -> Self {
        addCallback { $0.completionHandlers.append(handler) } ifFinished: { _ in handler() }
    }

    /// Adds a callback for body transfer progress; runs on `callbackQueue`, coalesced.
    ///
    /// - Parameter handler: receives the progress.
    /// - Returns: this future.
    @discardableResult
    public func progress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Self {
        state.withLock { $0.progressHandlers.append(handler) }
        return self
    }

    // MARK: - Internals

    private func addCallback(_ register: (inout State) -> Void, ifFinished: @escaping @Sendable (Outcome) -> Void) -> Self {
        let finished: Outcome? = state.withLock { state in
            if case .finished(let outcome) = state.phase { return outcome }
            register(&state)
            return nil
        }
        if let finished { callbackQueue.async { ifFinished(finished) } }
        return self
    }

    /// Observes the outcome synchronously, on the thread that finishes the future; used for
    /// chaining. Runs at once if already finished.
    func observe(_ observer: @escaping @Sendable (Outcome) -> Void) {
        let finished: Outcome? = state.withLock { state in
            if case .finished(let outcome) = state.phase { return outcome }
            state.observers.append(observer)
            return nil
        }
        if let finished { observer(finished) }
    }

    /// Observes progress synchronously; used for chaining.
    func observeProgress(_ observer: @escaping @Sendable (TransferProgress) -> Void) {
        state.withLock { $0.progressObservers.append(observer) }
    }

    private func finish(_ outcome: Outcome) {
        let taken: State? = state.withLock { state in
            if case .finished = state.phase { return nil }
            let snapshot = state
            state = State(phase: .finished(outcome))
            return snapshot
        }
        guard let taken else { return }
        if case .cancelled = outcome {
            for handler in taken.cancelHandlers { handler() }
        }
        for observer in taken.observers { observer(outcome) }
        let pendingProgress = taken.progressDeliveryPending ? taken.latestProgress : nil
        let hasCallbacks = pendingProgress != nil || !(taken.successHandlers.isEmpty && taken.errorHandlers.isEmpty
            && taken.cancellationHandlers.isEmpty && taken.completionHandlers.isEmpty)
        guard hasCallbacks else { return }
        callbackQueue.async {
            // A coalesced progress update still in flight is delivered before the outcome.
            if let pendingProgress { for handler in taken.progressHandlers { handler(pendingProgress) } }
            switch outcome {
            case .success(let value): for handler in taken.successHandlers { handler(value) }
            case .failure(let error): for handler in taken.errorHandlers { handler(error) }
            case .cancelled: for handler in taken.cancellationHandlers { handler() }
            }
            for handler in taken.completionHandlers { handler() }
        }
    }
}
