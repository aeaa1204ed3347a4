import Foundation
import TestSupport
import Testing

@testable import App
@testable import ExplorerCLI
@testable import Workspace

/// A watcher's reports: the names of the collections it loaded and its errors, in order.
typealias WatcherReports = Collected<Result<LoadedCollection, any Error>>

extension Collected where Element == Result<LoadedCollection, any Error> {
    var snapshot: (names: [String], errors: [String]) {
        let results = all
        return (
            results.compactMap { try? $0.get().collection.name },
            results.compactMap { if case .failure(let error) = $0 { return "\(error)" } else { return nil } }
        )
    }
}

/// Polls a condition until it holds or the deadline passes.
func watcherEventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite struct CollectionWatcherTests {
    @Test func aWatcherThatCannotStartIsANoticeAtStartNotSilence() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        // A folder that is gone cannot be watched (as one without read permission cannot).
        let file = directory.url.appendingPathComponent("gone/api.yaml")
        let watcher = CollectionWatcher(url: file, queue: DispatchQueue(label: "test")) { _, _ in }
        defer { watcher.stop() }

        let notice = try #require(ExplorerTUI.startWatching(watcher, collectionURL: file))

        #expect(notice.contains(file.path))
        #expect(notice.contains("will not show"))
        #expect(notice.contains("No such file or directory"))
    }

    @Test func aWatcherThatStartsLeavesNoNotice() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = try directory.write("api.yaml", "name: first\n")
        let watcher = CollectionWatcher(url: file, queue: DispatchQueue(label: "test")) { _, _ in }
        defer { watcher.stop() }
        #expect(ExplorerTUI.startWatching(watcher, collectionURL: file) == nil)
    }

    @Test func editsOnDiskAreReloadedIncludingAtomicSaves() async throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = try directory.write("api.yaml", "name: first\n")
        let received = WatcherReports()
        let watcher = CollectionWatcher(url: file, queue: DispatchQueue(label: "test"), coalescing: .milliseconds(10)) {
            result, _ in received.append(result)
        }
        try watcher.start()
        defer { watcher.stop() }

        try Data("name: second\n".utf8).write(to: file)  // in place
        #expect(await watcherEventually { received.snapshot.names.last == "second" })

        try CollectionMerger.writeAtomically("name: third\n", to: file)  // an editor's rename-over
        #expect(await watcherEventually { received.snapshot.names.last == "third" })

        try Data("name: [broken\n".utf8).write(to: file)
        #expect(await watcherEventually { received.snapshot.errors.contains { $0.contains("api.yaml:") } })
    }

    @Test func otherFilesInTheDirectoryAreIgnored() async throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = try directory.write("api.yaml", "name: first\n")
        let received = WatcherReports()
        let watcher = CollectionWatcher(url: file, queue: DispatchQueue(label: "test"), coalescing: .milliseconds(10)) {
            result, _ in received.append(result)
        }
        try watcher.start()
        defer { watcher.stop() }
        try directory.write("other.yaml", "name: other\n")
        try Data("name: mine\n".utf8).write(to: file)
        #expect(await watcherEventually { received.snapshot.names.last == "mine" })
        #expect(!received.snapshot.names.contains("other"))
    }
}
