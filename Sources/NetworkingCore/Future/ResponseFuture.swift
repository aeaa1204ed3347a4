import Dispatch
import Foundation
import Synchronization

/// A lazy, cancellable result of an asynchronous operation, with callbacks and chaining.
///
/// Nothing happens until `send()` (or `start()`). Then exactly one of success, error or
/// cancellation happens, followed by `completion`, exactly once. Callbacks run on the
/// future's `callbackQueue` (the main queue unless another is given), one at a time and in
/// that order (`response`/`error`/`cancellation` before `completion`) even on a concurrent
/// queue and even when attached after the future finished. The closures given to
/// `then`/`replace` run on whatever thread delivered the result. Every method is safe to call
/// from any thread.
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
///
/// The class is not `open`: its only subclasses are the library's own operation futures (a
/// dispatcher's, which keeps its request in the future itself).
///
/// Unchecked `Sendable` only because the class is not final (a checked conformance needs
/// `final`): its mutable state is all in `state` (a `Mutex`) and `observesProgress` (an `Atomic`).
public class ResponseFuture<T: Sendable>: @unchecked Sendable {
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

    /// What starting the future runs: an action, or the operation of a future that is one
    /// (`beginOperation()` then `runOperation()`).
    enum Start {
        case action(Action)
        case operation
    }

    private enum Phase {
        case idle(Start)
        case running
        case finished(Outcome)
    }

    private struct State {
        var phase: Phase
        /// The Task an operation runs in when it is awaited in place (`value`): `cancel()`
        /// cancels it. Finishing takes it out, so only the one that cancels the future can
        /// reach it, and does so after the lock is let go (the cancellation re-enters the
        /// future); meanwhile `cancellingTask` is set and the operation waits for it to be
        /// cleared before it returns, so a cancellation never reaches a Task that has moved on.
        var runningTask: RunningTask?
        /// Whether `cancel()` is cancelling `runningTask`, having taken it out.
        var cancellingTask = false
        /// What callbacks, observers and cancel handlers were attached, and their delivery;
        /// `nil` until the first one is (an awaited future has none): the awaited path never
        /// makes, copies or destroys the arrays.
        var attached: Attached?

        /// The attached part, made on first use.
        var callbacks: Attached {
            get { attached ?? Attached() }
            _modify {
                var value = attached.take() ?? Attached()
                defer { attached = value }
                yield &value
            }
        }
    }

    /// What was attached to a future: its callbacks, observers and what is due to run.
    private struct Attached {
        var successHandlers: [@Sendable (T) throws -> Void] = []
        var errorHandlers: [@Sendable (any Error) -> Void] = []
        var cancellationHandlers: [@Sendable () -> Void] = []
        var completionHandlers: [@Sendable () -> Void] = []
        var progressHandlers: [@Sendable (TransferProgress) -> Void] = []
        var observers: [@Sendable (Outcome) -> Void] = []
        var progressObservers: [@Sendable (TransferProgress) -> Void] = []
        var cancelHandlers: [@Sendable () -> Void] = []
        var latestProgress: TransferProgress?
        var progressDeliveryPending = false
        /// Callbacks due to run, once finished: what was registered before, and what is
        /// registered after (each runs once, in the order `Delivery.Rank` gives).
        var due: [Delivery] = []
        /// Whether a drain of `due` is scheduled or running on `callbackQueue`; there is at
        /// most one, so even on a concurrent queue one future's callbacks never overlap.
        var draining = false
        /// The first error a `response` callback threw: what `error` callbacks get after a
        /// success (PiuPiu: a throw in any callback reaches `error`).
        var thrown: (any Error)?

        /// Keeps the latest progress for the progress callbacks (a delivery of it is due unless
        /// one is pending already).
        ///
        /// - Parameters:
        ///   - progress: the progress so far.
        ///   - delivery: runs the progress callbacks with the latest progress.
        /// - Returns: the observers to tell at once, and whether a drain must be scheduled.
        mutating func keep(_ progress: TransferProgress, delivery: @escaping @Sendable () -> Void) -> (
            [@Sendable (TransferProgress) -> Void], Bool
        ) {
            // Nothing to keep or tell while nobody observes progress.
            guard !(progressHandlers.isEmpty && progressObservers.isEmpty) else { return ([], false) }
            latestProgress = progress
            guard !progressHandlers.isEmpty, !progressDeliveryPending else { return (progressObservers, false) }
            progressDeliveryPending = true
            due.append(Delivery(rank: .progress, run: delivery))
            guard !draining else { return (progressObservers, false) }
            draining = true
            return (progressObservers, true)
        }
    }

