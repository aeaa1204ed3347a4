import Foundation
import GRDB
import TestSupport
import Testing

@testable import Checks
@testable import History
@testable import Workspace

/// Assertion results are part of an exchange: the history keeps them (secrets masked), a
/// database from before keeps working, and the History view shows them again.
@Suite struct HistoryChecksTests {
    private func report() -> CheckReport {
        var report = CheckReport()
        report.assertions = [
            AssertionResult(text: "status == 200", passed: true, actual: "200", reason: nil),
            AssertionResult(
                text: "jsonpath $.token == \"x\"", passed: false, actual: "\"tok-s3cret\"",
                reason: "expected == \"x\", got \"tok-s3cret\""),
        ]
        report.captured = [("session_token", "tok-s3cret", true), ("request_id", "req-1", false)]
        report.captureFailures = ["order: the regex order-(\\d+) does not match the body"]
        return report
    }

    @Test func theChecksOfAnExchangeAreKeptWithTheirSecretsMasked() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        var entry = sampleEntry(endpoint: "Auth/Login")
        entry.checks = report()
        let id = try store.record(entry, secrets: ["tok-s3cret"])
        let stored = try #require(try store.entry(id: id)?.checks)
        #expect(stored.summary == "1/2 checks")
        #expect(stored.assertions.map(\.text) == ["status == 200", "jsonpath $.token == \"x\""])
        #expect(stored.assertions[1].actual == "\"••••••\"")
        #expect(stored.captured.map(\.name) == ["session_token", "request_id"])
        #expect(stored.captured.map(\.value) == ["••••••", "req-1"])
        #expect(stored.captureFailures == report().captureFailures)
        // Nothing of the secret reached the file.
        let bytes = try Data(contentsOf: folder.historyFile)
        #expect(bytes.range(of: Data("tok-s3cret".utf8)) == nil)

        // An exchange without checks has none.
        let plain = try store.record(sampleEntry(), secrets: [])
        #expect(try store.entry(id: plain)?.checks == nil)
    }

    @Test func aHistoryFromBeforeTheChecksColumnOpensAndKeepsItsExchanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: folder.historyFile.path)
            try HistoryStore.migrator.migrate(old, upTo: "v1: exchanges with full-text search")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO exchange (startedAt, method, url, requestHeaders, requestBodySize, status, responseHeaders, responseBodySize, totalMilliseconds)
                        VALUES (0, 'GET', 'http://h/old', '[]', 0, 200, '[]', 0, 5)
                        """)
            }
        }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let old = try #require(try store.entry(id: 1))
        #expect(old.url == "http://h/old" && old.checks == nil)
        var entry = sampleEntry()
        entry.checks = report()
        let id = try store.record(entry, secrets: ["tok-s3cret"])
        #expect(try store.entry(id: id)?.checks?.assertions.count == 2)
    }
}
