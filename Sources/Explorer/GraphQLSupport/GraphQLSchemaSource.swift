import Foundation
import GraphQL
import NetworkingCore
import Synchronization
import Workspace

/// A schema ready to validate against: its SDL, when it was fetched, whether it came from the
/// state folder, and the schema GraphQLSwift built from it.
package struct LoadedGraphQLSchema: Sendable {
    /// Which schema it is.
    package var key: GraphQLSchemaKey
    /// The schema in the schema language.
    package var sdl: String
    /// When it was fetched by introspection.
    package var fetchedAt: Date
    /// Whether it was read from the cache (false: fetched now).
    package var fromCache: Bool
    /// The schema, built from `sdl`.
    package var schema: GraphQLSchema
}

/// How checking a GraphQL request against its schema ended.
package enum GraphQLValidation: Sendable {
    /// The request is not a GraphQL one: nothing to check.
    case notGraphQL
    /// The document is valid against the schema.
    case valid(LoadedGraphQLSchema)
    /// The document has problems, each at the line and column of the file it is written in.
    case invalid([GraphQLProblem], LoadedGraphQLSchema)
    /// No schema could be had (the server refused introspection, is down …): one sentence
    /// to show as a warning; the request is sent unchecked.
    case unchecked(String)
}

/// Where GraphQL schemas come from: the state folder's cache, else the server by
/// introspection (bounded by `GraphQLIntrospection.limits`), kept in the cache afterwards.
///
/// A source remembers, for the process, what it loaded, and a failed introspection for
/// `retryAfter` seconds, so that `explorer run` over twenty GraphQL endpoints asks once and
/// warns once.
package final class GraphQLSchemaSource: Sendable {
    /// Where schemas are kept between runs; nil keeps none (tests).
    package let cache: GraphQLSchemaCache?
    private let transport: any HTTPTransport
    private let options: TransferOptions
    private let retryAfter: TimeInterval
    /// What the process loaded, and the introspections that failed and when.
    private struct Remembered {
        var loaded: [GraphQLSchemaKey: LoadedGraphQLSchema] = [:]
        var failures: [GraphQLSchemaKey: (sentence: String, at: Date)] = [:]
    }
    private let remembered = Mutex(Remembered())

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - cache: the cache in the state folder (nil: fetch every time a process needs one).
    ///   - transport: what introspection requests go through (the caller shuts it down).
    ///   - options: the bounds of an introspection exchange.
    ///   - retryAfter: how long a failed introspection is not tried again.
    package init(
        cache: GraphQLSchemaCache?, transport: any HTTPTransport,
        options: TransferOptions = GraphQLIntrospection.limits,
        retryAfter: TimeInterval = 30
    ) {
        self.cache = cache
        self.transport = transport
        self.options = options
        self.retryAfter = retryAfter
    }

    /// The schema for a key: remembered, else cached, else fetched (and cached).
    ///
    /// - Parameters:
    ///   - key: which schema.
    ///   - headers: the headers introspection sends (the request's own `Authorization`).
    ///   - refresh: fetch it again whatever is kept.
    /// - Returns: the schema.
    /// - Throws: `GraphQLSchemaCache.Failure` with one sentence naming the URL and why.
    package func schema(for key: GraphQLSchemaKey, headers: HTTPHeaders = HTTPHeaders(), refresh: Bool = false)
        async throws -> LoadedGraphQLSchema
    {
        if !refresh {
            let known: (LoadedGraphQLSchema?, (sentence: String, at: Date)?) = remembered.withLock {
                ($0.loaded[key], $0.failures[key])
            }
            if let schema = known.0 { return schema }
            if let failure = known.1, Date().timeIntervalSince(failure.at) < retryAfter {
                throw GraphQLSchemaCache.Failure(description: failure.sentence)
            }
            if let cached = try? cache?.schema(for: key),
                let schema = try? buildSchema(source: Source(body: cached.sdl, name: key.url))
            {
                let result = LoadedGraphQLSchema(
                    key: key, sdl: cached.sdl, fetchedAt: cached.fetchedAt, fromCache: true, schema: schema)
                remembered.withLock { $0.loaded[key] = result }
                return result
            }
        }
        do {
            let result = try await fetch(key, headers: headers)
            remembered.withLock {
                $0.loaded[key] = result
                $0.failures[key] = nil
            }
            return result
        } catch {
            let sentence =
                (error as? GraphQLSchemaCache.Failure)?.description
                ?? "The schema of \(key) cannot be had by introspection: \(sentenceText(error))"
            remembered.withLock { $0.failures[key] = (sentence, Date()) }
            throw GraphQLSchemaCache.Failure(description: sentence)
        }
    }

    /// Fetches a schema by introspection, builds it and keeps it in the cache (a cache that
    /// cannot be written leaves the schema usable for this process).
    private func fetch(_ key: GraphQLSchemaKey, headers: HTTPHeaders) async throws -> LoadedGraphQLSchema {
        guard let url = URL(string: key.url) else {
            throw GraphQLSchemaCache.Failure(
                description: "\(key.shownURL) is not a URL, so it has no schema to ask for.")
        }
        let sdl = try await GraphQLIntrospection.fetchSDL(
            from: url, headers: headers, transport: transport, options: options)
        let schema: GraphQLSchema
        do {
            schema = try buildSchema(source: Source(body: sdl, name: key.url))
        } catch {
            throw GraphQLSchemaCache.Failure(
                description: "The schema \(key) answered cannot be built: \(sentenceText(error))")
        }
        let now = Date()
        _ = try? cache?.store(sdl, for: key, fetchedAt: now)
        return LoadedGraphQLSchema(key: key, sdl: sdl, fetchedAt: now, fromCache: false, schema: schema)
    }

    /// Checks a resolved request's GraphQL document against the schema of its URL in its
    /// environment.
    ///
    /// - Parameter resolved: the request about to be sent.
    /// - Returns: `.notGraphQL` for a request without `graphql:`; `.unchecked` with a sentence
    ///   when no schema can be had.
    package func validate(_ resolved: ResolvedRequest) async -> GraphQLValidation {
        guard let document = resolved.graphQLDocument, let key = resolved.graphQLSchemaKey else { return .notGraphQL }
        let loaded: LoadedGraphQLSchema
        do {
            loaded = try await schema(for: key, headers: resolved.introspectionHeaders)
        } catch {
            return .unchecked("\(error)")
        }
        let problems = GraphQLDocumentCheck.problems(in: document, schema: loaded.schema)
        return problems.isEmpty ? .valid(loaded) : .invalid(problems, loaded)
    }

    /// An error's first line (GraphQLSwift adds the source excerpt below it).
    private func sentenceText(_ error: any Error) -> String {
        let text = (error as? GraphQLError)?.message ?? "\(error)"
        return text.split(separator: "\n").first.map(String.init) ?? text
    }
}

extension ResolvedRequest {
    /// The key of the schema a GraphQL request is validated against: its collection, its
    /// environment and its URL without the query (a GET carries the document there).
    package var graphQLSchemaKey: GraphQLSchemaKey? {
        guard graphQLDocument != nil, var components = URLComponents(string: url) else { return nil }
        components.query = nil
        components.fragment = nil
        guard let address = components.string else { return nil }
        return GraphQLSchemaKey(
            collection: collectionKey, environment: environment.name, url: address, shownURL: masker.mask(address))
    }

    /// The headers an introspection request for this request sends: the request's own
    /// (an `Authorization` the server wants), without those that describe its body.
    package var introspectionHeaders: HTTPHeaders {
        var headers = request.headers
        headers.remove(name: "Content-Length")
        headers.remove(name: "Content-Type")
        return headers
    }
}