    /// What finishing took out of the state: the running Task and what was attached.
    private struct Taken {
        var runningTask: RunningTask?
        var attached: Attached?
        var scheduleDrain: Bool
    }

    /// The Task an awaited operation runs in, kept only to be cancelled (which any thread may
    /// do while the Task runs: the operation does not return before a cancellation that took
    /// it out is done, see `State.runningTask`).
    ///
    /// Sound because only `cancel()` is called on it from another thread, which a task allows,
    /// and only while the Task is alive: its operation waits for `cancellingTask` to clear.
    private struct RunningTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    /// A user callback bound to the outcome, waiting to run.
    private struct Delivery {
        /// Progress before the outcome's callbacks, those before `completion`.
        enum Rank: Int { case progress, outcome, completion }
        let rank: Rank
        let run: @Sendable () -> Void
    }

    /// The queue user callbacks run on.
    public let callbackQueue: DispatchQueue
    /// The state and its lock, in the future's own allocation (a future is made per request).
    private let state: Mutex<State>
    /// Whether a progress callback or observer was ever attached: until one is, progress
    /// updates (several a request) return without taking the lock.
    private let observesProgress = Atomic<Bool>(false)

    /// Creates a lazy future that runs `action` when it is started.
    ///
    /// The action must eventually call `succeed(with:)`, `fail(with:)` or observe
    /// cancellation through `onCancel(_:)`.
    ///
    /// - Parameters:
    ///   - callbackQueue: the queue user callbacks run on (the main queue by default, as in
    ///     PiuPiu; a program without a running main loop passes its own).
    ///   - action: the work to start; it receives this future.
    public init(callbackQueue: DispatchQueue = .main, action: @escaping Action) {
        self.callbackQueue = callbackQueue
        self.state = Mutex(State(phase: .idle(.action(action))))
    }

    /// Creates a lazy future of an async operation: a subclass's, which overrides
    /// `beginOperation()` and `runOperation()` and keeps what they need in its own stored
    /// properties, so that a request's future is one allocation.
    ///
    /// Awaiting `value` runs the operation in the awaiting Task (no Task of its own, no hop
    /// back): a dispatcher's future costs little more than the transport call it makes.
    ///
    /// - Parameter callbackQueue: the queue user callbacks run on.
    init(operationCallbackQueue callbackQueue: DispatchQueue) {
        self.callbackQueue = callbackQueue
        self.state = Mutex(State(phase: .idle(.operation)))
    }

    /// Begins the operation, on the thread that starts the future (reading what must be read
    /// there); a throw fails the future. Overridden by operation futures.
    func beginOperation() throws {}

    /// Runs the operation after `beginOperation()`: in the awaiting Task for `value`, in a new
    /// Task for `start()`. Overridden by operation futures; only they start with `.operation`.
    func runOperation() async throws -> T {
        preconditionFailure("ResponseFuture: only an operation future (a subclass) runs an operation")
    }

    /// Creates a future that is already finished with a value.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - callbackQueue: the queue user callbacks run on.
    public convenience init(value: T, callbackQueue: DispatchQueue = .main) {
        self.init(callbackQueue: callbackQueue) { $0.succeed(with: value) }
    }

    /// Creates a future that fails with an error when started.
    ///
    /// - Parameters:
    ///   - error: the error.
    ///   - callbackQueue: the queue user callbacks run on.
    public convenience init(error: any Error, callbackQueue: DispatchQueue = .main) {
        self.init(callbackQueue: callbackQueue) { $0.fail(with: error) }
    }

    // MARK: - Starting

    /// Starts the operation; calling it again, or after cancellation, does nothing.
    ///
    /// - Returns: this future.
    @discardableResult
    public final func start() -> Self {
        switch takeStart() {
        case .action(let action):
            action(self)
        case .operation:
            guard beginOperationOrFail() else { break }
            let task = Task {
                do { self.succeed(with: try await self.runOperation()) } catch { self.fail(with: error) }
            }
            onCancel { task.cancel() }
        case nil:
            break
        }
        return self
    }

