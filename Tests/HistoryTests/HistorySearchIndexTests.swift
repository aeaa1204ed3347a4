import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

/// The full-text index reads the first `HistoryStore.indexedBodyCharacters` of each body: what
/// is further in is stored but not searchable, and the index stays in step with the exchanges.
@Suite struct HistorySearchIndexTests {
    /// A text body of filler words with `nearWord` just inside the indexed part and `farWord`
    /// just past it (a JSON string, as a large response body would be).
    private static func largeBody(nearWord: String, farWord: String) -> Data {
        let limit = HistoryStore.indexedBodyCharacters
        var text = #"{"text":""#
        while text.utf8.count < limit - 40 { text += "filler " }
        text += nearWord + " "
        while text.utf8.count < limit + 10 { text += "filler " }
        text += farWord + #""}"#
        return Data(text.utf8)
    }

    /// Checks that the index holds exactly what indexing the stored exchanges afresh gives: every
    /// word, column and position (FTS5's `integrity-check` cannot say so here, as SQLite 3.40
    /// checks the index only against itself for an external-content table), and that it is
    /// consistent in itself. The fresh index is rolled back.
    private static func expectIndexMatchesARebuild(of file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.inDatabase { db in
            try db.execute(sql: "INSERT INTO exchange_fts(exchange_fts) VALUES('integrity-check')")
            try db.execute(
                sql: "CREATE VIRTUAL TABLE temp.exchange_terms USING fts5vocab(main, exchange_fts, instance)")
        }
        let terms = "SELECT term, doc, col, offset FROM temp.exchange_terms ORDER BY term, doc, col, offset"
        try queue.inTransaction { db in
            let indexed = try Row.fetchAll(db, sql: terms)
            try db.execute(sql: "INSERT INTO exchange_fts(exchange_fts) VALUES('rebuild')")
            let rebuilt = try Row.fetchAll(db, sql: terms)
            #expect(indexed.count == rebuilt.count)
            #expect(indexed == rebuilt)
            return .rollback
        }
        try queue.close()
    }

    @Test func aWordInTheIndexedStartOfALargeBodyIsFoundAndOnePastItIsStoredButNotFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let body = Self.largeBody(nearWord: "nearhorizon", farWord: "farhorizon")
        let id = try store.record(sampleEntry(requestBody: body, responseBody: body))

        #expect(try store.summaries(matching: HistoryQuery(search: "nearhorizon")).map(\.id) == [id])
        #expect(try store.summaries(matching: HistoryQuery(search: "nearhor*")).map(\.id) == [id])
        #expect(try store.count(matching: HistoryQuery(search: "farhorizon")) == 0)
        let stored = try #require(try store.entry(id: id))
        #expect(stored.responseBody == body)
        #expect(stored.requestBody == body)
        try store.close()
        try Self.expectIndexMatchesARebuild(of: folder.historyFile)
    }

    @Test func deletingAndTrimmingExchangesKeepsTheIndexInStep() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try HistoryStore(
            fileURL: folder.historyFile, configuration: HistoryConfiguration(maximumCount: nil), now: now)
        for index in 0..<6 {
            let body = Self.largeBody(nearWord: "near\(index)word", farWord: "far\(index)word")
            try store.record(
                sampleEntry(
                    url: "http://h/v1/items/\(index)", responseBody: body,
                    startedAt: now.addingTimeInterval(Double(index - 10) * 86_400)))
        }
        #expect(try store.clear(before: now.addingTimeInterval(-8 * 86_400)) == 2)
        try store.close()

        let trimmed = try HistoryStore(
            fileURL: folder.historyFile, configuration: HistoryConfiguration(maximumCount: 2), now: now)
        #expect(try trimmed.count() == 2)
        for index in 0..<4 {
            #expect(try trimmed.count(matching: HistoryQuery(search: "near\(index)word")) == 0)
        }
        #expect(
            try trimmed.summaries(matching: HistoryQuery(search: "near4word")).map(\.url) == ["http://h/v1/items/4"])
        #expect(try trimmed.count(matching: HistoryQuery(search: "far5word")) == 0)
        try trimmed.close()
        try Self.expectIndexMatchesARebuild(of: folder.historyFile)

        // A body changed in place (nothing in the app does, but the triggers cover it) is reindexed.
        let queue = try DatabaseQueue(path: folder.historyFile.path)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE exchange SET responseBodyText = 'replacement' WHERE url = 'http://h/v1/items/5'")
        }
        try queue.close()
        try Self.expectIndexMatchesARebuild(of: folder.historyFile)
        let reopened = try HistoryStore(fileURL: folder.historyFile)
        #expect(
            try reopened.summaries(matching: HistoryQuery(search: "replacement")).map(\.url) == ["http://h/v1/items/5"])
        #expect(try reopened.count(matching: HistoryQuery(search: "near5word")) == 0)
        try reopened.clear()
        #expect(try reopened.count(matching: HistoryQuery(search: "near4word")) == 0)
        try reopened.close()
        try Self.expectIndexMatchesARebuild(of: folder.historyFile)
    }

    @Test func aHistoryIndexedWholeIsReindexedByItsStartAndItsExchangesStaySearchable() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let body = Self.largeBody(nearWord: "oldnear", farWord: "oldfar")
        do {
            let old = try DatabaseQueue(path: folder.historyFile.path)
            try HistoryStore.migrator.migrate(old, upTo: "fts prefixes: prefix search from an index")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO exchange (startedAt, method, url, requestHeaders, requestBodySize, status, responseHeaders, responseBodyText, responseBodySize, totalMilliseconds)
                        VALUES (0, 'GET', 'http://h/old', '[]', 0, 200, '[]', ?, ?, 5)
                        """,
                    arguments: [String(decoding: body, as: UTF8.self), body.count])
                #expect(
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM exchange_fts WHERE exchange_fts MATCH 'oldfar'")
                        == 1)
            }
            try old.close()
        }

        let store = try HistoryStore(fileURL: folder.historyFile)
        try store.record(
            sampleEntry(url: "http://h/new", responseBody: Self.largeBody(nearWord: "newnear", farWord: "newfar")))
        #expect(try store.summaries(matching: HistoryQuery(search: "oldnear")).map(\.url) == ["http://h/old"])
        #expect(try store.summaries(matching: HistoryQuery(search: "old*")).map(\.url) == ["http://h/old"])
        #expect(
            try store.summaries(matching: HistoryQuery(search: "filler")).map(\.url) == [
                "http://h/new", "http://h/old",
            ])
        #expect(try store.count(matching: HistoryQuery(search: "oldfar")) == 0)
        #expect(try store.entries().last?.responseBody == body)
        try store.close()
        try Self.expectIndexMatchesARebuild(of: folder.historyFile)
    }
}
