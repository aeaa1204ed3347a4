/// The newest read of the collection file the screen shows, by `CollectionReadOrder` number:
/// a reload that began before it (the watcher's read of a version the explorer's own write has
/// since replaced) arrives late and is dropped rather than shown over the newer one.
struct CollectionReads: Sendable {
    private(set) var newest: UInt64 = 0

    /// Whether a read numbered `read` is shown, and if so it is the newest from now on; an
    /// unnumbered read (0) always is.
    mutating func admits(_ read: UInt64) -> Bool {
        guard read != 0 else { return true }
        guard read > newest else { return false }
        newest = read
        return true
    }
}
