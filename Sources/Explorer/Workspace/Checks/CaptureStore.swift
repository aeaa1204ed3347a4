import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value a `capture:` set: what it is, which endpoint set it and when.
package struct CapturedVariable: Sendable, Hashable, Codable {
    /// The largest value a capture may keep, in bytes (a whole body is usually a mistake).
    package static let maximumBytes = 64 * 1024

    /// The value.
    package var value: String
    /// The address of the endpoint that captured it (`Auth/Login`).
    package var endpoint: String
    /// When it was captured.
    package var capturedAt: Date
    /// Whether it is masked wherever it is shown.
    package var isSecret: Bool

    /// Creates a captured value.
    package init(value: String, endpoint: String, capturedAt: Date, isSecret: Bool) {
        self.value = value
        self.endpoint = endpoint
        self.capturedAt = capturedAt
        self.isSecret = isSecret
    }
}

/// Where captured variables are kept between runs: one file in the state folder
/// (`$XDG_STATE_HOME/explorer/captures.json`, mode 0600 in a 0700 folder), per collection
/// file and environment, until a capture replaces them or the user clears them.
///
/// Several processes may capture at once (`explorer send Login` in two shells): each change
/// is a read-modify-write under an exclusive `flock`, and the file is replaced atomically.
package struct CaptureStore: Sendable {
    /// The file.
    package let fileURL: URL

    /// A store in a file.
    package init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The store in the state folder of a process environment.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(fileURL: XDGDirectories(environment: environment).stateDirectory.appendingPathComponent("captures.json"))
    }

    /// The file's contents: collection path → environment → variable → value.
    private typealias Contents = [String: [String: [String: CapturedVariable]]]

    /// Why the store could not be read or written, in one sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The captured variables of an environment of a collection.
    ///
    /// - Parameters:
    ///   - collection: the collection file's path (its captures are kept apart from others').
    ///   - environment: the environment's name.
    /// - Returns: the variables by name; empty when none were captured or the file is unreadable.
    package func variables(collection: String, environment: String) -> [String: CapturedVariable] {
        (try? read())?[collection]?[environment] ?? [:]
    }

    /// Keeps captured values, replacing those of the same names.
    ///
    /// - Throws: `Failure` when the file cannot be written.
    package func store(_ values: [String: CapturedVariable], collection: String, environment: String) throws {
        guard !values.isEmpty else { return }
        try update { contents in
            contents[collection, default: [:]][environment, default: [:]].merge(values) { _, new in new }
        }
    }

    /// Forgets one captured variable, or all of an environment's when `name` is `nil`.
    ///
    /// - Throws: `Failure` when the file cannot be written.
    package func clear(_ name: String? = nil, collection: String, environment: String) throws {
        try update { contents in
            if let name {
                contents[collection]?[environment]?[name] = nil
            } else {
                contents[collection]?[environment] = nil
            }
        }
    }

    // MARK: - The file

    private func read() throws -> Contents {
        guard let data = try? Data(contentsOf: fileURL), !data.isEmpty else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(Contents.self, from: data)
        } catch {
            throw Failure(description: "The captured variables in \(fileURL.path) cannot be read (\(error)); delete the file to start again.")
        }
    }

    private func update(_ change: (inout Contents) -> Void) throws {
        let folder = fileURL.deletingLastPathComponent()
        do {
            try PrivateFiles.prepareDirectory(at: folder)
        } catch {
            throw Failure(description: "The folder \(folder.path) for captured variables cannot be created: \(error)")
        }
        let lockPath = fileURL.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure(description: "The lock file \(lockPath) cannot be opened: \(String(cString: strerror(errno))).") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw Failure(description: "The lock file \(lockPath) cannot be locked: \(String(cString: strerror(errno))).") }
        defer { flock(lock, LOCK_UN) }
        var contents = try read()
        change(&contents)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            let data = try encoder.encode(contents)
            // The folder is 0700, so the moment before the mode is set shows nothing to others.
            try AtomicFile.write(data, to: fileURL)
            PrivateFiles.restrictFile(at: fileURL)
        } catch {
            throw Failure(description: "The captured variables cannot be saved in \(fileURL.path): \(error)")
        }
    }
}
