import Foundation
import Workspace

/// Writes a response body to a new file, never over one that is there.
enum BodyFile {
    /// Why a body could not be saved.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "Could not save the body to \(path): \(reason)" }
    }

    /// The most `name-N` variants tried before asking for another name.
    static let maximumVariants = 10_000

    /// Writes `bytes` to `wanted`, or, when that file exists, to the first free `name-2.ext`,
    /// `name-3.ext` … beside it. Each file is created exclusively, so even one that appears
    /// meanwhile is never replaced.
    ///
    /// - Parameters:
    ///   - bytes: the body.
    ///   - wanted: the absolute path the user asked for (see `absolute`).
    /// - Returns: the path written.
    /// - Throws: `BodyFile.Failure` naming the path and the reason.
    static func save(_ bytes: Data, to wanted: String) throws -> String {
        let url = URL(fileURLWithPath: wanted)
        let stem = url.deletingPathExtension().path
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        for attempt in 1...maximumVariants {
            let candidate = attempt == 1 ? wanted : "\(stem)-\(attempt)\(suffix)"
            do {
                if try AtomicFile.create(bytes, at: candidate) { return candidate }
            } catch {
                throw Failure(path: candidate, reason: sentence(describing: error))
            }
        }
        throw Failure(path: wanted, reason: "\(maximumVariants) files of that name exist already; choose another name.")
    }

    /// `path` with `~` expanded and made absolute.
    static func absolute(_ path: String, home: String, currentDirectory: String) -> String {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/") { expanded = home + expanded.dropFirst() }
        if !expanded.hasPrefix("/") { expanded = currentDirectory + "/" + expanded }
        return URL(fileURLWithPath: expanded).standardizedFileURL.path
    }
}
