import ArgumentParser
import Foundation
import GRPCSupport
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Workspace

/// `explorer grpc list [SERVICE]` and `explorer grpc describe SYMBOL`: a gRPC server's schema,
/// as grpcurl shows it, from the server's reflection or the collection's `protoset:`/`protos:`.
struct GRPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpc",
        abstract: "gRPC schemas: list a server's services and methods, describe a symbol as proto text.",
        discussion: """
            The server is the environment's base_url when it is grpc:// or grpcs://, else the server of \
            --endpoint (or of the collection's first gRPC endpoint). The schema comes from the server's \
            reflection (grpc.reflection.v1, else v1alpha), else the collection's protoset:, else its protos: \
            compiled with protoc. Where it came from goes to stderr.
            """,
        subcommands: [List.self, Describe.self]
    )

    /// What both subcommands read: the collection, environment, variables and endpoint.
    struct Target: ParsableArguments {
        @OptionGroup var collectionOptions: CollectionOptions<GRPCCommand>

        @OptionGroup var variables: VariableOptions

        @Option(
            name: .long,
            help: ArgumentHelp("A gRPC endpoint whose server is asked (default: see above).", valueName: "ENDPOINT"))
        var endpoint: String?

        /// The schema of the target's server, said where it came from on stderr.
        ///
        /// - Throws: `ExitCode(2)` for collection and schema errors, `ExitCode(1)` when the
        ///   server cannot be reached, each after one line on stderr.
        func schema() async throws -> GRPCSchema {
            let (located, loaded) = try collectionOptions.load()
            let collectionFile = URL(fileURLWithPath: located.path)
            let endpoint = try target(in: loaded)
            let (_, environment) = try ExchangeSender.Plan.lookUp(
                endpoint.id, environment: collectionOptions.env, in: loadedWith(endpoint, loaded))
            let plan = try ExchangeSender.Plan.resolving(
                endpoint, in: loadedWith(endpoint, loaded), environment: environment, overrides: variables.overrides)
            guard case .resolved(let resolved) = plan.target else { throw ExitCode(2) }
            let callPlan: GRPCCallPlan
            do {
                callPlan = try GRPCCallPlan(resolved, collectionFile: collectionFile)
            } catch {
                printError(String(describing: error))
                throw ExitCode(2)
            }
            let (dispatcher, server) = callPlan.dispatcher()
            defer { Task { await dispatcher.shutdown() } }
            do {
                let schema = try await GRPCSchemaLoader.load(
                    files: loaded.grpcSchema, folder: collectionFile.deletingLastPathComponent(),
                    dispatcher: dispatcher, server: callPlan.server.absoluteString)
                withExtendedLifetime(server) {}
                printError("schema: \(schema.origin)")
                return schema
            } catch let error as GRPCSchemaError {
                printError(resolved.masker.mask(error.description))
                throw ExitCode(2)
            } catch {
                printError(resolved.masker.mask(sentence(describing: error)))
                throw ExitCode(1)
            }
        }

        /// The endpoint whose server and metadata reflection uses: `--endpoint`, else one made
        /// for the environment's base_url when it is a gRPC one, else the first gRPC endpoint.
        private func target(in collection: APICollection) throws -> Endpoint {
            if let endpoint {
                let (found, _) = try ExchangeSender.Plan.lookUp(
                    endpoint, environment: collectionOptions.env, in: collection)
                guard found.isGRPC else {
                    printError("The endpoint \"\(found.id)\" is not a gRPC call (it has no grpc:).")
                    throw ExitCode(2)
                }
                return found
            }
            let environment =
                collectionOptions.env.flatMap { collection.environment(named: $0) } ?? collection.environments.first
            if let environment, Endpoint.isGRPCURL(environment.baseURLTemplate) {
                return Endpoint.serverReflection
            }
            guard let first = collection.endpoints.first(where: \.isGRPC) else {
                printError(
                    "No gRPC server to ask: the environment's base_url is not grpc:// or grpcs://, and the "
                        + "collection has no endpoint with grpc:.")
                throw ExitCode(2)
            }
            return first
        }

        /// The collection with the made-up reflection endpoint in it, so that it resolves.
        private func loadedWith(_ endpoint: Endpoint, _ collection: APICollection) -> APICollection {
            guard endpoint.name == Endpoint.serverReflection.name else { return collection }
            var copy = collection
            copy.items.append(.endpoint(endpoint))
            return copy
        }
    }

    /// `explorer grpc list [SERVICE]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the server's services, or a service's methods with their kinds."
        )

        @Argument(help: "A service (package.Service): list its methods.")
        var service: String?

        @OptionGroup var target: Target

        func run() async throws {
            let schema = try await target.schema()
            guard let service else {
                for service in schema.schema.services { printLine(service.fullName) }
                return
            }
            guard let found = schema.schema.service(named: service) else {
                let near = schema.schema.nearNames(service)
                let hint = near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?"
                printError("The service \(service) is not in the schema from \(schema.origin)\(hint)")
                throw ExitCode(2)
            }
            let width = found.methods.map { $0.serviceName.count + 1 + $0.name.count }.max() ?? 0
            for method in found.methods {
                let name = "\(method.serviceName)/\(method.name)"
                printLine(name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + method.kind.rawValue)
            }
        }
    }

    /// `explorer grpc describe SYMBOL`.
    struct Describe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe",
            abstract: "Describe a service, method, message or enum as proto text."
        )

        @Argument(help: "A service, method (package.Service/Method), message or enum, by its full name.")
        var symbol: String

        @OptionGroup var target: Target

        func run() async throws {
            let schema = try await target.schema()
            guard let text = schema.schema.describe(symbol) else {
                let near = schema.schema.nearNames(symbol)
                let hint = near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?"
                printError("\(symbol) is not in the schema from \(schema.origin)\(hint)")
                throw ExitCode(2)
            }
            printLine(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
    }
}

extension GRPCCommand: CollectionOptionsHelp {
    static let environmentHelp = "The environment whose server is asked (default: the collection's first)."
}
