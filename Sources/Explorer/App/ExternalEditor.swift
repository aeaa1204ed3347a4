import Foundation

/// Runs the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`) on a text in a temporary file.
package enum ExternalEditor {
    /// Edits a text; blocks until the editor exits.
    ///
    /// - Parameters:
    ///   - text: the text to start from.
    ///   - fileName: the temporary file's name (its extension tells the editor the syntax).
    ///   - environment: the process environment.
    /// - Returns: the saved text, or nil when the editor failed or the text did not change.
    package static func edit(_ text: String, fileName: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-edit-\(UUID().uuidString)")
        let file = folder.appendingPathComponent(fileName)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        } catch {
            return nil
        }
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor may carry arguments ("code --wait"); the file name is passed as $1.
        process.arguments = ["-c", editor + " \"$1\"", "explorer-editor", file.path]
        if let terminal = FileHandle(forUpdatingAtPath: "/dev/tty") {
            process.standardInput = terminal
            process.standardOutput = terminal
            process.standardError = terminal
        }
        do {
            try process.run()
        } catch {
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let edited = try? String(contentsOf: file, encoding: .utf8), edited != text else { return nil }
        return edited
    }
}
