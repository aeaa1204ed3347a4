import Foundation

/// What callbacks did, recorded from any thread, and a bounded wait for it.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    /// Records an event.
    func record(_ event: String) {
        lock.lock()
        recorded.append(event)
        lock.unlock()
    }

    /// The events so far, in order.
    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Waits until `event` has been recorded, polling, for at most `limit` (a minute: the
    /// main queue and the Task pool are shared with every test running beside this one).
    ///
    /// - Returns: whether it was recorded in time (or before the test was cancelled).
    func wait(for event: String, limit: Duration = .seconds(60)) async -> Bool {
        await wait(limit: limit) { $0.contains(event) }
    }

    /// Waits until the events satisfy `done`, polling, for at most `limit`.
    ///
    /// - Returns: whether they did in time (or before the test was cancelled).
    func wait(limit: Duration = .seconds(60), until done: ([String]) -> Bool) async -> Bool {
        await eventually(limit: limit) { done(events) }
    }
}

/// Polls `condition` until it holds, for at most `limit`: for what no event announces, such as a
/// future the sending task lets go of just after its callbacks ran.
///
/// - Returns: whether it held in time (or before the test was cancelled).
func eventually(limit: Duration = .seconds(120), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        do { try await Task.sleep(for: .milliseconds(2)) } catch { break }  // the test was cancelled
    }
    return condition()
}

/// Whether code runs on the main queue (PiuPiu's promise for callbacks): a mark on the queue
/// itself, since the thread that drains it is the runtime's business.
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Marks the main queue; call before anything runs on it.
    static func mark() { _ = marked }

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
