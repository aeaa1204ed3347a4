import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps what the explorer stores about a user's exchanges readable by that user alone:
/// folders `0700`, files `0600`.
///
/// The history holds request and response bodies; a mode that lets other accounts on the
/// machine read it would leak whatever the user's APIs answered. Folders are created private,
/// and a folder or file that already exists with wider modes is tightened when the user owns
/// it; when that is impossible, the caller gets one sentence to show instead of an error,
/// since the explorer still works.
package enum PrivateFiles {
    /// The mode of a private folder: the owner may list, enter and write it.
    package static let directoryMode: mode_t = 0o700
    /// The mode of a private file: the owner may read and write it.
    package static let fileMode: mode_t = 0o600

    /// Creates a folder and its missing parents with mode `0700`, and, when `tighteningExisting`,
    /// tightens it to `0700` when it exists with wider modes.
    ///
    /// Existing parents are left as they are: they are the user's (`~/.local/state`), and the
    /// private folder inside them is what keeps others out. A shared folder (sticky bit, like
    /// `/tmp`) is never tightened.
    ///
    /// - Parameters:
    ///   - url: the folder.
    ///   - tighteningExisting: whether an existing folder is the explorer's own to tighten
    ///     (its state folder) rather than one the user chose for something else.
    /// - Returns: one sentence when the folder is open to others and could not be tightened;
    ///   `nil` when it is private (or not ours to tighten).
    /// - Throws: `FileSystemError` when the folder cannot be created.
    @discardableResult
    package static func prepareDirectory(at url: URL, tighteningExisting: Bool = true) throws -> String? {
        var missing: [String] = []
        var path = url.standardizedFileURL.path
        while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() where mkdir(folder, directoryMode) != 0 && errno != EEXIST {
            throw FileSystemError("create the folder", path: folder)
        }
        guard tighteningExisting || !missing.isEmpty else { return nil }
        return restrict(url.path, to: directoryMode, kind: "folder")
    }

    /// Tightens a file to mode `0600` when it exists with wider modes.
    ///
    /// - Parameter url: the file; a missing file is fine (nothing to tighten).
    /// - Returns: one sentence when the file is open to others and could not be tightened.
    @discardableResult
    package static func restrictFile(at url: URL) -> String? {
        restrict(url.path, to: fileMode, kind: "file")
    }

    /// Sets `mode` on a path whose mode grants anything to the group or others.
    private static func restrict(_ path: String, to mode: mode_t, kind: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let current = status.st_mode & 0o7777
        // A sticky folder is shared by design (/tmp): making it private would break others.
        guard current & 0o077 != 0, current & mode_t(S_ISVTX) == 0 else { return nil }
        let shown = String(current, radix: 8)
        guard status.st_uid == geteuid() else {
            return
                "The \(kind) \(path) can be read by other users (mode \(shown)) and belongs to another account, "
                + "so the explorer cannot make it private; run chmod \(String(mode, radix: 8)) on it."
        }
        guard chmod(path, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            return
                "The \(kind) \(path) can be read by other users (mode \(shown)) and could not be made private "
                + "(\(reason)); run chmod \(String(mode, radix: 8)) on it."
        }
        return nil
    }
}
