import ArgumentParser
import Foundation
import Synchronization
import Workspace

/// Finds the collection file for `explorer send`: `--collection`, else `./explorer.yaml`,
/// else `$EXPLORER_COLLECTION`.
enum CollectionLocation {
    /// The collection files the user named in this process (`--collection`, `explorer FILE`,
    /// `EXPLORER_COLLECTION`): opening one by name trusts it with what it reaches.
    private static let named = Mutex<Set<String>>([])

    /// The collection file to use.
    ///
    /// - Parameters:
    ///   - explicit: the `--collection` value, if given.
    ///   - environment: the process environment.
    ///   - currentDirectory: where `explorer.yaml` is looked for, and what a relative
    ///     `explicit` path is relative to.
    ///   Both are read only when needed: building the environment's dictionary and asking for
    ///   the current folder took 0.6–0.8 ms here at every start of `explorer /path/to/FILE`
    ///   (medians of 25 launches, release).
    /// - Returns: the file URL.
    /// - Throws: `ExitCode(2)` after a sentence on stderr when there is none.
    static func resolve(
        explicit: String?,
        environment: @autoclosure () -> [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath
    ) throws -> URL {
        guard let found = find(explicit: explicit, environment: environment(), currentDirectory: currentDirectory())
        else {
            printError(
                "No collection to send from: pass --collection FILE, add explorer.yaml to this folder, "
                    + "or set EXPLORER_COLLECTION."
            )
            throw ExitCode(2)
        }
        if found.isNamed { named.withLock { _ = $0.insert(found.url.path) } }
        return found.url
    }

    /// The collection file a command would use, without a word on stderr: `explicit`, else
    /// `explorer.yaml` in `currentDirectory` when it exists, else `$EXPLORER_COLLECTION`.
    ///
    /// - Parameters: as `resolve`'s.
    /// - Returns: the file, and whether the user named it (an option or the environment
    ///   variable) rather than it being found in the folder; nil when there is none.
    static func find(
        explicit: String?,
        environment: @autoclosure () -> [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath
    ) -> (url: URL, isNamed: Bool)? {
        if let explicit {
            let url =
                explicit.hasPrefix("/")
                ? URL(fileURLWithPath: explicit).standardizedFileURL
                : URL(
                    fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: currentDirectory(), isDirectory: true)
                ).standardizedFileURL
            return (url, true)
        }
        let local = URL(fileURLWithPath: currentDirectory(), isDirectory: true).appendingPathComponent("explorer.yaml")
        if FileManager.default.fileExists(atPath: local.path) { return (local, false) }
        if let fromEnvironment = environment()["EXPLORER_COLLECTION"], !fromEnvironment.isEmpty {
            return (URL(fileURLWithPath: fromEnvironment).standardizedFileURL, true)
        }
        return nil
    }

    /// Loads a collection, printing its warnings to stderr, and refuses one that was found
    /// (not named, not trusted) and reaches beyond its folder (`CollectionTrust`).
    ///
    /// - Parameter url: the collection file.
    /// - Returns: the collection.
    /// - Throws: `ExitCode(2)` after the loader's sentence, or the refusal, on stderr.
    static func load(_ url: URL) throws -> APICollection {
        let collection: APICollection
        let reach: CollectionReach
        do {
            (collection, reach) = try CollectionLoader.loadReaching(from: url)
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
        for warning in collection.warnings { printError(warning.description) }
        try admit(collection, reaching: reach, at: url)
        return collection
    }

    /// Lets a collection send: one the user named is trusted with what it reaches now; one
    /// found that reaches beyond its folder without that trust is refused, with what it would
    /// read and where it would send.
    ///
    /// - Throws: `ExitCode(2)` after the refusal on stderr.
    static func admit(
        _ collection: APICollection, reaching reach: CollectionReach, at url: URL,
        trust: CollectionTrust = CollectionTrust()
    ) throws {
        switch admission(of: collection, reaching: reach, at: url, trust: trust) {
        case .admitted(let problem):
            if let problem { printError(problem) }
        case .refused(let refusal):
            printError(refusal)
            throw ExitCode(2)
        }
    }

    /// Whether a collection may send (see `admit`), said rather than printed: the TUI says it
    /// after its screen has ended, or in its message line.
    enum Admission: Equatable {
        /// It may; `problem` says why the trust could not be kept for next time.
        case admitted(problem: String?)
        /// It may not: what it would read and where it would send, and what to do.
        case refused(String)
    }

    /// Decides `admit`'s question, printing nothing.
    static func admission(
        of collection: APICollection, reaching reach: CollectionReach, at url: URL,
        trust: CollectionTrust = CollectionTrust()
    ) -> Admission {
        if named.withLock({ $0.contains(url.path) }) {
            do {
                try trust.trust(url, reach: reach)
            } catch {
                return .admitted(problem: "The collection cannot be trusted: \(error)")
            }
        } else if let refusal = trust.refusal(for: collection, reaching: reach, at: url) {
            return .refused(refusal)
        }
        return .admitted(problem: nil)
    }
}
