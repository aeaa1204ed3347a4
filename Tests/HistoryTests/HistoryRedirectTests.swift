import Foundation
import GRDB
import NetworkingCore
import TestSupport
import Testing

@testable import History

/// The redirect chain of an exchange (status, Location and time of each hop) is kept with it,
/// secrets masked; a history from before the chain's column opens with its exchanges.
@Suite struct HistoryRedirectTests {
    private func chained() -> HistoryEntry {
        var entry = sampleEntry(method: "POST", url: "http://127.0.0.1:8080/home")
        entry.timings.redirects = [
            HistoryRedirect(
                url: "http://127.0.0.1:8080/login?api_key=k3y-s3cret", status: 303,
                location: "/step?api_key=k3y-s3cret", milliseconds: 4.25),
            HistoryRedirect(
                url: "http://127.0.0.1:8080/step", status: 302, location: "http://127.0.0.1:8080/home",
                milliseconds: nil),
        ]
        return entry
    }

    @Test func theChainIsStoredWithTheExchangeWithItsSecretsMasked() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)

        let id = try store.record(chained(), secrets: ["k3y-s3cret"])
        let stored = try #require(try store.entry(id: id)).timings.redirects

        #expect(stored.map(\.status) == [303, 302])
        #expect(stored.map(\.url) == ["http://127.0.0.1:8080/login?api_key=••••••", "http://127.0.0.1:8080/step"])
        #expect(stored.map(\.location) == ["/step?api_key=••••••", "http://127.0.0.1:8080/home"])
        #expect(stored.map(\.milliseconds) == [4.25, nil])
        let bytes = try Data(contentsOf: folder.historyFile)
        #expect(bytes.range(of: Data("k3y-s3cret".utf8)) == nil)
        let plain = try store.record(sampleEntry(), secrets: [])
        #expect(try store.entry(id: plain)?.timings.redirects == [])
    }

    @Test func aHistoryFromBeforeTheChainOpensAndKeepsItsExchanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: folder.historyFile.path)
            try HistoryStore.migrator.migrate(old, upTo: "fts body prefix: search reads the start of each body")
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
        #expect(old.url == "http://h/old" && old.timings.redirects.isEmpty)
        let id = try store.record(chained(), secrets: [])
        #expect(try store.entry(id: id)?.timings.redirects.count == 2)
    }

    @Test func aTransportsChainBecomesTheHistorysInMilliseconds() {
        let from = URL(string: "http://127.0.0.1:1/a")!
        let chain = HistoryRedirect.chain([
            ResponseTimings.Redirect(
                from: from, to: URL(string: "http://127.0.0.1:1/b")!, status: .seeOther,
                location: "/b", duration: 0.5)
        ])
        #expect(chain == [HistoryRedirect(url: "http://127.0.0.1:1/a", status: 303, location: "/b", milliseconds: 500)])
    }
}
