import Foundation

/// The shared fixture files in `Tests/Fixtures`, found from this source file's path.
package enum Fixtures {
    /// The `Tests/Fixtures` directory.
    package static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// A fixture file, e.g. `Fixtures.url("openapi/oai-petstore.yaml")`.
    package static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// A fixture file's text.
    package static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }
}

/// A fresh temporary directory for one test, removed by `cleanUp()`: the test targets' one
/// temporary-folder helper (the History tests add `historyFile`).
///
/// Each is made in the test process's own folder (`root`), which the next test process removes
/// once this one has ended: folders a test keeps (many hand their URL on and never clean up, a
/// crash cleans nothing) no longer pile up in the system's temporary directory run after run
/// (about 15 a run did).
package struct TemporaryFolder {
    /// The directory.
    package let url: URL

    /// Creates a uniquely named directory in `root`.
    package init() throws {
        url = Self.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// This test process's folder of temporary folders: `explorer-tests-PID` in the system's
    /// temporary directory. When it is first needed, the folders of test processes that have
    /// ended are removed.
    package static let root: URL = {
        let files = FileManager.default
        let temporary = files.temporaryDirectory
        let prefix = "explorer-tests-"
        for name in (try? files.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            // Gone: no such process (a process of another user answers EPERM, and stays).
            if kill(pid, 0) != 0, errno == ESRCH { try? files.removeItem(at: temporary.appendingPathComponent(name)) }
        }
        return temporary.appendingPathComponent(prefix + String(getpid()))
    }()

    /// Writes a file in the directory and returns its URL.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Removes the directory.
    package func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
