import Foundation
import Testing

@testable import Terminal

/// Compares a grid with `Tests/Fixtures/Snapshots/<name>.txt`: its text lines and its style
/// mask (`CellGrid.snapshot()`). Widget and whole-screen snapshots share the folder, which
/// sits outside the test target so SwiftPM sees no unhandled files.
///
/// A missing file is recorded and the test fails once, so a new snapshot is always looked
/// at before it is trusted; `RECORD_SNAPSHOTS=1` rewrites the files that differ (check them
/// with `git diff`).
///
/// - Parameters:
///   - grid: what was drawn.
///   - name: the file's name without `.txt`, by convention ending in the size (`help-80x24`).
package func assertSnapshot(
    _ grid: CellGrid, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let actual = grid.snapshot()
    let expected = try? String(contentsOf: file, encoding: .utf8)
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    if record || expected == nil {
        if actual != expected {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: file, atomically: true, encoding: .utf8)
        }
        if expected == nil {
            Issue.record("Recorded snapshot \(name); check it and run again.", sourceLocation: sourceLocation)
        }
        return
    }
    #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
}
