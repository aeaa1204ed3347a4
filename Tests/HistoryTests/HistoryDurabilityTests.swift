import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

@Suite struct HistoryDurabilityTests {
    // MARK: - Retention

    @Test func openingKeepsOnlyTheNewestN() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let unlimited = try HistoryStore(
            fileURL: folder.historyFile, configuration: HistoryConfiguration(maximumCount: nil))
        for index in 0..<30 { try unlimited.record(sampleEntry(url: "http://h/v1/items/\(index)")) }
        try unlimited.close()
        let store = try HistoryStore(fileURL: folder.historyFile, configuration: HistoryConfiguration(maximumCount: 10))
        let kept = try store.summaries(matching: HistoryQuery(limit: 100))
        #expect(kept.count == 10)
        #expect(kept.first?.url == "http://h/v1/items/29")
        #expect(kept.last?.url == "http://h/v1/items/20")
        #expect(try store.count(matching: HistoryQuery(search: "items")) == 10)
    }

    @Test func openingDropsExchangesOlderThanDDays() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try HistoryStore(fileURL: folder.historyFile, now: now)
        for daysAgo in [40, 31, 29, 1, 0] {
            try store.record(
                sampleEntry(
                    endpoint: "\(daysAgo) days ago", startedAt: now.addingTimeInterval(-Double(daysAgo) * 86_400)))
        }
        try store.close()
        let reopened = try HistoryStore(
            fileURL: folder.historyFile, configuration: HistoryConfiguration(maximumAgeDays: 30), now: now)
        #expect(try reopened.summaries().map(\.endpoint) == ["0 days ago", "1 days ago", "29 days ago"])
    }

    @Test func environmentVariablesChangeTheCapAndRetention() {
        let configuration = HistoryConfiguration.fromEnvironment([
            "EXPLORER_HISTORY_BODY_CAP": "512K", "EXPLORER_HISTORY_KEEP": "0", "EXPLORER_HISTORY_KEEP_DAYS": "30",
        ])
        #expect(configuration.bodyCap == 512 * 1024)
        #expect(configuration.maximumCount == nil)
        #expect(configuration.maximumAgeDays == 30)
        #expect(HistoryConfiguration.fromEnvironment(["EXPLORER_HISTORY_BODY_CAP": "2MB"]).bodyCap == 2 * 1024 * 1024)
        #expect(
            HistoryConfiguration.fromEnvironment(["EXPLORER_HISTORY_BODY_CAP": "lots"]) == HistoryConfiguration.default)
        #expect(HistoryConfiguration.fromEnvironment([:]) == HistoryConfiguration.default)
    }

    @Test func idsAreNeverReusedAfterAClear() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let first = try store.record(sampleEntry())
        try store.clear()
        let second = try store.record(sampleEntry())
        #expect(second > first)
    }

    // MARK: - Corruption

    @Test func aFileThatIsNotADatabaseIsMovedAsideAndANewOneStarts() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "this is not an SQLite file. ", count: 400).utf8)
        try garbage.write(to: folder.historyFile)
        let store = try HistoryStore(fileURL: folder.historyFile, now: Date(timeIntervalSince1970: 1_800_000_000))
        let notice = try #require(store.recoveryNotice)
        #expect(notice.contains("history.sqlite.corrupt-20270115T080000Z"))
        #expect(notice.hasSuffix("a new one was started."))
        let aside = folder.historyFile.path + ".corrupt-20270115T080000Z"
        #expect(FileManager.default.contents(atPath: aside) == garbage)
        #expect(try store.count() == 0)
        #expect(try store.entry(id: store.record(sampleEntry())) != nil)
    }

    @Test func aDatabaseWithADamagedHeaderIsMovedAside() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        for _ in 0..<20 { try store.record(sampleEntry()) }
        try store.close()
        // Checkpointed and closed: now scribble over the first page, where the schema lives.
        var bytes = try Data(contentsOf: folder.historyFile)
        for index in 16..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try bytes.write(to: folder.historyFile)
        let recovered = try HistoryStore(fileURL: folder.historyFile)
        #expect(recovered.recoveryNotice != nil)
        #expect(try recovered.count() == 0)
        let folderContents = try FileManager.default.contentsOfDirectory(
            atPath: folder.historyFile.deletingLastPathComponent().path)
        #expect(folderContents.contains { $0.hasPrefix("history.sqlite.corrupt-") })
    }

    @Test func aHealthyFileGivesNoNotice() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(try HistoryStore(fileURL: folder.historyFile).recoveryNotice == nil)
    }

    // MARK: - Never in the way

    @Test func aWriteFailureIsReportedOnceAndNeverThrown() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let messages = Collected<String>()
        let recorder = HistoryRecorder(store: store, report: messages.append)
        #expect(recorder.record(sampleEntry()) != nil)
        try store.close()  // every later write fails
        #expect(recorder.record(sampleEntry()) == nil)
        #expect(recorder.record(sampleEntry()) == nil)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.hasSuffix("the request itself was not affected.") == true)
    }

    @Test func aHistoryFileThatCannotBeCreatedTurnsHistoryOffWithOneMessage() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // A regular file where the state folder should be: the history folder cannot exist.
        let blocker = folder.url.appendingPathComponent("state")
        try Data("x".utf8).write(to: blocker)
        let messages = Collected<String>()
        let recorder = HistoryRecorder(fileURL: folder.historyFile, report: messages.append)
        #expect(recorder.store == nil)
        #expect(recorder.record(sampleEntry()) == nil)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.hasPrefix("History is off for this run:") == true)
    }

    @Test func theRecorderReportsARecoveryNotice() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 7, count: 8192).write(to: folder.historyFile)
        let messages = Collected<String>()
        let recorder = HistoryRecorder(fileURL: folder.historyFile, report: messages.append)
        #expect(recorder.record(sampleEntry()) != nil)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.contains("was unreadable, so it was moved to") == true)
    }

    // MARK: - Concurrent writers

    @Test func twoStoresOnOneFileWritingAtOnceLoseNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let a = try HistoryStore(fileURL: folder.historyFile)
        let b = try HistoryStore(fileURL: folder.historyFile)
        await withTaskGroup(of: Void.self) { group in
            for (store, tag) in [(a, "alpha"), (b, "beta")] {
                group.addTask {
                    for index in 0..<200 { _ = try? store.record(sampleEntry(url: "http://h/\(tag)/\(index)")) }
                }
            }
        }
        #expect(try a.count() == 400)
        #expect(try a.count(matching: HistoryQuery(search: "alpha")) == 200)
    }

    @Test func storesOpeningAFreshFileAtOnceAllSucceed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = folder.historyFile
        let opened = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask { (try? HistoryStore(fileURL: file).record(sampleEntry())) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(opened == Array(repeating: true, count: 6))
        #expect(try HistoryStore(fileURL: file).count() == 6)
    }

    @Test func twoProcessesWriting500EachLoseNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let binary = try #require(explorerBinary(), "the explorer binary is built next to the tests")
        func writer(_ tag: String) -> Process {
            let process = Process()
            process.executableURL = binary
            process.arguments = [
                "bench", "history", "--database", folder.historyFile.path, "--write-only", "500", "--tag", tag,
            ]
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        // Both at once; waited for without blocking a thread (20-70 s under a loaded suite).
        async let one = writer("one").runToExit()
        async let two = writer("two").runToExit()
        #expect(try await [one, two] == [0, 0])
        let store = try HistoryStore(fileURL: folder.historyFile)
        #expect(try store.count() == 1000)
        #expect(try store.count(matching: HistoryQuery(endpoint: "Bench/one")) == 500)
        #expect(try store.count(matching: HistoryQuery(endpoint: "Bench/two")) == 500)
    }

    /// The `explorer` executable SwiftPM builds beside the test bundle.
    private func explorerBinary() -> URL? {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = me.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("explorer")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
