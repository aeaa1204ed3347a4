import Foundation
import GraphQLSupport
import NetworkingCore
import Synchronization
import Workspace

/// The GraphQL schemas of a session: one source per transport in use (`tls:` settings make
/// their own), each remembering what it loaded; what validates a query before it is sent and
/// what the schema browser (`Q`) shows.
package final class GraphQLSchemas: Sendable {
    /// Where schemas are kept between runs; `nil` keeps none (tests).
    private let cache: GraphQLSchemaCache?
    /// Whether a GraphQL query is validated against its schema before it is sent.
    package let validates: Bool
    private let transports: TransportPool
    private let sources = Mutex<[ObjectIdentifier: GraphQLSchemaSource]>([:])

    package init(cache: GraphQLSchemaCache?, validates: Bool, transports: TransportPool) {
        self.cache = cache
        self.validates = validates
        self.transports = transports
    }

    /// The schema source for an environment's transport.
    ///
    /// - Throws: what makes the environment's transport (its `tls:` or `proxy:`).
    package func source(for environment: Environment) throws -> GraphQLSchemaSource {
        let transport = try transports.transport(for: environment)
        return sources.withLock { sources in
            if let made = sources[ObjectIdentifier(transport)] { return made }
            let made = GraphQLSchemaSource(cache: cache, transport: transport)
            sources[ObjectIdentifier(transport)] = made
            return made
        }
    }

    /// Why a GraphQL request was not sent: the first problems at `file:line:column`.
    package static func invalidText(_ problems: [GraphQLProblem], schema: LoadedGraphQLSchema) -> String {
        let shown = problems.prefix(3).map(\.description).joined(separator: "; ")
        let more = problems.count > 3 ? " (and \(problems.count - 3) more)" : ""
        return "Not sent: the GraphQL query does not validate: \(shown)\(more) "
            + "(the schema of \(schema.key.shownURL): Q browses it, r there fetches it again)"
    }

    /// The outline of a resolved GraphQL request's schema, for the browser: remembered,
    /// cached, or fetched (`refresh` fetches it whatever is kept).
    package func outline(of resolved: ResolvedRequest, refresh: Bool) async -> SchemaOutlineLoad {
        let source: GraphQLSchemaSource
        do {
            source = try self.source(for: resolved.environment)
        } catch {
            return SchemaOutlineLoad(url: "", problem: sentence(describing: error))
        }
        guard let key = resolved.graphQLSchemaKey else {
            return SchemaOutlineLoad(url: resolved.url, problem: "\(resolved.endpoint.id) is not a GraphQL endpoint.")
        }
        do {
            let schema = try await source.schema(for: key, headers: resolved.introspectionHeaders, refresh: refresh)
            return SchemaOutlineLoad(
                url: key.shownURL, fetchedAt: schema.fetchedAt, fromCache: schema.fromCache,
                outline: GraphQLSchemaOutline(schema: schema.schema))
        } catch {
            return SchemaOutlineLoad(url: key.shownURL, problem: "\(error)")
        }
    }
}
