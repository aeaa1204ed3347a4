import ArgumentParser
import Formats
import Foundation
import NetworkingCore
import Workspace

extension HARCookiePlacement: ExpressibleByArgument {}

extension ImportCommand {
    /// Puts an import's cookies into the jar of an environment of the collection file it was
    /// merged into (`import har --cookies jar`), and says how many went where, by name.
    ///
    /// - Parameters:
    ///   - cookies: the cookies.
    ///   - imported: the imported collection, whose base URL picks the environment.
    ///   - url: the collection file.
    ///   - name: the environment `--env` names; else the one whose base URL the import's is.
    ///   - store: where jars are kept.
    /// - Throws: `ExitCode(1)` after saying why, when no environment fits or the jar cannot be written.
    static func keep(
        _ cookies: [Cookie], importedWith imported: APICollection, in url: URL, environment name: String?,
        store: CookieStore = CookieStore()
    ) throws {
        guard !cookies.isEmpty else {
            printError("No cookies went into a jar: the requests carry none.")
            return
        }
        do {
            let collection = try CollectionLoader.load(from: url)
            let found = name.map { collection.environment(named: $0) } ?? jarEnvironment(for: imported, in: collection)
            guard let environment = found else {
                if let name {
                    throw KeepFailure(
                        "\(url.path) has no environment \"\(name)\"; it has "
                            + collection.environments.map { "\"\($0.name)\"" }.joined(separator: ", ") + ".")
                }
                throw KeepFailure(
                    "no environment of \(url.path) has the import's base URL; "
                        + "name the one whose jar gets them with --env."
                )
            }
            guard environment.keepsCookies else {
                throw KeepFailure(
                    "the environment \"\(environment.name)\" keeps no cookies (cookies: false in \(url.path)); "
                        + "import with --cookies header instead."
                )
            }
            try store.add(cookies, collection: APICollection.storeKey(forFileAt: url), environment: environment.name)
            let names = cookies.prefix(10).map(\.name).joined(separator: ", ") + (cookies.count > 10 ? ", …" : "")
            printError(
                "Kept \(cookies.count) cookie\(cookies.count == 1 ? "" : "s") in the jar of the environment "
                    + "\"\(environment.name)\" (\(names)); "
                    + "send and run send them, and C in the TUI lists them.")
        } catch let failure as KeepFailure {
            printError("The cookies were not kept: \(failure.sentence)")
            throw ExitCode(1)
        } catch {
            printError("The cookies were not kept: \(error)")
            throw ExitCode(1)
        }
    }

    /// The environment an import landed in: the one with its base URL, or one under it (the
    /// merge made the paths relative to it); the only one when there is one.
    static func jarEnvironment(for imported: APICollection, in collection: APICollection) -> Environment? {
        func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
        guard let origin = imported.environments.first.map({ trimmed($0.baseURLTemplate) }) else {
            return collection.environments.count == 1 ? collection.environments.first : nil
        }
        return collection.environments.first { trimmed($0.baseURLTemplate) == origin }
            ?? collection.environments.first { trimmed($0.baseURLTemplate).hasPrefix(origin + "/") }
            ?? (collection.environments.count == 1 ? collection.environments.first : nil)
    }

    /// Why cookies were not kept, in one sentence.
    private struct KeepFailure: Error {
        let sentence: String
        init(_ sentence: String) { self.sentence = sentence }
    }
}
