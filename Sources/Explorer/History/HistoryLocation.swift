import Foundation

/// Where the history file lives: `$XDG_STATE_HOME/explorer/history.sqlite`.
package enum HistoryLocation {
    /// The history file's name inside the state folder.
    static let fileName = "history.sqlite"

    /// The history file for a process environment.
    ///
    /// `$XDG_STATE_HOME/explorer/history.sqlite` when `XDG_STATE_HOME` is set to an absolute
    /// path, else `$HOME/.local/state/explorer/history.sqlite`.
    ///
    /// - Parameter environment: the process environment (default: this process's).
    /// - Returns: the file URL (the folder may not exist yet).
    package static func defaultFile(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let stateHome: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            stateHome = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/state", isDirectory: true)
        }
        return stateHome.appendingPathComponent("explorer", isDirectory: true)
            .appendingPathComponent(fileName)
    }
}
