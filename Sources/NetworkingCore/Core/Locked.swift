import NIOConcurrencyHelpers

/// A value guarded by a lock, for the few places where state is shared across threads.
///
/// The value and its lock live in one allocation. Unlike `Mutex` it is copyable (copies share
/// the value and its lock), so closures can capture it. Only `Sendable` values are kept: what
/// `withLock` returns may leave the lock.
struct Locked<Value: Sendable>: Sendable {
    private let box: NIOLockedValueBox<Value>

    init(_ value: Value) { box = NIOLockedValueBox(value) }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLockedValue(body)
    }
}
