import Foundation

/// A file-system call that failed: which step, on which path, and the system's reason.
///
/// Written by the explorer's own file writes (atomic replacement, private folders), so that
/// the one sentence a user sees names the file and what went wrong:
/// `Could not rename the new text over /home/u/api.yaml: Permission denied.`
struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What was being done, as a verb phrase: `create the folder`, `write`, `rename … over`.
    package var step: String
    /// The file or folder it was done to.
    package var path: String
    /// The `errno` the system returned.
    package var code: Int32

    /// Creates the error for a failed call.
    ///
    /// - Parameters:
    ///   - step: what was being done (`write`, `create the folder` …).
    ///   - path: the file or folder.
    ///   - code: the `errno` (default: the current one).
    package init(_ step: String, path: String, code: Int32 = errno) {
        self.step = step
        self.path = path
        self.code = code
    }

    /// The system's short reason, e.g. `Permission denied`.
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "Could not \(step) \(path): \(reason)." }

    package var errorDescription: String? { description }
}
