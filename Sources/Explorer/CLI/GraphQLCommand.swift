import ArgumentParser
import Foundation
import GraphQLSupport
import NetworkingCore
import Workspace

/// `explorer graphql schema`: the schema a GraphQL endpoint is validated against.
struct GraphQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "GraphQL schemas: print the one a GraphQL endpoint is validated against.",
        subcommands: [Schema.self]
    )

    /// `explorer graphql schema [ENDPOINT] [--env E] [--refresh]`.
    struct Schema: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract:
                "Print the schema (SDL) of a GraphQL endpoint in an environment, fetched by introspection and cached.",
            discussion: """
                The schema is kept in the state folder ($XDG_STATE_HOME/explorer/graphql-schemas.json) per \
                collection, environment and GraphQL URL, and reused by `send`, `run` and the TUI to validate \
                queries before sending them. --refresh asks the server again. When it was fetched goes to stderr.
                """
        )

        @Argument(help: "A GraphQL endpoint (Folder/Name or Name); default: the collection's first with graphql:.")
        var endpoint: String?

        @OptionGroup var collectionOptions: CollectionOptions<Schema>

        @OptionGroup var variables: VariableOptions

        @Flag(name: .long, help: "Fetch the schema again by introspection, replacing the cached one.")
        var refresh = false

        func run() async throws {
            let overrides = variables.overrides
            let (located, loaded) = try collectionOptions.load()
            let name: String
            if let endpoint {
                name = endpoint
            } else {
                guard let first = loaded.endpoints.first(where: { $0.graphql != nil }) else {
                    printError(
                        "\(located.path) has no endpoint with graphql:, so no schema to show; name one, "
                            + "or import one with `explorer import graphql URL`."
                    )
                    throw ExitCode(2)
                }
                name = first.id
            }
            let (found, environment) = try ExchangeSender.Plan.lookUp(
                name, environment: collectionOptions.env, in: loaded)
            guard found.graphql != nil else {
                printError("The endpoint \"\(found.id)\" has no graphql:, so no schema to show.")
                throw ExitCode(2)
            }
            var sender = ExchangeSender(timeout: nil)
            try sender.useTLS(of: environment, collectionFile: URL(fileURLWithPath: located.path))
            let plan = try ExchangeSender.Plan.resolving(
                found, in: loaded, environment: environment, overrides: overrides)
            guard case .resolved(let resolved) = plan.target, let key = resolved.graphQLSchemaKey else {
                throw ExitCode(2)
            }
            let transport = AsyncHTTPClientTransport(configuration: sender.transportConfiguration)
            let source = GraphQLSchemaSource(cache: GraphQLSchemaCache(), transport: transport)
            let loadedSchema: LoadedGraphQLSchema
            do {
                loadedSchema = try await source.schema(
                    for: key, headers: resolved.introspectionHeaders, refresh: refresh)
                try? await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                printError("\(error)")
                throw ExitCode(1)
            }
            let when = ISO8601DateFormatter().string(from: loadedSchema.fetchedAt)
            printError(
                loadedSchema.fromCache
                    ? "Schema of \(key), cached since \(when) (--refresh fetches it again)."
                    : "Schema of \(key), fetched now (\(when)) and cached.")
            ExchangeOutput.write(loadedSchema.sdl.hasSuffix("\n") ? loadedSchema.sdl : loadedSchema.sdl + "\n")
        }
    }
}
