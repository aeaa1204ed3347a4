import Foundation

/// The shared fixture files in `Tests/Fixtures`, found from this source file's path.
enum Fixtures {
    /// The `Tests/Fixtures` directory.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Workspace
        .deletingLastPathComponent()  // ExplorerTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// A fixture file, e.g. `Fixtures.url("openapi/oai-petstore.yaml")`.
    static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// A fixture file's text.
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }
}

/// A fresh temporary directory for one test, removed by `cleanUp()`.
struct WorkspaceTemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates a uniquely named directory under the system's temporary directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes a file in the directory and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Removes the directory.
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
