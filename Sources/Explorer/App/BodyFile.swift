#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a response body to a new file, never over one that is there.
enum BodyFile {
    /// Why a body could not be saved.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "Could not save the body to \(path): \(reason)." }
    }

    /// Writes `bytes` to `path`, or, when that file exists, to the first free `name-2.ext`,
    /// `name-3.ext` … beside it. The file is created exclusively (`O_EXCL`), so even a file
    /// that appears meanwhile is never replaced.
    ///
    /// - Parameters:
    ///   - bytes: the body.
    ///   - path: where the user asked for it; `~` is the home folder, a relative path is
    ///     relative to `currentDirectory`.
    ///   - home: the home folder.
    ///   - currentDirectory: the working directory.
    /// - Returns: the path written.
    /// - Throws: `BodyFile.Failure` naming the path and the reason.
    package static func save(_ bytes: Data, to path: String, home: String, currentDirectory: String) throws -> String {
        let wanted = absolute(path, home: home, currentDirectory: currentDirectory)
        let url = URL(fileURLWithPath: wanted)
        let stem = url.deletingPathExtension().path
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        for attempt in 1...10_000 {
            let candidate = attempt == 1 ? wanted : "\(stem)-\(attempt)\(suffix)"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw Failure(path: candidate, reason: String(cString: strerror(errno)))
            }
            defer { close(descriptor) }
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        let reason = String(cString: strerror(errno))
                        unlink(candidate)
                        throw Failure(path: candidate, reason: reason)
                    }
                    offset += written
                }
            }
            return candidate
        }
        throw Failure(path: wanted, reason: "10 000 files of that name exist already; choose another name")
    }

    /// `path` with `~` expanded and made absolute.
    static func absolute(_ path: String, home: String, currentDirectory: String) -> String {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/") { expanded = home + expanded.dropFirst() }
        if !expanded.hasPrefix("/") { expanded = currentDirectory + "/" + expanded }
        return URL(fileURLWithPath: expanded).standardizedFileURL.path
    }
}
