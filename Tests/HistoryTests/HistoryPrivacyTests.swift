import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import History
@testable import Workspace

/// The mode bits of a path (following links).
private func mode(_ url: URL) throws -> Int {
    var status = stat()
    guard stat(url.path, &status) == 0 else { throw FileSystemError("stat", path: url.path) }
    return Int(status.st_mode & 0o7777)
}

/// The history file's companions, by suffix.
private func companion(_ file: URL, _ suffix: String) -> URL {
    URL(fileURLWithPath: file.path + suffix)
}

@Suite struct HistoryPrivacyTests {
    // MARK: - Modes

    @Test func aNewHistoryIsReadableByItsOwnerAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        try store.record(sampleEntry())

        #expect(try mode(folder.historyFile.deletingLastPathComponent()) == 0o700)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(try mode(companion(folder.historyFile, suffix)) == 0o600, "history.sqlite\(suffix)")
        }
        #expect(store.privacyNotices.isEmpty)
    }

    @Test func aHistoryLeftWorldReadableByAnOlderVersionIsTightenedOnOpen() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let first = try HistoryStore(fileURL: folder.historyFile)
        try first.record(sampleEntry())
        let stateFolder = folder.historyFile.deletingLastPathComponent()
        #expect(chmod(stateFolder.path, 0o755) == 0)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(chmod(companion(folder.historyFile, suffix).path, 0o644) == 0)
        }

        let second = try HistoryStore(fileURL: folder.historyFile)

        #expect(try mode(stateFolder) == 0o700)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(try mode(companion(folder.historyFile, suffix)) == 0o600, "history.sqlite\(suffix)")
        }
        #expect(second.privacyNotices.isEmpty)
        #expect(try second.count() == 1)
    }

    @Test func aFileMovedAsideIsAsPrivateAsTheNewOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let stateFolder = folder.historyFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: folder.historyFile)
        #expect(chmod(folder.historyFile.path, 0o644) == 0)

        let store = try HistoryStore(fileURL: folder.historyFile)

        #expect(store.recoveryNotice != nil)
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: stateFolder.path).first { $0.contains(".corrupt-") })
        #expect(try mode(stateFolder.appendingPathComponent(aside)) == 0o600)
        #expect(try mode(folder.historyFile) == 0o600)
    }

    @Test func aFolderTheUserKeepsForOtherThingsIsLeftAsItIsButItsHistoryFilesArePrivate() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(chmod(folder.url.path, 0o755) == 0)
        let file = folder.url.appendingPathComponent("bench.sqlite")  // as `bench history --database` places it

        let store = try HistoryStore(fileURL: file)
        try store.record(sampleEntry())

        #expect(try mode(folder.url) == 0o755)
        #expect(try mode(file) == 0o600)
        #expect(store.privacyNotices.isEmpty)
    }

    @Test func aSharedStickyFolderIsNeverMadePrivate() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let shared = folder.url.appendingPathComponent("explorer")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, 0o1777) == 0)  // as /tmp is

        #expect(try PrivateFiles.prepareDirectory(at: shared) == nil)
        #expect(try mode(shared) == 0o1777)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a folder to another account"))
    func aFolderThatCannotBeMadePrivateIsSaidNotHidden() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let stateFolder = folder.historyFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        #expect(chmod(stateFolder.path, 0o755) == 0)
        #expect(chown(stateFolder.path, 65534, 65534) == 0)

        let store = try HistoryStore(fileURL: folder.historyFile)
        let messages = Collected<String>()
        _ = HistoryRecorder(fileURL: folder.historyFile, report: messages.append)

        #expect(store.privacyNotices.count == 1)
        #expect(store.privacyNotices.first?.contains(stateFolder.path) == true)
        #expect(store.privacyNotices.first?.contains("755") == true)
        #expect(messages.all == store.privacyNotices)
    }

    // MARK: - Secrets

    @Test func aSecretTheResponseCarriesIsMaskedInItsBodyHeadersAndTheSearchIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let secret = "tok/en+9f3a7c"
        // An echo service's answer: the token in the body (JSON escapes the slash), the headers,
        // and a login response's cookie.
        let echoed = try JSONSerialization.data(withJSONObject: [
            "args": ["token": secret], "note": "the token is \(secret)",
        ])
        let entry = HistoryEntry(
            method: "GET", url: "http://127.0.0.1:9/echo?token=\(secret)",
            requestHeaders: ["Authorization": "Bearer \(secret)"],
            status: 200, reason: "OK",
            responseHeaders: [
                "Content-Type": "application/json", "X-Echo-Token": secret, "Set-Cookie": "session=\(secret); HttpOnly",
            ],
            responseBody: echoed + Data(" plain \(secret) end".utf8))

        let id = try store.record(entry, secrets: [secret])

        let stored = try #require(try store.entry(id: id))
        let body = String(decoding: try #require(stored.responseBody), as: UTF8.self)
        #expect(!body.contains(secret))
        #expect(!body.contains(secret.replacingOccurrences(of: "/", with: "\\/")))
        #expect(body.contains(SecretMasker.mask))
        #expect(!stored.isResponseBodyTruncated)
        for field in stored.responseHeaders.fields + stored.requestHeaders.fields {
            #expect(!field.value.contains(secret), "\(field.name)")
        }
        #expect(stored.responseHeaders["X-Echo-Token"] == SecretMasker.mask)
        #expect(!stored.url.contains("9f3a7c"))
        #expect(try store.count(matching: HistoryQuery(search: secret)) == 0)
        #expect(try store.count(matching: HistoryQuery(search: "9f3a7c")) == 0)
        #expect(try store.count(matching: HistoryQuery(search: "plain")) == 1)

        // Nowhere in the file itself either: not in a column, not in the full-text index.
        try store.checkpoint()
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: companion(folder.historyFile, suffix))) ?? Data()
            #expect(bytes.range(of: Data("9f3a7c".utf8)) == nil, "history.sqlite\(suffix)")
        }
    }

    @Test func aSecretInABinaryResponseIsMaskedByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let secret = "s3cr3t-value"
        let binary = Data([0xff, 0x00, 0xfe]) + Data(secret.utf8) + Data([0x00, 0x80])
        let id = try store.record(sampleEntry(responseBody: binary), secrets: [secret])
        let stored = try #require(try store.entry(id: id)?.responseBody)
        #expect(stored.range(of: Data(secret.utf8)) == nil)
        #expect(stored.prefix(3) == Data([0xff, 0x00, 0xfe]))
    }

    @Test func aTransportErrorNamingTheSecretURLIsMasked() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = try HistoryStore(fileURL: folder.historyFile)
        let secret = "s3cr3t-value"
        let entry = sampleEntry(
            url: "http://127.0.0.1:9/?key=\(secret)", status: nil, responseBody: nil,
            transportError: "Could not connect to http://127.0.0.1:9/?key=\(secret): refused.")
        let id = try store.record(entry, secrets: [secret])
        #expect(try store.entry(id: id)?.transportError?.contains(secret) == false)
    }
}
