import Testing

@testable import Workspace

/// `collection` as `explorer import … --into` writes it, read back by the next run. The whole
/// model must come back (`APICollection ==`: environments, variables, the endpoint tree with
/// every endpoint's method, path, query, headers, body, auth and checks, the collection's own
/// settings); when it does not, the parts that differ are named.
func writtenAndReadBack(
    _ collection: APICollection, file: String = "explorer.yaml", sourceLocation: SourceLocation = #_sourceLocation
) throws -> APICollection {
    let reloaded = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: file)
    let original = RoundTrip.withTheLoadersCopies(collection)
    // Compared apart: an `==` inside `#expect` prints both collections whole.
    let same = reloaded == original
    #expect(same, "\(file): \(RoundTrip.differences(original, reloaded))", sourceLocation: sourceLocation)
    return reloaded
}

/// What differs between a collection and its round trip, in words, for a failing expectation.
enum RoundTrip {
    /// The collection with what the loader copies into each environment: the collection's
    /// variables and `allow_insecure_redirects:` (what `base_url` is expanded with). An importer
    /// makes its environments before its collection has variables, so these two copies alone
    /// legitimately differ after a round trip; the collection's own are compared as they are.
    static func withTheLoadersCopies(_ collection: APICollection) -> APICollection {
        var copy = collection
        copy.environments = collection.environments.map { environment in
            let loaded = environment.moved(
                named: environment.name, collectionVariables: collection.variables, dotEnv: environment.dotEnv)
            loaded.collectionAllowsInsecureRedirects = collection.allowsInsecureRedirects
            return loaded
        }
        return copy
    }

    static func differences(_ original: APICollection, _ reloaded: APICollection) -> String {
        var found: [String] = []
        func compare<Value: Equatable>(_ name: String, _ old: Value, _ new: Value) {
            if old != new { found.append("\(name): \(old) became \(new)") }
        }
        compare("name", original.name, reloaded.name)
        compare("variables", original.variables, reloaded.variables)
        compare("description", original.description, reloaded.description)
        compare("auth", original.auth, reloaded.auth)
        compare("allow_insecure_redirects", original.allowsInsecureRedirects, reloaded.allowsInsecureRedirects)
        compare("openapi", original.openAPI, reloaded.openAPI)
        compare("validate", original.validatesResponses, reloaded.validatesResponses)
        compare("compare", original.compareRules, reloaded.compareRules)
        compare("environments", original.environments.map(\.name), reloaded.environments.map(\.name))
        for (old, new) in zip(original.environments, reloaded.environments) where old != new {
            found.append("environment \(old.name): \(environmentDifferences(old, new).joined(separator: "; "))")
        }
        compare("endpoints", original.endpoints.map(\.id), reloaded.endpoints.map(\.id))
        for (old, new) in zip(original.endpoints, reloaded.endpoints) where old != new {
            found.append("endpoint \(old.id): \(old) became \(new)")
        }
        if found.isEmpty && original.items != reloaded.items { found.append("the folders' description or auth") }
        return found.joined(separator: "\n")
    }

    private static func environmentDifferences(_ old: Environment, _ new: Environment) -> [String] {
        var found: [String] = []
        func compare<Value: Equatable>(_ name: String, _ old: Value, _ new: Value) {
            if old != new { found.append("\(name): \(old) became \(new)") }
        }
        compare("base_url", old.baseURLTemplate, new.baseURLTemplate)
        compare("protected", old.isProtected, new.isProtected)
        compare("variables", old.variables, new.variables)
        compare("headers", old.headers, new.headers)
        compare("secrets", old.secrets, new.secrets)
        compare("the collection's variables", old.collectionVariables, new.collectionVariables)
        compare(".env", old.dotEnv, new.dotEnv)
        compare("description", old.summary, new.summary)
        compare("auth", old.auth, new.auth)
        compare("cookies", old.keepsCookies, new.keepsCookies)
        compare("tls", old.tls, new.tls)
        compare("proxy", old.proxy, new.proxy)
        compare("allow_insecure_redirects", old.insecureRedirects, new.insecureRedirects)
        compare(
            "the collection's allow_insecure_redirects", old.collectionAllowsInsecureRedirects,
            new.collectionAllowsInsecureRedirects)
        compare("follow_redirects", old.followRedirects, new.followRedirects)
        compare("resolve", old.resolve, new.resolve)
        compare("proxy_tunnel", old.proxyTunnel, new.proxyTunnel)
        return found
    }
}
