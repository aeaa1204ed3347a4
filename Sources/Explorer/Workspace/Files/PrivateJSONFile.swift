import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON file in the state folder that only its owner reads (mode 0600 in a 0700 folder),
/// changed by several processes at once: each change is a read-modify-write under an exclusive
/// `flock` on a lock file beside it, and the file is replaced atomically.
///
/// The captured variables, the cookie jars and the OAuth2 tokens are kept in such files.
package struct PrivateJSONFile<Contents: Codable & Sendable>: Sendable {
    /// Why the file could not be read or written, in one sentence that names it.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The file.
    package let fileURL: URL
    /// What it holds, for messages ("the captured variables").
    package let what: String
    /// The contents of a missing or empty file.
    package let empty: Contents

    /// A file holding `what`.
    package init(_ fileURL: URL, holding what: String, empty: Contents) {
        self.fileURL = fileURL
        self.what = what
        self.empty = empty
    }

    /// The contents; `empty` when the file does not exist yet.
    ///
    /// - Throws: `Failure` when the file is not what this version wrote.
    package func read() throws -> Contents {
        guard let data = try? Data(contentsOf: fileURL), !data.isEmpty else { return empty }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(Contents.self, from: data)
        } catch {
            throw Failure(
                description:
                    "\(what.prefix(1).uppercased() + what.dropFirst()) in \(fileURL.path) cannot be read (\(error)); "
                    + "delete the file to start again."
            )
        }
    }

    /// Changes the contents under the lock and writes them back.
    ///
    /// - Throws: `Failure` naming the folder, the lock or the file that failed.
    package func update<Result>(_ change: (inout Contents) throws -> Result) throws -> Result {
        let folder = fileURL.deletingLastPathComponent()
        do {
            try PrivateFiles.prepareDirectory(at: folder)
        } catch {
            throw Failure(description: "The folder \(folder.path) for \(what) cannot be created: \(error)")
        }
        let lockPath = fileURL.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw Failure(
                description: "The lock file \(lockPath) cannot be opened: \(String(cString: strerror(errno))).")
        }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else {
            throw Failure(
                description: "The lock file \(lockPath) cannot be locked: \(String(cString: strerror(errno))).")
        }
        defer { flock(lock, LOCK_UN) }
        var contents = try read()
        let result = try change(&contents)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            let data = try encoder.encode(contents)
            try AtomicFile.write(data, to: fileURL, newFileMode: PrivateFiles.fileMode)
            PrivateFiles.restrictFile(at: fileURL)
        } catch {
            throw Failure(
                description:
                    "\(what.prefix(1).uppercased() + what.dropFirst()) cannot be saved in \(fileURL.path): \(error)")
        }
        return result
    }
}
