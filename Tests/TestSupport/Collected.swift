import Foundation

/// What callbacks report from any thread (actions, messages, watcher results), collected in
/// order for a test to read, and waited for by polling rather than by a fixed sleep.
package final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    /// An empty collection.
    package init() {}

    /// Adds one, from any thread.
    @Sendable package func append(_ element: Element) { lock.withLock { elements.append(element) } }

    /// Everything so far, in the order it came.
    package var all: [Element] { lock.withLock { elements } }

    /// Waits, polling and never longer than `timeout`, until an element satisfies `condition`.
    /// Swift Testing starts every test at once on a pool of as many threads as cores, so a wait
    /// measures the whole suite's load as much as the code: the default is long, and a wait
    /// that holds returns at once, so only a failing test takes it.
    ///
    /// - Returns: whether one did.
    package func wait(timeout: Duration = .seconds(120), for condition: @Sendable (Element) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if all.contains(where: condition) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all.contains(where: condition)
    }
}
