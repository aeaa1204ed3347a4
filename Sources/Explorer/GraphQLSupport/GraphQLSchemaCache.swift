import Foundation
import Workspace

/// Which schema: the one a GraphQL server at `url` answered in an environment of a collection.
package struct GraphQLSchemaKey: Sendable, Hashable, CustomStringConvertible {
    /// The collection's key (`APICollection.storeKey`).
    package var collection: String
    /// The environment's name.
    package var environment: String
    /// The GraphQL URL, without a query (`http://127.0.0.1:8080/graphql`).
    package var url: String
    /// The URL as messages show it: secrets that came from variables masked.
    package var shownURL: String

    /// Creates a key.
    ///
    /// - Parameter shownURL: the URL with its secrets masked (`url` when it has none).
    package init(collection: String, environment: String, url: String, shownURL: String? = nil) {
        self.collection = collection
        self.environment = environment
        self.url = url
        self.shownURL = shownURL ?? url
    }

    package var description: String { "\(shownURL) (environment \(environment))" }
}

/// A schema kept in the state folder: the SDL introspection gave, and when.
package struct CachedGraphQLSchema: Codable, Sendable, Hashable {
    /// The schema in the schema language.
    package var sdl: String
    /// When it was fetched.
    package var fetchedAt: Date

    /// Creates an entry.
    package init(sdl: String, fetchedAt: Date) {
        self.sdl = sdl
        self.fetchedAt = fetchedAt
    }
}

/// Where the schemas introspection gave are kept between runs: one file in the state folder
/// (`$XDG_STATE_HOME/explorer/graphql-schemas.json`, mode 0600 in a 0700 folder), per
/// collection, environment and GraphQL URL.
///
/// A schema is fetched on first need and reused until `explorer graphql schema --refresh` (or
/// `r` in the TUI's schema browser) fetches it again. The file is bounded: an SDL larger than
/// `maximumSDLBytes` is not kept, and at most `maximumEntries` schemas are, the oldest fetched
/// dropped first.
package struct GraphQLSchemaCache: Sendable {
    /// The largest SDL kept, in bytes (UTF-8).
    package static let maximumSDLBytes = 4 << 20
    /// The most schemas kept in the file.
    package static let maximumEntries = 32

    /// Why a schema is not kept.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The file's contents: collection key → environment → URL → schema.
    private typealias Contents = [String: [String: [String: CachedGraphQLSchema]]]

    /// The file.
    package let fileURL: URL

    /// A cache in a file.
    package init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The cache in the state folder of a process environment.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(
            fileURL: XDGDirectories(environment: environment).stateDirectory.appendingPathComponent(
                "graphql-schemas.json"))
    }

    /// The schema kept for a key, if any.
    ///
    /// - Throws: `PrivateJSONFile.Failure` when the file is not what this version wrote.
    package func schema(for key: GraphQLSchemaKey) throws -> CachedGraphQLSchema? {
        try file.read()[key.collection]?[key.environment]?[key.url]
    }

    /// Keeps a schema for a key, replacing the one kept before.
    ///
    /// - Returns: the entry kept.
    /// - Throws: `Failure` when the SDL is larger than `maximumSDLBytes`;
    ///   `PrivateJSONFile.Failure` when the file cannot be written.
    @discardableResult
    package func store(_ sdl: String, for key: GraphQLSchemaKey, fetchedAt: Date = Date()) throws -> CachedGraphQLSchema
    {
        guard sdl.utf8.count <= Self.maximumSDLBytes else {
            throw Failure(
                description:
                    "The schema of \(key) is \(sdl.utf8.count) bytes, "
                    + "more than the \(Self.maximumSDLBytes) kept; it is used for this run only."
            )
        }
        let entry = CachedGraphQLSchema(sdl: sdl, fetchedAt: fetchedAt)
        try file.update { contents in
            contents[key.collection, default: [:]][key.environment, default: [:]][key.url] = entry
            Self.dropOldest(&contents)
        }
        return entry
    }

    /// Forgets what is kept for a key.
    ///
    /// - Throws: `PrivateJSONFile.Failure` when the file cannot be written.
    package func remove(_ key: GraphQLSchemaKey) throws {
        try file.update { Self.remove(key.collection, key.environment, key.url, from: &$0) }
    }

    // MARK: - The file

    private var file: PrivateJSONFile<Contents> { PrivateJSONFile(fileURL, holding: "the GraphQL schemas", empty: [:]) }

    /// Drops the entries fetched longest ago until at most `maximumEntries` are left.
    private static func dropOldest(_ contents: inout Contents) {
        var all: [(collection: String, environment: String, url: String, fetchedAt: Date)] = []
        for (collection, environments) in contents {
            for (environment, urls) in environments {
                for (url, entry) in urls { all.append((collection, environment, url, entry.fetchedAt)) }
            }
        }
        guard all.count > maximumEntries else { return }
        for old in all.sorted(by: { $0.fetchedAt < $1.fetchedAt }).prefix(all.count - maximumEntries) {
            remove(old.collection, old.environment, old.url, from: &contents)
        }
    }

    /// Takes out one schema, and the environment and collection it leaves empty.
    private static func remove(
        _ collection: String, _ environment: String, _ url: String, from contents: inout Contents
    ) {
        contents[collection]?[environment]?[url] = nil
        if contents[collection]?[environment]?.isEmpty == true { contents[collection]?[environment] = nil }
        if contents[collection]?.isEmpty == true { contents[collection] = nil }
    }
}
