import Foundation

/// A collection file: a name, collection-wide variables, environments and an endpoint tree.
///
/// Named `APICollection` so it does not shadow the standard library's `Collection` protocol
/// in this module. Load one with `CollectionLoader.load(from:)`.
package struct APICollection: Sendable, Codable {
    /// The collection's display name.
    package var name: String
    /// Collection-wide variable defaults.
    package var variables: [KeyValue]
    /// The environments, in file order.
    package var environments: [Environment]
    /// The endpoint tree, in file order.
    package var items: [CollectionItem] = []
    /// The file it was read from, if any.
    package var sourceURL: URL?
    /// Whether the file it was read from has comments (a rewrite of the whole file loses them).
    package var sourceHasComments = false
    /// What the loader noticed but accepted (unknown keys ...), for the user to see.
    package var warnings: [CollectionWarning]
    /// The `description:` the user wrote.
    package var description: String?
    /// The `auth:` of every request, unless an environment, folder or endpoint sets its own.
    package var auth: Authentication?
    /// `allow_insecure_redirects:`: whether an https URL may redirect to plain http in the
    /// environments that do not say.
    package var allowsInsecureRedirects = false
    /// `openapi:`: the OpenAPI document the collection describes (a path relative to the
    /// collection file, or a URL); endpoints name their operation in it with `operation:`.
    package var openAPI: String?
    /// The files its gRPC schema is read from when a server has no reflection (`protoset:`,
    /// `protos:`).
    package var grpcSchema = GRPCSchemaFiles()
    /// `validate:`: whether every response is checked against the operation `openapi:` declares.
    package var validatesResponses = false
    /// `trace:`: whether every request sends a W3C `traceparent` header (an environment's or an
    /// endpoint's own `trace:` wins).
    package var traces = false
    /// `compare:`: what `explorer compare` leaves out (volatile body values, headers).
    package var compareRules = CompareRules()

    /// What the parsed-collection cache writes with `CompactCoding`: all but the endpoint tree,
    /// which it writes by hand (`CachedItemsWriter`), and `sourceURL`, set at each load.
    /// `CollectionCacheTests` holds this list to the count of stored properties.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, variables, environments, sourceHasComments, warnings, description, auth
        case allowsInsecureRedirects, openAPI, grpcSchema, validatesResponses, traces, compareRules
    }

    /// The `auth:` in effect for an endpoint in an environment: the endpoint's, then its
    /// folders' from the innermost, then the environment's, then the collection's. `nil` (or
    /// a `none` scheme) sends no credentials.
    package func authentication(for endpoint: Endpoint, in environment: Environment?) -> Authentication? {
        if let own = endpoint.auth { return own }
        var folderAuths: [Authentication?] = []
        var level = items
        for name in endpoint.folderPath {
            guard
                case .folder(let folder)? = level.first(where: {
                    if case .folder(let f) = $0 { return f.name == name } else { return false }
                })
            else { break }
            folderAuths.append(folder.auth)
            level = folder.items
        }
        if let nearest = folderAuths.reversed().compactMap({ $0 }).first { return nearest }
        return environment?.auth ?? auth
    }

    /// Creates a collection.
    package init(
        name: String,
        variables: [KeyValue] = [],
        environments: [Environment] = [],
        items: [CollectionItem] = [],
        sourceURL: URL? = nil,
        warnings: [CollectionWarning] = []
    ) {
        self.name = name
        self.variables = variables
        self.environments = environments
        self.items = items
        self.sourceURL = sourceURL
        self.warnings = warnings
    }

    /// Every endpoint, depth first in file order, with its folder path filled in.
    package var endpoints: [Endpoint] {
        var out: [Endpoint] = []
        forEachEndpoint { out.append($0) }
        return out
    }

    /// Calls `visit` with every endpoint, depth first in file order, without gathering them.
    package func forEachEndpoint(_ visit: (Endpoint) -> Void) {
        func walk(_ items: [CollectionItem]) {
            for item in items {
                switch item {
                case .endpoint(let endpoint): visit(endpoint)
                case .folder(let folder): walk(folder.items)
                }
            }
        }
        walk(items)
    }

    /// The environment with that name (exact, then case-insensitive), or `nil`.
    package func environment(named name: String) -> Environment? {
        environments.first { $0.name == name } ?? environments.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The environment with that name.
    ///
    /// - Throws: `LookupError.environmentNotFound` listing the environments there are.
    package func requireEnvironment(named name: String) throws -> Environment {
        if let environment = environment(named: name) { return environment }
        throw LookupError.environmentNotFound(
            name, available: environments.map(\.name),
            suggestions: Suggestions.closest(to: name, in: environments.map(\.name)))
    }

    /// The endpoint a user addressed as `Folder/Name` or, when unique, `Name`.
    ///
    /// Matching tries the exact address, then the exact name, then both ignoring case.
    /// - Throws: `LookupError.endpointNotFound` with close matches, or
    ///   `LookupError.ambiguousEndpoint` listing the full addresses to choose from.
    package func endpoint(named query: String) throws -> Endpoint {
        let all = endpoints
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        let passes: [(Endpoint) -> Bool] = [
            { $0.id == trimmed },
            { $0.name == trimmed },
            { $0.id.lowercased() == trimmed.lowercased() },
            { $0.name.lowercased() == trimmed.lowercased() },
        ]
        for matches in passes {
            let found = all.filter(matches)
            if found.count == 1 { return found[0] }
            if found.count > 1 { throw LookupError.ambiguousEndpoint(trimmed, candidates: found.map(\.id)) }
        }
        throw LookupError.endpointNotFound(
            trimmed, suggestions: Suggestions.closest(to: trimmed, in: all.map(\.id) + all.map(\.name)))
    }

    /// The endpoint at exactly that address (`Endpoint.id`), for keeping a selection on reload.
    package func endpoint(withID id: String) -> Endpoint? {
        endpoints.first { $0.id == id }
    }
}

/// Why an endpoint or environment a user named could not be found.
package enum LookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No endpoint has that address or name; close matches are listed.
    case endpointNotFound(String, suggestions: [String])
    /// Several endpoints have that name; their full addresses are listed.
    case ambiguousEndpoint(String, candidates: [String])
    /// No environment has that name.
    case environmentNotFound(String, available: [String], suggestions: [String])

    package var description: String {
        switch self {
        case .endpointNotFound(let query, let suggestions):
            if suggestions.isEmpty { return "No endpoint is named \"\(query)\"." }
            return
                "No endpoint is named \"\(query)\"; did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?"
        case .ambiguousEndpoint(let query, let candidates):
            return
                "Several endpoints are named \"\(query)\"; use the full address: \(candidates.map { "\"\($0)\"" }.joined(separator: ", "))."
        case .environmentNotFound(let name, let available, let suggestions):
            if available.isEmpty { return "No environment is named \"\(name)\": the collection has none." }
            let hint = suggestions.isEmpty ? "" : " Did you mean \"\(suggestions[0])\"?"
            return
                "No environment is named \"\(name)\"; the collection has \(available.map { "\"\($0)\"" }.joined(separator: ", ")).\(hint)"
        }
    }
}

extension APICollection {
    /// The key captured variables of this collection are kept under: its file's path, or its
    /// name when it has no file.
    package var storeKey: String {
        sourceURL.map(Self.storeKey(forFileAt:)) ?? "collection:\(name)"
    }

    /// The key of the collection kept in the file at `url`, without reading it: what a
    /// command filters its stored exchanges by.
    package static func storeKey(forFileAt url: URL) -> String {
        url.standardizedFileURL.path
    }
}
