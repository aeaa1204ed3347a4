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
    /// The editor runs as the terminal's foreground job (`ForegroundJob`): it reads the
    /// terminal, `Ctrl-C` reaches it and not the explorer, and `Ctrl-Z` suspends both.
    ///
    /// - Parameters:
    ///   - file: the file.
    ///   - environment: the process environment.
    /// - Returns: whether the editor finished.
    package static func run(on file: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Outcome
    {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // Without a terminal there is no foreground to hand over: the editor (a script, a GUI
        // editor that waits) runs as a plain child.
        guard FileManager.default.isReadableFile(atPath: "/dev/tty"),
            let terminal = FileHandle(forUpdatingAtPath: "/dev/tty")
        else {
            return runWithoutTerminal(editor: editor, file: file, environment: environment)
        }
        try? terminal.close()
        // The editor may carry arguments ("code --wait"); the file name is passed as $1.
        let ended = ForegroundJob.run(
            executable: "/bin/sh",
            arguments: ["sh", "-c", editor + " \"$1\"", "explorer-editor", file.path],
            environment: environment)
        switch ended {
        case .exited(0): return .finished
        case .exited(127): return .failed("\(editor) was not found (set VISUAL or EDITOR)")
        case .exited(let status): return .failed("\(editor) exited with status \(status)")
        case .signaled(let signal): return .failed("\(editor) was killed by signal \(signal)")
        case .notStarted(let reason): return .failed("\(editor) could not be started: \(reason)")
        }
    }

    private static func runWithoutTerminal(editor: String, file: URL, environment: [String: String]) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", editor + " \"$1\"", "explorer-editor", file.path]
        process.environment = environment
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
