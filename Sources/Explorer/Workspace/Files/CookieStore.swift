import Foundation
import NetworkingCore

/// Where each environment's cookie jar is kept between runs: one file in the state folder
/// (`$XDG_STATE_HOME/explorer/cookies.json`, mode 0600 in a 0700 folder), per collection file
/// and environment.
///
/// Session cookies (no expiry) are kept too, as a browser keeps them while it runs: explorer
/// runs are one session until the user deletes them (the TUI's Cookies view). Each save is a
/// read-modify-write under an exclusive `flock`, replacing that environment's jar only, and
/// the file is replaced atomically; two processes saving the same environment at once: the
/// last one wins. Each jar is bounded (`CookieJar.maximumCount`), so the file is too.
package struct CookieStore: Sendable {
    /// The file.
    package let fileURL: URL

    /// A store in a file.
    package init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The store in the state folder of a process environment.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(
            fileURL: XDGDirectories(environment: environment).stateDirectory.appendingPathComponent("cookies.json"))
    }

    /// The file's contents: collection path → environment → cookies.
    private typealias Contents = [String: [String: [Cookie]]]

    /// Why the store could not be read or written, in one sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The cookies an environment of a collection kept, unexpired.
    ///
    /// - Throws: `Failure` when the file does not read (it is left as it is).
    package func cookies(collection: String, environment: String, now: Date = Date()) throws -> [Cookie] {
        (try read()[collection]?[environment] ?? []).filter { !$0.isExpired(at: now) }
    }

    /// The jar of an environment of a collection, holding what it kept.
    ///
    /// - Throws: `Failure` when the file does not read.
    package func jar(collection: String, environment: String) throws -> CookieJar {
        CookieJar(cookies: try cookies(collection: collection, environment: environment))
    }

    /// Keeps a jar's unexpired cookies as the environment's, replacing what it kept before.
    ///
    /// - Throws: `Failure` when the file cannot be read or written.
    package func save(_ jar: CookieJar, collection: String, environment: String) throws {
        let cookies = jar.cookies()
        try update { contents in
            contents[collection, default: [:]][environment] = cookies.isEmpty ? nil : cookies
            if contents[collection]?.isEmpty == true { contents[collection] = nil }
        }
    }

    /// Puts cookies into an environment's jar (an import's), each replacing the one of the same
    /// name, domain and path, the others kept.
    ///
    /// The jar stays within `CookieJar`'s bound: past `maximumCount`, the oldest go first.
    ///
    /// - Throws: `Failure` when the file cannot be read or written.
    package func add(_ cookies: [Cookie], collection: String, environment: String, now: Date = Date()) throws {
        guard !cookies.isEmpty else { return }
        let limit = CookieJar().maximumCount
        try update { contents in
            var kept = (contents[collection]?[environment] ?? []).filter { old in
                !old.isExpired(at: now)
                    && !cookies.contains { $0.name == old.name && $0.domain == old.domain && $0.path == old.path }
            }
            kept += cookies.filter { !$0.isExpired(at: now) }
            if kept.count > limit { kept = Array(kept.sorted { $0.created < $1.created }.suffix(limit)) }
            contents[collection, default: [:]][environment] = kept.isEmpty ? nil : kept
            if contents[collection]?.isEmpty == true { contents[collection] = nil }
        }
    }

    /// What keeps a jar once requests are sent, if they set or removed a cookie.
    ///
    /// Call it before the requests: it notes the jar's revision, and the closure it returns
    /// writes the jar only when the revision has moved since. Nothing set or removed: the file
    /// is not touched (it may not even be writable).
    ///
    /// - Parameters:
    ///   - jar: the jar the requests use.
    ///   - collection: the collection's store key (`APICollection.storeKey`).
    ///   - environment: the environment's name.
    ///   - failed: told in one sentence when the jar could not be written.
    /// - Returns: what to call once the requests are done.
    package func saving(
        _ jar: CookieJar, collection: String, environment: String, failed: @escaping @Sendable (String) -> Void
    ) -> @Sendable () -> Void {
        let loaded = jar.revision
        return {
            guard jar.revision != loaded else { return }
            do {
                try save(jar, collection: collection, environment: environment)
            } catch {
                failed("The cookies of \"\(environment)\" were not kept: \(error)")
            }
        }
    }

    /// Forgets the cookies of an environment a predicate picks (all of them by default).
    ///
    /// - Throws: `Failure` when the file cannot be read or written.
    package func remove(
        collection: String, environment: String, where predicate: @escaping (Cookie) -> Bool = { _ in true }
    ) throws {
        try update { contents in
            contents[collection]?[environment]?.removeAll(where: predicate)
            if contents[collection]?[environment]?.isEmpty == true { contents[collection]?[environment] = nil }
            if contents[collection]?.isEmpty == true { contents[collection] = nil }
        }
    }

    // MARK: - The file

    private var file: PrivateJSONFile<Contents> { PrivateJSONFile(fileURL, holding: "the cookies", empty: [:]) }

    private func read() throws -> Contents {
        do { return try file.read() } catch { throw Failure(description: "\(error)") }
    }

    private func update(_ change: (inout Contents) -> Void) throws {
        do { try file.update(change) } catch { throw Failure(description: "\(error)") }
    }
}
