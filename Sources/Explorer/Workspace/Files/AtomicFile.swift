import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a user's file with new contents so that nobody ever sees half a file, and the
/// file stays the user's file.
///
/// The new contents go to a temporary file beside the target, which gets the target's mode
/// (and owner and group where the system permits), is flushed to disk with `fsync`, and is
/// then renamed over the target; the folder is synced after the rename so that the rename
/// itself survives a crash. When the path is a symbolic link, the link's final target is
/// replaced and the link stays: a collection kept in a dotfiles repository and linked into a
/// project is updated where it lives.
package enum AtomicFile {
    /// How many links are followed before giving up, as the kernel does (`ELOOP`).
    static let maximumLinkHops = 40

    /// Writes data over a file atomically, keeping its mode, owner and symbolic links.
    ///
    /// A new file gets `newFileMode` less the umask (`0666`, the usual mode, by default).
    ///
    /// - Parameters:
    ///   - data: the new contents.
    ///   - url: the file, or a symbolic link to it.
    ///   - newFileMode: the mode of a file that does not exist yet (`0o600` for a private
    ///     file: it is never visible with a wider mode, not even before a `chmod`).
    /// - Throws: `FileSystemError` naming the step that failed; the target is then unchanged
    ///   and no temporary file is left behind.
    package static func write(_ data: Data, to url: URL, newFileMode: mode_t = 0o666) throws {
        let target = try resolvingLinks(url.path)
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var existing = stat()
        let exists = stat(target, &existing) == 0
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).\(UUID().uuidString).tmp"
        // A new file gets 0666 less the umask from open(2) itself; an existing file's mode is
        // set with fchmod below, which the umask does not narrow.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0o600 : newFileMode)
        guard descriptor >= 0 else { throw FileSystemError("create a temporary file in", path: directory) }
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: temporary)
            if exists {
                // Owner first: changing the owner may clear set-id bits, which fchmod restores.
                if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                    // Best effort: only root may give a file away.
                    _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                }
                guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
                    throw FileSystemError("keep the mode of", path: target)
                }
            }
            guard fsync(descriptor) == 0 else { throw FileSystemError("flush to disk", path: temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError("rename the new text over", path: target, code: code)
        }
        syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Creates a new file with `data`, never replacing one: the file is opened with `O_EXCL`,
    /// so even one that appears meanwhile is left alone.
    ///
    /// - Parameters:
    ///   - data: the contents.
    ///   - path: the new file.
    /// - Returns: false when a file of that name exists (nothing was written).
    /// - Throws: `FileSystemError` for any other failure; no partial file is left.
    package static func create(_ data: Data, at path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw FileSystemError("create", path: path)
        }
        defer { close(descriptor) }
        do {
            try writeAll(data, to: descriptor, path: path)
        } catch {
            unlink(path)
            throw error
        }
        return true
    }

    /// The path a chain of symbolic links ends at (the path itself when it is not a link, or
    /// does not exist yet). A relative link is read from the link's own folder.
    ///
    /// - Throws: `FileSystemError` (`ELOOP`) for a chain longer than `maximumLinkHops`.
    static func resolvingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<maximumLinkHops {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current =
                destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        throw FileSystemError("follow the links of", path: path, code: ELOOP)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileSystemError("write", path: path)
                }
                offset += written
            }
        }
    }

    /// Syncs a folder so a rename in it is on disk. Best effort: some file systems cannot
    /// sync a folder, and the data itself is already safe by then.
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// write(2), outside `AtomicFile`, whose `write(_:to:)` would shadow it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
