import Foundation
import GRDB
import TestSupport
import Testing

@testable import History

@Suite struct HistoryQueryTests {
    /// Eight exchanges, oldest first, one minute apart from `base`.
    private func seededStore(_ folder: TemporaryFolder, base: Date) throws -> HistoryStore {
        let store = try HistoryStore(fileURL: folder.historyFile)
        let rows: [(String, String, Int?, String, String)] = [
            ("Users/List", "local", 200, "/v1/users", #"{"users":["alice","bob"]}"#),
            ("Users/Get", "local", 404, "/v1/users/99", #"{"title":"Not Found","detail":"no user 99"}"#),
            ("Posts/List", "staging", 200, "/v1/posts", #"[{"title":"Hello world"}]"#),
            ("Posts/Create", "staging", 422, "/v1/posts", #"{"title":"Unprocessable","detail":"title missing"}"#),
            ("Errors/Boom", "production", 500, "/v1/error", "<html>Internal kaboom</html>"),
            ("Misc/Redirect", "local", 302, "/v1/redirect", ""),
            ("Users/List", "production", nil, "/v1/users", ""),
            ("Users/List", "staging", 201, "/v1/users", #"{"created":"carol"}"#),
        ]
        for (index, row) in rows.enumerated() {
            try store.record(
                sampleEntry(
                    endpoint: row.0, environment: row.1, url: "http://127.0.0.1:8080" + row.3, status: row.2,
                    responseBody: row.4.isEmpty ? nil : Data(row.4.utf8),
                    startedAt: base.addingTimeInterval(Double(index) * 60),
                    transportError: row.2 == nil ? "Connection refused." : nil))
        }
        return store
    }

    @Test func theListIsNewestFirst() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        let all = try store.summaries()
        #expect(
            all.map(\.endpoint) == [
                "Users/List", "Users/List", "Misc/Redirect", "Errors/Boom", "Posts/Create", "Posts/List", "Users/Get",
                "Users/List",
            ])
        #expect(all.first?.responseBodySize == 19)
    }

    @Test func pagesFollowEachOtherWithoutGapsOrRepeats() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        let first = HistoryQuery(limit: 3)
        let pages = try [first, first.nextPage, first.nextPage.nextPage].map {
            try store.summaries(matching: $0).map(\.id)
        }
        #expect(pages.map(\.count) == [3, 3, 2])
        #expect(pages.flatMap { $0 } == (try store.summaries().map(\.id)))
    }

    @Test func filtersByEndpointAndEnvironment() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try store.count(matching: HistoryQuery(endpoint: "Users/List")) == 3)
        #expect(try store.count(matching: HistoryQuery(environment: "staging")) == 3)
        #expect(
            try store.summaries(matching: HistoryQuery(endpoint: "Users/List", environment: "staging")).map(\.status)
                == [201])
        #expect(try store.count(matching: HistoryQuery(collectionPath: "/tmp/explorer.yaml")) == 8)
    }

    @Test func filtersByStatusClass() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        func statuses(_ statusClass: HistoryStatusClass) throws -> [Int?] {
            try store.summaries(matching: HistoryQuery(statusClass: statusClass)).map(\.status)
        }
        #expect(try statuses(.success) == [201, 200, 200])
        #expect(try statuses(.redirection) == [302])
        #expect(try statuses(.clientError) == [422, 404])
        #expect(try statuses(.serverError) == [500])
        #expect(try statuses(.error) == [nil])
    }

    @Test func filtersByTimeRange() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try seededStore(folder, base: base)
        let window = HistoryQuery(since: base.addingTimeInterval(120), until: base.addingTimeInterval(300))
        #expect(try store.summaries(matching: window).map(\.endpoint) == ["Errors/Boom", "Posts/Create", "Posts/List"])
    }

    @Test func fullTextSearchFindsWordsInBodiesAndURLs() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try store.summaries(matching: HistoryQuery(search: "alice")).map(\.endpoint) == ["Users/List"])
        #expect(try store.summaries(matching: HistoryQuery(search: "kaboom")).map(\.status) == [500])
        #expect(try store.count(matching: HistoryQuery(search: "redirect")) == 1)
        #expect(try store.count(matching: HistoryQuery(search: "posts")) == 2)
        #expect(try store.count(matching: HistoryQuery(search: "title missing")) == 1)
    }

    @Test func searchWordsMatchWholeOrAsPrefixesWithAStarAndCombineWithFilters() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try store.count(matching: HistoryQuery(search: "car")) == 0)
        #expect(try store.count(matching: HistoryQuery(search: "car*")) == 1)
        #expect(try store.count(matching: HistoryQuery(search: "ALI*")) == 1)
        #expect(try store.count(matching: HistoryQuery(statusClass: .clientError, search: "title")) == 2)
        #expect(try store.count(matching: HistoryQuery(statusClass: .success, search: "title")) == 1)
        #expect(try store.count(matching: HistoryQuery(environment: "local", search: "users")) == 2)
    }

    @Test func searchTextWithQuotesAndOperatorsIsTakenLiterally() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try store.count(matching: HistoryQuery(search: #""hello" (world*"#)) == 1)
        #expect(try store.count(matching: HistoryQuery(search: "NOT")) == 1)  // the word in "Not Found"
        #expect(try store.count(matching: HistoryQuery(search: "OR")) == 0)
        #expect(try store.count(matching: HistoryQuery(search: "??")) == 0)
        #expect(try store.count(matching: HistoryQuery(search: "users/99")) == 1)  // a phrase
    }

    @Test func deletedExchangesLeaveTheSearchIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try seededStore(folder, base: base)
        #expect(try store.clear(before: base.addingTimeInterval(60)) == 1)
        #expect(try store.count(matching: HistoryQuery(search: "alice")) == 0)
        #expect(try store.count() == 7)
        #expect(try store.clear() == 7)
        #expect(try store.count(matching: HistoryQuery(search: "users")) == 0)
    }

    @Test func entriesCarryHeadersAndBodiesForAPage() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try seededStore(folder, base: Date(timeIntervalSince1970: 1_800_000_000))
        let page = try store.entries(matching: HistoryQuery(statusClass: .serverError))
        #expect(page.count == 1)
        #expect(page.first?.responseBody == Data("<html>Internal kaboom</html>".utf8))
    }

    @Test func aHistoryFromBeforeThePrefixIndexIsReindexedAndPrefixSearchFindsItsExchanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: folder.historyFile.path)
            try HistoryStore.migrator.migrate(old, upTo: "checks: the assertion results of an exchange")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO exchange (startedAt, method, url, requestHeaders, requestBodySize, status, responseHeaders, responseBodyText, responseBodySize, totalMilliseconds)
                        VALUES (0, 'GET', 'http://h/old', '[]', 0, 200, '[]', '{"greeting":"lorem"}', 20, 5)
                        """)
            }
        }
        let store = try HistoryStore(fileURL: folder.historyFile)
        try store.record(sampleEntry(url: "http://h/new", responseBody: Data(#"{"greeting":"loremipsum"}"#.utf8)))
        #expect(
            try store.summaries(matching: HistoryQuery(search: "lo*")).map(\.url) == ["http://h/new", "http://h/old"])
        #expect(try store.summaries(matching: HistoryQuery(search: "lorem*")).count == 2)
        #expect(try store.summaries(matching: HistoryQuery(search: "lorem")).map(\.url) == ["http://h/old"])
        let options = try DatabaseQueue(path: folder.historyFile.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'exchange_fts'")
        }
        #expect(options?.contains("prefix=") == true, "\(options ?? "no table")")
    }
}
