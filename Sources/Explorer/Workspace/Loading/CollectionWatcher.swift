import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a collection file (and the `.env` beside it) and reloads it when it changes on disk.
///
/// It watches the file's directory, so editors that save by writing a new file and renaming
/// it over the old one are seen too (inotify on Linux, a vnode dispatch source elsewhere).
/// Bursts of events are coalesced into one reload (an event that ends a save, a file closed
/// after writing or renamed into place, reloads within `afterSave`: the text is whole); a reload
/// whose text did not change is not reported. Each reload is delivered on `queue`, as the new collection with what it reaches
/// (which the TUI checks against the trust list before it uses it), or the load error, so the
/// TUI can keep its selection by endpoint address (`APICollection.endpoint(withID:)`); each with
/// its read's `CollectionReadOrder` number, so a reload that arrives after a newer read (the
/// explorer's own write read back) can be told stale.
///
/// Unchecked `Sendable`, sound because the `var`s (sources, descriptor, `pendingDeadline`, `lastSnapshot`)
/// are touched only on `internalQueue`: `start` and `stop` sync onto it, `deinit` has no other owner.
package final class CollectionWatcher: @unchecked Sendable {
    /// The collection file.
    let url: URL
    private let queue: DispatchQueue
    private let internalQueue = DispatchQueue(label: "explorer.collection-watcher")
    private let onChange: @Sendable (Result<LoadedCollection, any Error>, _ read: UInt64) -> Void
    private var source: (any DispatchSourceProtocol)?
    private var fileSource: (any DispatchSourceProtocol)?
    private var descriptor: Int32 = -1
    /// When the reload scheduled is due, `nil` when none is.
    private var pendingDeadline: DispatchTime?
    private var lastSnapshot: Snapshot?
    private let coalescing: DispatchTimeInterval
    /// How long events are gathered after one that ends a save (a file closed after writing,
    /// or renamed into place): the save is whole, so only the events of the same moment wait.
    static let afterSave: DispatchTimeInterval = .milliseconds(5)

    /// Creates a watcher; call `start()` to begin.
    ///
    /// - Parameters:
    ///   - url: the collection file.
    ///   - queue: where `onChange` is called (the main queue by default).
    ///   - coalescing: how long a burst of events is gathered before one reload, unless one of
    ///     them ends a save (then `afterSave`).
    ///   - onChange: called with each reloaded collection and what it reaches, or the error
    ///     that loading it gave, and the read's `CollectionReadOrder` number.
    package init(
        url: URL, queue: DispatchQueue = .main, coalescing: DispatchTimeInterval = .milliseconds(50),
        onChange: @escaping @Sendable (Result<LoadedCollection, any Error>, _ read: UInt64) -> Void
    ) {
        self.url = url.standardizedFileURL
        self.queue = queue
        self.coalescing = coalescing
        self.onChange = onChange
    }

    deinit {
        source?.cancel()
        fileSource?.cancel()
    }

    /// Starts watching.
    ///
    /// - Throws: `CollectionError.unwatchable` when the directory cannot be watched.
    package func start() throws {
        try internalQueue.sync {
            guard source == nil else { return }
            lastSnapshot = snapshot()
            let directory = url.deletingLastPathComponent().path
            #if canImport(Glibc)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else {
                throw CollectionError.unwatchable(
                    path: directory, reason: "inotify is unavailable (\(Self.systemReason()))")
            }
            let mask = UInt32(
                IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVED_FROM | IN_ATTRIB)
            guard inotify_add_watch(fd, directory, mask) >= 0 else {
                let reason = Self.systemReason()
                close(fd)
                throw CollectionError.unwatchable(path: directory, reason: reason)
            }
            descriptor = fd
            let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: internalQueue)
            read.setEventHandler { [weak self] in self?.drainInotify() }
            read.setCancelHandler { close(fd) }
            source = read
            read.resume()
            #else
            let fd = open(directory, O_EVTONLY)
            guard fd >= 0 else { throw CollectionError.unwatchable(path: directory, reason: Self.systemReason()) }
            descriptor = fd
            // The directory's source sees saves that rename a new file over the old one.
            let vnode = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: fd, eventMask: [.write, .rename, .delete, .attrib, .extend], queue: internalQueue)
            vnode.setEventHandler { [weak self] in self?.scheduleReload() }
            vnode.setCancelHandler { close(fd) }
            source = vnode
            vnode.resume()
            watchFileItself()
            #endif
        }
    }

    /// The current `errno` as the system words it, e.g. `No such file or directory`.
    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }

    /// Stops watching; no callback is made after it returns on the watcher's queue.
    package func stop() {
        internalQueue.sync {
            source?.cancel()
            source = nil
            fileSource?.cancel()
            fileSource = nil
        }
    }

    #if !canImport(Glibc)
    /// A vnode source on the file itself sees writes in place, which do not change the
    /// directory; it is re-armed after each reload, since a rename replaces the file.
    private func watchFileItself() {
        fileSource?.cancel()
        fileSource = nil
        let fd = open(url.path, O_EVTONLY)
        guard fd >= 0 else { return }
        let vnode = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: fd, eventMask: [.write, .extend, .delete, .rename], queue: internalQueue)
        vnode.setEventHandler { [weak self] in self?.scheduleReload() }
        vnode.setCancelHandler { close(fd) }
        fileSource = vnode
        vnode.resume()
    }
    #endif

    #if canImport(Glibc)
    private func drainInotify() {
        let watched: Set<String> = [url.lastPathComponent, ".env"]
        var buffer = [UInt8](repeating: 0, count: 8192)
        var relevant = false
        var saved = false
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let length =
                    Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(
                        buffer[offset + 15]) << 24
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if watched.contains(name) {
                    relevant = true
                    let mask =
                        UInt32(buffer[offset + 4]) | UInt32(buffer[offset + 5]) << 8 | UInt32(buffer[offset + 6]) << 16
                        | UInt32(buffer[offset + 7]) << 24
                    if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 { saved = true }
                }
                offset += 16 + length
            }
        }
        if relevant { scheduleReload(after: saved ? Self.afterSave : coalescing) }
    }
    #endif

    private func scheduleReload(after delay: DispatchTimeInterval? = nil) {
        let deadline = DispatchTime.now() + (delay ?? coalescing)
        // One reload at a time, at the soonest deadline asked for: a later one is not moved.
        if let pendingDeadline, pendingDeadline <= deadline { return }
        pendingDeadline = deadline
        internalQueue.asyncAfter(deadline: deadline) { [weak self] in
            // A sooner deadline asked for since has run this reload (or will).
            guard let self, self.pendingDeadline == deadline else { return }
            self.pendingDeadline = nil
            guard self.source != nil else { return }
            #if !canImport(Glibc)
            self.watchFileItself()
            #endif
            // Numbered before the read begins: a write that ends after this number is taken
            // reads back with a larger one, whatever this read sees.
            let read = CollectionReadOrder.next()
            let current = self.snapshot()
            guard current != self.lastSnapshot else { return }
            self.lastSnapshot = current
            // The text just read is the one loaded: the file is not read a second time.
            let result: Result<LoadedCollection, any Error> = Result {
                if let text = current?.text {
                    return try CollectionLoader.loadReaching(
                        from: self.url, text: text, keepsLater: true, patches: true)
                }
                return try CollectionLoader.loadReaching(from: self.url, keepsLater: true, patches: true)
            }
            let onChange = self.onChange
            self.queue.async { onChange(result, read) }
        }
    }

    /// The file's text and its `.env`'s, to tell a real change from a touch.
    private struct Snapshot: Equatable {
        /// The collection's text, `nil` when it cannot be read (the load then says why).
        var text: String?
        var env: String?
    }

    /// The file's text and its `.env`'s, or `nil` when neither can be read.
    private func snapshot() -> Snapshot? {
        let text = try? CollectionLoader.text(at: url)
        let env = try? String(
            contentsOf: url.deletingLastPathComponent().appendingPathComponent(".env"), encoding: .utf8)
        guard text != nil || env != nil else { return nil }
        return Snapshot(text: text, env: env)
    }
}
