import Foundation
import Testing
@testable import Terminal

/// Compares a grid's snapshot with `Tests/Fixtures/TerminalSnapshots/<name>.txt` (kept out of
/// the test target's folder so SwiftPM does not see them as unhandled resources).
///
/// A missing file is recorded and the test fails once, so a new snapshot is always looked
/// at before it is trusted; set `RECORD_SNAPSHOTS=1` to re-record all of them.
func assertSnapshot(_ grid: CellGrid, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/TerminalSnapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let actual = grid.snapshot()
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    if record || !FileManager.default.fileExists(atPath: file.path) {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name); check it and run again.", sourceLocation: sourceLocation)
        return
    }
    let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
}