    /// Moves an idle future to running and gives what starts it; `nil` when it is not idle.
    ///
    /// - Parameter awaitingTask: the Task that awaits the value, when it does: an operation
    ///   runs in it, and `cancel()` cancels it.
    @_specialize(where T == Response<Data?>)
    final func takeStart(awaitingTask: UnsafeCurrentTask? = nil) -> Start? {
        let awaitingTask = awaitingTask.map(RunningTask.init)
        return state.withLock { state in
            guard case .idle(let start) = state.phase else { return nil }
            state.phase = .running
            if case .operation = start { state.runningTask = awaitingTask }
            return start
        }
    }

    /// Begins the operation; a throw fails the future.
    ///
    /// - Returns: whether it began (false: the future failed).
    @_specialize(where T == Response<Data?>)
    final func beginOperationOrFail() -> Bool {
        do {
            try beginOperation()
            return true
        } catch {
            fail(with: error)
            return false
        }
    }

    /// Sends the request: the same as `start()`, reads better at the end of a chain.
    ///
    /// - Returns: this future.
    @discardableResult
    public final func send() -> Self { start() }

    /// Cancels the operation: the transport task is cancelled (its connection closed),
    /// `cancellation` then `completion` callbacks run. Does nothing once finished.
    public final func cancel() {
        finish(.cancelled)
    }

    /// Whether the future has finished (succeeded, failed or been cancelled).
    public final var isFinished: Bool {
        state.withLock { if case .finished = $0.phase { return true } else { return false } }
    }

    /// What the future ended with, or `nil` while it has not finished.
    public final var outcome: Outcome? { finishedOutcome() }

    /// What `outcome` reads, specialized for the dispatcher's futures (see `awaitedValue()`).
    @_specialize(where T == Response<Data?>)
    final func finishedOutcome() -> Outcome? {
        state.withLock { if case .finished(let outcome) = $0.phase { return outcome } else { return nil } }
    }

    /// Whether `cancel()` is still cancelling the Task an awaited operation ran in: that
    /// operation does not return before it is done.
    final var isCancellingRunningTask: Bool {
        state.withLock { $0.cancellingTask }
    }

    // MARK: - Reporting (for operations)

    /// Finishes the future with a value; ignored when already finished.
    ///
    /// - Parameter value: the value.
    @_specialize(where T == Response<Data?>)
    public final func succeed(with value: T) { finish(.success(value)) }

    /// Finishes the future with a value and gives the value back, or `nil` when the future
    /// had finished already (cancelled meanwhile): the awaited path returns the value it has
    /// rather than reading it back, and the value is copied once, into the future, not three
    /// times (a large response's every reference retained and released again each time).
    ///
    /// - Parameter value: the value.
    /// - Returns: the value, or `nil` when the future had finished before.
    @_specialize(where T == Response<Data?>)
    final func succeed(givingBack value: consuming T) -> T? {
        let finishedNow: Bool? = state.withLock { state in
            if case .finished = state.phase { return nil }
            // With callbacks or observers attached, `finish` delivers to them.
            guard state.attached == nil else { return false }
            state.phase = .finished(.success(copy value))
            state.runningTask = nil
            return true
        }
        switch finishedNow {
        case true?: return value
        case false?: return finish(.success(copy value)) ? value : nil
        case nil: return nil
        }
    }

    /// Finishes the future with an error; ignored when already finished.
    ///
    /// A `CancellationError` finishes it as cancelled.
    ///
    /// - Parameter error: the error.
    @_specialize(where T == Response<Data?>)
    public final func fail(with error: any Error) {
        if error is CancellationError { finish(.cancelled) } else { finish(.failure(error)) }
    }

    /// Reports transfer progress; progress callbacks are coalesced so a slow queue only sees
    /// the latest value.
    ///
    /// - Parameter progress: the progress so far.
    @_specialize(where T == Response<Data?>)
    public final func update(progress: TransferProgress) {
        guard observesProgress.load(ordering: .acquiring) else { return }
        let (observers, scheduleDrain) = state.withLock { state -> ([@Sendable (TransferProgress) -> Void], Bool) in
            // Nothing to keep or tell while nobody observes progress (an awaited request).
            guard case .running = state.phase, state.attached != nil else { return ([], false) }
            return state.callbacks.keep(progress) { self.deliverLatestProgress() }
        }
        for observer in observers { observer(progress) }
        if scheduleDrain { callbackQueue.async { self.drain() } }
    }

