import ArgumentParser
import Foundation
import Workspace

/// Finds the collection file for `explorer send`: `--collection`, else `./explorer.yaml`,
/// else `$EXPLORER_COLLECTION`.
enum CollectionLocation {
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
        if let explicit {
            let url = explicit.hasPrefix("/") ? URL(fileURLWithPath: explicit).standardizedFileURL
                : URL(fileURLWithPath: explicit, relativeTo: URL(fileURLWithPath: currentDirectory(), isDirectory: true)).standardizedFileURL
            trustNamed(url)
            return url
        }
        let local = URL(fileURLWithPath: currentDirectory(), isDirectory: true).appendingPathComponent("explorer.yaml")
        if FileManager.default.fileExists(atPath: local.path) { return local }
        if let fromEnvironment = environment()["EXPLORER_COLLECTION"], !fromEnvironment.isEmpty {
            let url = URL(fileURLWithPath: fromEnvironment).standardizedFileURL
            trustNamed(url)
            return url
        }
        printError("No collection to send from: pass --collection FILE, add explorer.yaml to this folder, or set EXPLORER_COLLECTION.")
        throw ExitCode(2)
    }

    /// Loads a collection, printing its warnings to stderr, and refuses one that was found
    /// (not named, not trusted) and reaches beyond its folder (`CollectionTrust`).
    ///
    /// - Parameters:
    ///   - url: the collection file.
    ///   - checkingTrust: whether to refuse an untrusted collection (not when trusting it).
    /// - Returns: the collection.
    /// - Throws: `ExitCode(2)` after the loader's sentence, or the refusal, on stderr.
    static func load(_ url: URL, checkingTrust: Bool = true) throws -> APICollection {
        let collection: APICollection
        do {
            collection = try CollectionLoader.load(from: url)
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
        for warning in collection.warnings { printError(warning.description) }
        if checkingTrust, let refusal = CollectionTrust().refusal(for: collection, at: url) {
            printError(refusal)
            throw ExitCode(2)
        }
        return collection
    }
}
