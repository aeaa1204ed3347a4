import Foundation
import NetworkingCore
import Workspace

/// The environment's cookie jar for `explorer send` and `explorer run`: read from the state
/// folder before the first request, kept there after the last.
extension ExchangeSender {
    /// Gives the sender the jar of an environment, unless cookies are off for it.
    ///
    /// - Parameters:
    ///   - environment: the environment sent to (`cookies: false` keeps none).
    ///   - collection: the collection's store key (`APICollection.storeKey`).
    ///   - disabled: `--no-cookies`.
    ///   - store: where jars are kept.
    /// - Returns: what keeps the jar once the requests are sent (a sentence on stderr when it
    ///   cannot); does nothing when cookies are off.
    mutating func useCookies(
        of environment: Environment, collection: String, disabled: Bool, store: CookieStore = CookieStore()
    ) -> @Sendable () -> Void {
        guard !disabled, environment.keepsCookies else { return {} }
        let jar: CookieJar
        do {
            jar = try store.jar(collection: collection, environment: environment.name)
        } catch {
            // The file is left untouched (nothing is lost); this run keeps its cookies in memory.
            printError("\(error) The cookies of this run are not kept.")
            cookieJar = CookieJar()
            return {}
        }
        cookieJar = jar
        return store.saving(jar, collection: collection, environment: environment.name) { printError($0) }
    }
}
