import Foundation
import Workspace

/// Where the history file lives: `$XDG_STATE_HOME/explorer/history.sqlite`.
package enum HistoryLocation {
    /// The history file's name inside the state folder.
    static let fileName = "history.sqlite"

    /// The history file for a process environment: `history.sqlite` in the explorer's state
    /// folder (`XDGDirectories.stateDirectory`, by default `~/.local/state/explorer`).
    ///
    /// - Parameter environment: the process environment (default: this process's).
    /// - Returns: the file URL (the folder may not exist yet).
    package static func defaultFile(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        XDGDirectories(environment: environment).stateDirectory.appendingPathComponent(fileName)
    }
}
