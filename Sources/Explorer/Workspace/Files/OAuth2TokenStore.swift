import Foundation
import NetworkingCore

/// Where OAuth2 tokens are kept between runs: one file in the state folder
/// (`$XDG_STATE_HOME/explorer/tokens.json`, mode 0600 in a 0700 folder), per collection file,
/// environment, client and the server the token is sent to
/// (`OAuth2Configuration.cacheKey(sendingTo:)`), until they are dropped or replaced.
///
/// A store is bound to one collection and environment: it is the cache a request's
/// `OAuth2Authenticator` reads and writes.
package struct OAuth2TokenStore: OAuth2TokenCache {
    /// The file's contents: collection key → environment → client key → token.
    private typealias Contents = [String: [String: [String: OAuth2Token]]]

    /// The collection's key (`APICollection.storeKey`).
    package let collection: String
    /// The environment's name.
    package let environment: String
    private let file: PrivateJSONFile<Contents>

    /// The store of a collection's environment in `fileURL`.
    package init(collection: String, environment: String, fileURL: URL) {
        self.collection = collection
        self.environment = environment
        self.file = PrivateJSONFile(fileURL, holding: "the OAuth2 tokens", empty: [:])
    }

    /// The store of a collection's environment in the state folder of a process environment.
    package init(
        collection: String, environment: String,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(
            collection: collection, environment: environment,
            fileURL: XDGDirectories(environment: processEnvironment).stateDirectory.appendingPathComponent(
                "tokens.json"))
    }

    /// The environment's tokens by client key, for the Tokens view and `explorer auth`.
    ///
    /// - Throws: `PrivateJSONFile.Failure` when the file cannot be read.
    package func tokens() throws -> [String: OAuth2Token] {
        try file.read()[collection]?[environment] ?? [:]
    }

    package func token(for key: String) -> OAuth2Token? {
        (try? file.read())?[collection]?[environment]?[key]
    }

    package func store(_ token: OAuth2Token, for key: String) {
        // A token that cannot be saved is still used by the authenticator that obtained it.
        _ = try? file.update { $0[collection, default: [:]][environment, default: [:]][key] = token }
    }

    package func removeToken(for key: String) {
        _ = try? file.update { $0[collection]?[environment]?[key] = nil }
    }

    /// Drops one token (by client key), or all the environment's when `key` is nil.
    ///
    /// - Returns: how many were dropped.
    /// - Throws: `PrivateJSONFile.Failure` when the file cannot be written.
    @discardableResult
    package func drop(_ key: String? = nil) throws -> Int {
        try file.update { contents in
            let before = contents[collection]?[environment]?.count ?? 0
            if let key {
                contents[collection]?[environment]?[key] = nil
            } else {
                contents[collection]?[environment] = nil
            }
            return before - (contents[collection]?[environment]?.count ?? 0)
        }
    }
}
