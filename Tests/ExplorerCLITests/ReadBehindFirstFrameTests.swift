import Foundation
import TestSupport
import Testing

@testable import ExplorerCLI

/// A collection of 256 KiB or more is read behind a first frame that names it with its size.
@Suite struct ReadBehindFirstFrameTests {
    @Test func aLargeCollectionIsNamedWithItsSizeAndASmallOneIsReadBeforeTheFirstFrame() throws {
        let folder = try TemporaryFolder().url
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = folder.appendingPathComponent("api.yaml")
        try Data(repeating: 0x20, count: ExplorerTUI.readBehindFrameBytes + 5 * 1024).write(to: large)
        #expect(ExplorerTUI.readsBehindFirstFrame(large) == "api.yaml, 261 KB")
        let small = folder.appendingPathComponent("small.yaml")
        try Data(repeating: 0x20, count: ExplorerTUI.readBehindFrameBytes - 1).write(to: small)
        #expect(ExplorerTUI.readsBehindFirstFrame(small) == nil)
        #expect(ExplorerTUI.readsBehindFirstFrame(folder.appendingPathComponent("missing.yaml")) == nil)
    }
}
