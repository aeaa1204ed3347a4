import Foundation
import NetworkingCore
import Synchronization
import Workspace

/// The cookie jars of a session, one per collection and environment: read from the state
/// folder the first time one is used, saved after each response.
package final class CookieJars: Sendable {
    /// A collection's environment, the key of its jar.
    package struct Key: Hashable, Sendable {
        package let collection: String
        package let environment: String

        package init(collection: String, environment: String) {
            self.collection = collection
            self.environment = environment
        }
    }

    /// Where the jars are kept between runs; `nil` keeps none (tests).
    private let store: CookieStore?
    private let jars = Mutex<[Key: CookieJar]>([:])

    package init(store: CookieStore?) {
        self.store = store
    }

    /// The jar of the environment a request is sent in; `nil` when cookies are not kept (no
    /// store, `cookies: false`).
    ///
    /// - Parameter report: told, as an error sentence, when the jar's file does not read.
    package func jar(for resolved: ResolvedRequest, report: @Sendable (String) -> Void) -> CookieJar? {
        guard resolved.environment.keepsCookies else { return nil }
        return jar(Key(collection: resolved.collectionKey, environment: resolved.environment.name), report: report)
    }

    /// The jar of an environment: read from the state folder the first time; `nil` when there
    /// is no store (tests).
    package func jar(_ key: Key, report: @Sendable (String) -> Void) -> CookieJar? {
        guard let store else { return nil }
        if let jar = jars.withLock({ $0[key] }) { return jar }
        let jar: CookieJar
        do {
            jar = try store.jar(collection: key.collection, environment: key.environment)
        } catch {
            // The unreadable file stays as it is; this session's cookies live in memory.
            report("\(error) Cookies are kept for this session only.")
            jar = CookieJar()
        }
        return jars.withLock { jars in
            if let existing = jars[key] { return existing }
            jars[key] = jar
            return jar
        }
    }

    /// What an environment's jar holds, for the Cookies panel: from the file when this session
    /// has not used the jar yet (nothing is cached, nor a file moved, for a panel only looked at).
    ///
    /// - Throws: the store's error when the file does not read; `Unkept` without a store.
    package func cookies(_ key: Key) throws -> [Cookie] {
        guard let store else { throw Unkept() }
        if let jar = jars.withLock({ $0[key] }) { return jar.cookies() }
        return try store.cookies(collection: key.collection, environment: key.environment)
    }

    /// Removes the cookies `only` names (every one when `nil`) from an environment's jar and
    /// saves it.
    package func delete(_ key: Key, only: Cookie?, report: @Sendable (String) -> Void) {
        let jar = jar(key, report: report)
        jar?.remove { cookie in
            only.map { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path } ?? true
        }
        guard let jar, let store else { return }
        do {
            try store.save(jar, collection: key.collection, environment: key.environment)
        } catch {
            report("The cookies of \"\(key.environment)\" were not kept: \(error)")
        }
    }

    /// What keeps a jar in the state folder once a response is in.
    package func saving(_ jar: CookieJar?, of resolved: ResolvedRequest, report: @escaping @Sendable (String) -> Void)
        -> @Sendable () -> Void
    {
        guard let jar, let store else { return {} }
        return store.saving(
            jar, collection: resolved.collectionKey, environment: resolved.environment.name, failed: report)
    }

    /// Cookies are not kept in this session (no store).
    package struct Unkept: Error, CustomStringConvertible {
        package var description: String { "Cookies are not kept in this session." }
    }
}
