import Foundation
import TestSupport
import Testing

@testable import ExplorerCLI
@testable import Formats
@testable import Workspace

/// The mode bits of a file (following links), as `ls -l` would read them.
func fileMode(_ path: String) throws -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { throw FileSystemError("stat", path: path) }
    return Int(status.st_mode & 0o7777)
}

@Suite struct AtomicFileTests {
    @Test func aRewrittenFileKeepsItsMode() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = try directory.write("api.yaml", "name: before\n")
        #expect(chmod(file.path, 0o640) == 0)

        try CollectionMerger.writeAtomically("name: after\n", to: file)

        #expect(try fileMode(file.path) == 0o640)
        #expect(try String(contentsOf: file, encoding: .utf8) == "name: after\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["api.yaml"])
    }

    @Test func aSymlinkedCollectionStaysALinkAndItsTargetGetsTheText() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("dotfiles"), withIntermediateDirectories: true)
        let target = try directory.write("dotfiles/api.yaml", "name: before\n")
        #expect(chmod(target.path, 0o600) == 0)
        let link = directory.url.appendingPathComponent("api.yaml")
        // A relative link, as `ln -s dotfiles/api.yaml api.yaml` makes it.
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "dotfiles/api.yaml")

        try CollectionMerger.writeAtomically("name: after\n", to: link)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "dotfiles/api.yaml")
        #expect(try String(contentsOf: target, encoding: .utf8) == "name: after\n")
        #expect(try fileMode(target.path) == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path) == ["api.yaml"]
        )
    }

    @Test func aChainOfLinksIsFollowedToTheEnd() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let target = try directory.write("real.yaml", "name: before\n")
        let middle = directory.url.appendingPathComponent("middle.yaml")
        let link = directory.url.appendingPathComponent("api.yaml")
        try FileManager.default.createSymbolicLink(atPath: middle.path, withDestinationPath: target.path)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "middle.yaml")

        try AtomicFile.write(Data("name: after\n".utf8), to: link)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "middle.yaml")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: middle.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "name: after\n")
    }

    @Test func aLinkLoopIsAnErrorNotAHang() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let a = directory.url.appendingPathComponent("a.yaml")
        let b = directory.url.appendingPathComponent("b.yaml")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: "b.yaml")
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: "a.yaml")
        #expect(throws: FileSystemError.self) { try AtomicFile.write(Data("x".utf8), to: a) }
    }

    @Test func aFailedWriteNamesTheFolderAndLeavesNothing() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = directory.url.appendingPathComponent("missing/api.yaml")
        let error = try #require(throws: FileSystemError.self) { try AtomicFile.write(Data("x".utf8), to: file) }
        #expect(sentence(describing: error).contains(directory.url.appendingPathComponent("missing").path))
        #expect(sentence(describing: error).contains("No such file or directory"))
    }

    @Test func importIntoASymlinkedModeKeptCollectionWritesThrough() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let first = try CurlImporter().importCommand("curl http://127.0.0.1:9/a")
        let target = directory.url.appendingPathComponent("real.yaml")
        try ImportCommand.merge(first.collection, into: target, force: false, ask: nil)
        #expect(chmod(target.path, 0o640) == 0)
        let link = directory.url.appendingPathComponent("api.yaml")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.yaml")

        let second = try CurlImporter().importCommand("curl -X POST http://127.0.0.1:9/b")
        try ImportCommand.merge(second.collection, into: link, force: false, ask: nil)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.yaml")
        #expect(try fileMode(target.path) == 0o640)
        #expect(try CollectionLoader.load(from: target).endpoints.count == 2)
    }
}
