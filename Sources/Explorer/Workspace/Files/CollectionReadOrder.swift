import Synchronization

/// The order in which the collection file was read, across the watcher's reloads and the
/// read-back of the explorer's own writes, which run on different queues and can reach the
/// screen in the other order.
///
/// A number is taken just before a read begins: a read that was given a smaller number began
/// earlier, so it holds the file as it was then or later, never later than a read given a
/// larger number after a write finished. The TUI keeps the largest number it has shown and
/// drops a read that comes in with a smaller one (a stale version).
package enum CollectionReadOrder {
    private static let last = Atomic<UInt64>(0)

    /// The next number, never 0 (which stands for a read that was not numbered).
    package static func next() -> UInt64 {
        last.add(1, ordering: .sequentiallyConsistent).newValue
    }
}
