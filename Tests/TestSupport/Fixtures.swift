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
package struct TemporaryFolder {
    /// The directory.
    package let url: URL

    /// Creates a uniquely named directory under the system's temporary directory.
    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

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