    /// Runs the progress callbacks with the latest progress (nothing once finished: `finish`
    /// delivers a pending update itself, before the outcome).
    private func deliverLatestProgress() {
        let (handlers, latest) = state.withLock { state in
            guard case .running = state.phase else {
                return ([@Sendable (TransferProgress) -> Void](), TransferProgress?.none)
            }
            state.callbacks.progressDeliveryPending = false
            return (state.callbacks.progressHandlers, state.callbacks.latestProgress)
        }
        if let latest { for handler in handlers { handler(latest) } }
    }

    /// Registers work to run when the future is cancelled (e.g. cancelling a transport task).
    ///
    /// Runs at once if the future is already cancelled.
    ///
    /// - Parameter handler: the work.
    public final func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            switch state.phase {
            case .finished(.cancelled): return true
            case .finished: return false
            default:
                state.callbacks.cancelHandlers.append(handler)
                return false
            }
        }
        if runNow { handler() }
    }

    // MARK: - Callbacks

    /// Adds a callback for the value; runs on `callbackQueue`.
    ///
    /// What it throws reaches the `error` callbacks (once: the first throw of any `response`
    /// callback of this future), before `completion`.
    ///
    /// - Parameter handler: receives the value.
    /// - Returns: this future.
    @discardableResult
    public final func response(_ handler: @escaping @Sendable (T) throws -> Void) -> Self {
        addCallback({ $0.callbacks.successHandlers.append(handler) }, rank: .outcome) { outcome in
            if case .success(let value) = outcome { self.respond(handler, value) }
        }
    }

    /// Adds a callback for the value; the same as `response(_:)`.
    ///
    /// - Parameter handler: receives the value; a throw reaches the `error` callbacks.
    /// - Returns: this future.
    @discardableResult
    public final func success(_ handler: @escaping @Sendable (T) throws -> Void) -> Self { response(handler) }

    /// Adds a callback for any error: one the operation failed with, one thrown anywhere in
    /// the chain, or one a `response` callback threw; runs on `callbackQueue`, at most once.
    ///
    /// - Parameter handler: receives the error.
    /// - Returns: this future.
    @discardableResult
    public final func error(_ handler: @escaping @Sendable (any Error) -> Void) -> Self {
        let scheduleDrain: Bool = state.withLock { state in
            let due: (any Error)?
            switch state.phase {
            case .finished(.failure(let error)): due = error
            case .finished(.success):
                // Kept for a `response` callback that has yet to throw.
                state.callbacks.errorHandlers.append(handler)
                due = state.callbacks.thrown
            case .finished(.cancelled): due = nil
            default:
                state.callbacks.errorHandlers.append(handler)
                return false
            }
            guard let due else { return false }
            state.callbacks.due.append(Delivery(rank: .outcome) { handler(due) })
            guard !state.callbacks.draining else { return false }
            state.callbacks.draining = true
            return true
        }
        if scheduleDrain { callbackQueue.async { self.drain() } }
        return self
    }

    /// Runs a `response` callback; the first throw of one goes to the `error` callbacks.
    private func respond(_ handler: @Sendable (T) throws -> Void, _ value: T) {
        do {
            try handler(value)
        } catch {
            let handlers: [@Sendable (any Error) -> Void] = state.withLock { state in
                guard state.callbacks.thrown == nil else { return [] }
                state.callbacks.thrown = error
                return state.callbacks.errorHandlers
            }
            for handler in handlers { handler(error) }
        }
    }

    /// Adds a callback for cancellation; runs on `callbackQueue`.
    ///
    /// - Parameter handler: runs when the future is cancelled.
    /// - Returns: this future.
    @discardableResult
    public final func cancellation(_ handler: @escaping @Sendable () -> Void) -> Self {
        addCallback({ $0.callbacks.cancellationHandlers.append(handler) }, rank: .outcome) { outcome in
            if case .cancelled = outcome { handler() }
        }
    }

    /// Adds a callback that runs exactly once after success, error or cancellation, after
    /// their own callbacks; runs on `callbackQueue`.
    ///
    /// - Parameter handler: runs when the future finishes.
    /// - Returns: this future.
    @discardableResult
    public final func completion(_ handler: @escaping @Sendable () -> Void) -> Self {
        addCallback({ $0.callbacks.completionHandlers.append(handler) }, rank: .completion) { _ in handler() }
    }

    /// Adds a callback for body transfer progress; runs on `callbackQueue`, coalesced.
    ///
    /// - Parameter handler: receives the progress.
    /// - Returns: this future.
    @discardableResult
    public final func progress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Self {
        state.withLock { $0.callbacks.progressHandlers.append(handler) }
        observesProgress.store(true, ordering: .releasing)
        return self
    }

    // MARK: - Internals

    private func addCallback(
        _ register: (inout State) -> Void, rank: Delivery.Rank, ifFinished: @escaping @Sendable (Outcome) -> Void
    ) -> Self {
        let scheduleDrain: Bool = state.withLock { state in
            guard case .finished(let outcome) = state.phase else {
                register(&state)
                return false
            }
            state.callbacks.due.append(Delivery(rank: rank) { ifFinished(outcome) })
            guard !state.callbacks.draining else { return false }
            state.callbacks.draining = true
            return true
        }
        if scheduleDrain { callbackQueue.async { self.drain() } }
        return self
    }

    /// Runs the due callbacks, batch after batch, until none is left; the only place user
    /// outcome callbacks run.
    private func drain() {
        while true {
            let batch: [Delivery]? = state.withLock { state in
                guard !state.callbacks.due.isEmpty else {
                    state.callbacks.draining = false
                    return nil
                }
                defer { state.callbacks.due.removeAll() }
                return state.callbacks.due
            }
            guard let batch else { return }
            for rank in [Delivery.Rank.progress, .outcome, .completion] {
                for delivery in batch where delivery.rank == rank { delivery.run() }
            }
        }
    }

    /// Observes the outcome synchronously, on the thread that finishes the future; used for
    /// chaining. Runs at once if already finished.
    final func observe(_ observer: @escaping @Sendable (Outcome) -> Void) {
        let finished: Outcome? = state.withLock { state in
            if case .finished(let outcome) = state.phase { return outcome }
            state.callbacks.observers.append(observer)
            return nil
        }
        if let finished { observer(finished) }
    }

    /// Observes progress synchronously; used for chaining.
    final func observeProgress(_ observer: @escaping @Sendable (TransferProgress) -> Void) {
        state.withLock { $0.callbacks.progressObservers.append(observer) }
        observesProgress.store(true, ordering: .releasing)
    }

    /// Finishes the future and delivers the outcome.
    ///
    /// - Parameter outcome: what the future ends with.
    /// - Returns: false when the future had finished already (nothing was done).
    @_specialize(where T == Response<Data?>)
    @discardableResult
    private func finish(_ outcome: Outcome) -> Bool {
        let taken: Taken? = state.withLock { state in
            if case .finished = state.phase { return nil }
            state.phase = .finished(outcome)
            let runningTask = state.runningTask.take()
            if runningTask != nil, case .cancelled = outcome { state.cancellingTask = true }
            // Moved out, not copied: no array is retained and released again.
            guard let snapshot = state.attached.take() else {
                return Taken(runningTask: runningTask, attached: nil, scheduleDrain: false)
            }
            var after = Attached()
            // A coalesced progress update still in flight is delivered before the outcome.
            if snapshot.progressDeliveryPending, let latest = snapshot.latestProgress {
                for handler in snapshot.progressHandlers {
                    after.due.append(Delivery(rank: .progress) { handler(latest) })
                }
            }
            switch outcome {
            case .success(let value):
                for handler in snapshot.successHandlers {
                    after.due.append(Delivery(rank: .outcome) { self.respond(handler, value) })
                }
                after.errorHandlers = snapshot.errorHandlers
            case .failure(let error):
                for handler in snapshot.errorHandlers { after.due.append(Delivery(rank: .outcome) { handler(error) }) }
            case .cancelled:
                for handler in snapshot.cancellationHandlers {
                    after.due.append(Delivery(rank: .outcome, run: handler))
                }
            }
            for handler in snapshot.completionHandlers { after.due.append(Delivery(rank: .completion, run: handler)) }
            // A drain already scheduled (for progress) runs what is due now; else one starts.
            after.draining = snapshot.draining || !after.due.isEmpty
            let scheduleDrain = !snapshot.draining && after.draining
            state.attached = after
            return Taken(runningTask: runningTask, attached: snapshot, scheduleDrain: scheduleDrain)
        }
        guard let taken else { return false }
        if case .cancelled = outcome {
            if let runningTask = taken.runningTask {
                runningTask.task.cancel()
                state.withLock { $0.cancellingTask = false }
            }
            for handler in taken.attached?.cancelHandlers ?? [] { handler() }
        }
        guard let attached = taken.attached else { return true }
        for observer in attached.observers { observer(outcome) }
        if taken.scheduleDrain { callbackQueue.async { self.drain() } }
        return true
    }
}
