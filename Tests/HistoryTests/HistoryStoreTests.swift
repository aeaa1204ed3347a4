import Foundation
import GRDB
import NetworkingCore
import TestSupport
import Testing

@testable import History
@testable import Terminal

@Suite struct HistoryStoreTests {
    @Test func anEmptyFolderGetsAFreshFileInWALModeWithTheSchema() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        #expect(FileManager.default.fileExists(atPath: folder.historyFile.path))
        #expect(try store.count() == 0)
        try store.close()
        let queue = try DatabaseQueue(path: folder.historyFile.path)
        let mode = try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let tables = try queue.read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.contains("exchange"))
        #expect(tables.contains("exchange_fts"))
        #expect(tables.contains("grdb_migrations"))
    }

    @Test func reopeningAnExistingFileKeepsItsExchanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let first = try HistoryStore(fileURL: folder.historyFile)
        let id = try first.record(sampleEntry())
        try first.close()
        let second = try HistoryStore(fileURL: folder.historyFile)
        #expect(try second.entry(id: id)?.url == "http://127.0.0.1:8080/v1/users")
    }

    @Test func aRecordedExchangeComesBackWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let sent = Date(timeIntervalSince1970: 1_790_000_000.25)
        let entry = sampleEntry(
            method: "POST", status: 201, requestBody: Data(#"{"name":"bob"}"#.utf8), startedAt: sent)
        let id = try store.record(entry)
        let stored = try #require(try store.entry(id: id))
        #expect(stored.id == id)
        #expect(stored.startedAt == sent)
        #expect(stored.collectionPath == "/tmp/explorer.yaml")
        #expect(stored.environment == "local")
        #expect(stored.endpoint == "Users/List")
        #expect(stored.method == "POST")
        #expect(stored.requestHeaders["accept"] == "application/json")
        #expect(stored.requestBody == Data(#"{"name":"bob"}"#.utf8))
        #expect(stored.status == 201)
        #expect(stored.responseHeaders["Content-Type"] == "application/json")
        #expect(stored.responseBody == entry.responseBody)
        #expect(stored.responseBodySize == entry.responseBody?.count)
        #expect(stored.contentType == "application/json")
        #expect(stored.timings == HistoryTimings(totalMilliseconds: 12.5, headMilliseconds: 10))
        #expect(stored.httpVersion == "HTTP/1.1")
        #expect(stored.transportError == nil)
        #expect(!stored.isResponseBodyTruncated)
    }

    @Test func binaryBodiesAreKeptByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE])
        let id = try store.record(sampleEntry(responseBody: png))
        #expect(try store.entry(id: id)?.responseBody == png)
    }

    @Test func aTransportFailureIsKeptWithItsSentenceAndNoStatus() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let id = try store.record(
            sampleEntry(status: nil, responseBody: nil, transportError: "Connection refused by 127.0.0.1:9."))
        let stored = try #require(try store.entry(id: id))
        #expect(stored.status == nil)
        #expect(stored.statusClass == .error)
        #expect(stored.transportError == "Connection refused by 127.0.0.1:9.")
    }

    @Test func anUnknownIdIsNil() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        #expect(try store.entry(id: 42) == nil)
    }

    // MARK: - Body cap

    @Test func aBodyOverTheCapIsStoredTruncatedWithItsFullSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile, configuration: HistoryConfiguration(bodyCap: 1000))
        let big = Data(String(repeating: "x", count: 5000).utf8)
        let id = try store.record(sampleEntry(requestBody: big, responseBody: big))
        let stored = try #require(try store.entry(id: id))
        #expect(stored.responseBody?.count == 1000)
        #expect(stored.responseBodySize == 5000)
        #expect(stored.isResponseBodyTruncated)
        #expect(stored.requestBody?.count == 1000)
        #expect(stored.requestBodySize == 5000)
        #expect(try store.summaries().first?.responseBodySize == 5000)
    }

    @Test func aTextBodyIsCutOnACharacterBoundarySoItStaysText() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile, configuration: HistoryConfiguration(bodyCap: 10))
        let text = String(repeating: "é", count: 20)  // 2 bytes each: a cap of 10 fits 5 whole
        let id = try store.record(sampleEntry(responseBody: Data(("a" + text).utf8)))
        let stored = try #require(try store.entry(id: id))
        #expect(
            stored.responseBody.flatMap { String(data: $0, encoding: .utf8) } == "a" + String(repeating: "é", count: 4))
        #expect(stored.responseBodySize == 41)
    }

    @Test func aLargeBodyIsMaskedOnlyAsFarAsItIsKeptAndASecretAcrossTheCutIsMaskedWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile, configuration: HistoryConfiguration(bodyCap: 100))
        // The secret starts 4 bytes before the cap: the stored copy must not hold its start.
        let body = String(repeating: "x", count: 96) + "hunter2-pw" + String(repeating: "y", count: 1_000_000)
        let id = try store.record(sampleEntry(responseBody: Data(body.utf8)), secrets: ["hunter2-pw"])
        let stored = try #require(try store.entry(id: id))
        let text = try #require(stored.responseBody.flatMap { String(data: $0, encoding: .utf8) })
        #expect(!text.contains("hunt"))
        #expect(text.hasPrefix(String(repeating: "x", count: 96) + "•"))
        #expect(stored.responseBodySize == body.utf8.count)
        #expect(stored.isResponseBodyTruncated)
    }

    @Test func theDefaultCapIsFiveMegabytes() {
        #expect(HistoryConfiguration.default.bodyCap == 5 * 1024 * 1024)
        #expect(HistoryConfiguration.default.maximumCount == 10_000)
    }

    // MARK: - Secrets

    @Test func credentialHeadersAndSecretValuesAreMaskedBeforeTheyReachTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        var entry = sampleEntry(
            url: "http://127.0.0.1/v1/users?key=k3y-s3cr3t",
            requestBody: Data(#"{"password":"hunter2-pw"}"#.utf8))
        entry.requestHeaders = [
            "Authorization": "Bearer demo-token", "X-API-Key": "abc123", "Cookie": "sid=1",
            "X-Trace": "trace-k3y-s3cr3t", "Accept": "text/plain",
        ]
        let id = try store.record(entry, secrets: ["k3y-s3cr3t", "hunter2-pw"])
        let stored = try #require(try store.entry(id: id))
        #expect(stored.requestHeaders["Authorization"] == "Bearer ••••••")
        #expect(stored.requestHeaders["X-API-Key"] == "••••••")
        #expect(stored.requestHeaders["Cookie"] == "••••••")
        #expect(stored.requestHeaders["X-Trace"] == "trace-••••••")
        #expect(stored.requestHeaders["Accept"] == "text/plain")
        #expect(stored.url == "http://127.0.0.1/v1/users?key=••••••")
        #expect(stored.requestBody == Data(#"{"password":"••••••"}"#.utf8))
        try store.close()
        let raw =
            try Data(contentsOf: folder.historyFile)
            + ((try? Data(contentsOf: URL(fileURLWithPath: folder.historyFile.path + "-wal"))) ?? Data())
        for secret in ["demo-token", "abc123", "k3y-s3cr3t", "hunter2-pw"] {
            #expect(raw.range(of: Data(secret.utf8)) == nil, "\(secret) reached the file")
        }
    }
}
