import Foundation
import History
import TestSupport
import Testing
import Workspace

@testable import ExplorerCLI

/// `explorer history` lists the exchanges of the collection `explorer send` would use, as the
/// TUI's History pane does; `--all` and a folder without a collection list every one.
@Suite struct HistoryListScopeTests {
    /// A folder with an `explorer.yaml`, another collection beside it, and a history holding
    /// an exchange of each and one sent without a collection.
    private struct Arranged {
        let folder: URL
        let store: HistoryStore
        var local: URL { folder.appendingPathComponent("explorer.yaml") }
        var other: URL { folder.appendingPathComponent("other/api.yaml") }
        var empty: URL { folder.appendingPathComponent("empty") }

        init() throws {
            folder = try TemporaryFolder().url
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("other"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
            try Data("name: Local\n".utf8).write(to: folder.appendingPathComponent("explorer.yaml"))
            try Data("name: Other\n".utf8).write(to: folder.appendingPathComponent("other/api.yaml"))
            store = try HistoryStore(fileURL: folder.appendingPathComponent("state/history.sqlite"))
            let local = APICollection.storeKey(forFileAt: folder.appendingPathComponent("explorer.yaml"))
            let other = APICollection.storeKey(forFileAt: folder.appendingPathComponent("other/api.yaml"))
            for (collection, endpoint) in [(local, "Get user"), (other, "List orders"), (nil, nil)]
                as [(String?, String?)]
            {
                _ = try store.record(
                    HistoryEntry(
                        collectionPath: collection, environment: "local", endpoint: endpoint,
                        method: "GET", url: "http://127.0.0.1:9/\(endpoint ?? "typed")", status: 200))
            }
        }

        /// The endpoints `explorer history ARGS` lists, run in `directory` with `environment`.
        func listed(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> [String] {
            let list = try HistoryCommand.List.parse(arguments)
            let query = list.query(in: list.scope(environment: environment, currentDirectory: directory.path))
            return try store.summaries(matching: query).map { $0.endpoint ?? "-" }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func theFoldersCollectionIsTheDefault() throws {
        let arranged = try Arranged()
        defer { arranged.remove() }
        let list = try HistoryCommand.List.parse([])
        #expect(
            list.scope(environment: [:], currentDirectory: arranged.folder.path)
                == .collection(key: arranged.local.standardizedFileURL.path))
        #expect(try arranged.listed([], in: arranged.folder) == ["Get user"])
    }

    @Test func collectionNamesAnotherFileRelativeToTheFolder() throws {
        let arranged = try Arranged()
        defer { arranged.remove() }
        #expect(try arranged.listed(["--collection", "other/api.yaml"], in: arranged.folder) == ["List orders"])
        #expect(try arranged.listed(["--collection", "../other/./api.yaml"], in: arranged.empty) == ["List orders"])
    }

    @Test func theEnvironmentVariableNamesTheCollectionWhenTheFolderHasNone() throws {
        let arranged = try Arranged()
        defer { arranged.remove() }
        #expect(
            try arranged.listed([], in: arranged.empty, environment: ["EXPLORER_COLLECTION": arranged.other.path]) == [
                "List orders"
            ])
        // As `send`: the folder's explorer.yaml comes before the variable.
        #expect(
            try arranged.listed([], in: arranged.folder, environment: ["EXPLORER_COLLECTION": arranged.other.path]) == [
                "Get user"
            ])
    }

    @Test func allAndAFolderWithoutACollectionListEveryExchange() throws {
        let arranged = try Arranged()
        defer { arranged.remove() }
        let all = try HistoryCommand.List.parse(["--all"])
        #expect(all.scope(environment: [:], currentDirectory: arranged.folder.path) == .everyCollection(asked: true))
        #expect(try arranged.listed(["--all"], in: arranged.folder) == ["-", "List orders", "Get user"])
        let none = try HistoryCommand.List.parse([])
        #expect(none.scope(environment: [:], currentDirectory: arranged.empty.path) == .everyCollection(asked: false))
        #expect(try arranged.listed([], in: arranged.empty) == ["-", "List orders", "Get user"])
    }

    @Test func allWithACollectionIsAUsageError() {
        #expect(throws: (any Error).self) { try HistoryCommand.List.parse(["--all", "--collection", "api.yaml"]) }
    }
}
