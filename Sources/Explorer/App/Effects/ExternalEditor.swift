import Foundation

/// Runs the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`) on a file.
package enum ExternalEditor {
    /// How the editor ended.
    package enum Outcome: Sendable, Equatable {
        /// It exited with status 0.
        case finished
        /// It could not be started, or exited with a failure status.
        case failed(String)
    }

    /// Edits a file in place; blocks until the editor exits.
    ///
    /// - Parameters:
    ///   - file: the file.
    ///   - environment: the process environment.
    /// - Returns: whether the editor finished.
    package static func run(on file: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Outcome {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor may carry arguments ("code --wait"); the file name is passed as $1.
        process.arguments = ["-c", editor + " \"$1\"", "explorer-editor", file.path]
        process.environment = environment
        if let terminal = FileHandle(forUpdatingAtPath: "/dev/tty") {
            process.standardInput = terminal
            process.standardOutput = terminal
            process.standardError = terminal
        }
        do {
            try process.run()
        } catch {
            return .failed("\(editor) could not be started: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0): return .finished
        case (.exit, 127): return .failed("\(editor) was not found (set VISUAL or EDITOR)")
        case (.exit, let status): return .failed("\(editor) exited with status \(status)")
        case (_, let signal): return .failed("\(editor) was killed by signal \(signal)")
        }
    }
}
