import ArgumentParser
import Formats
import Foundation
import Workspace

/// `explorer export curl|http|hurl|postman|har|grpcurl ...`: writes endpoints out as curl,
/// `.http`, Hurl (captures and assertions included), a Postman collection, a HAR file, or
/// grpcurl command lines for gRPC endpoints. The HTTP formats leave gRPC endpoints out, with
/// one warning line naming them.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export endpoints as curl command lines, a .http file, a Hurl file, a Postman collection, a HAR file, "
            + "grpcurl command lines or a Bruno collection folder.",
        subcommands: [Curl.self, HTTPFile.self, Hurl.self, Postman.self, HAR.self, GRPCurl.self, Bruno.self]
    )

    struct Curl: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "curl", abstract: "Print an endpoint as a shell-safe curl command.")
        @Argument(help: "The endpoint, as Folder/Name or Name when unique.") var endpoint: String
        @OptionGroup var collectionOptions: CollectionOptions<Curl>
        @OptionGroup var variables: VariableOptions
        @Flag(name: .long, help: "Write secrets as they are instead of masking them.") var revealSecrets = false

        func run() async throws {
            try ExportCommand.print(collectionOptions, terminator: "\n") { loaded, environment in
                let overrides = variables.overrides
                let chosen = try loaded.endpoint(named: endpoint)
                if chosen.isGRPC { throw GRPCEndpointsLeftOut(ids: [chosen.id]) }
                let resolved = try RequestResolver().resolve(
                    chosen, in: loaded, environment: environment, overrides: overrides)
                return CurlExporter.command(for: resolved, revealSecrets: revealSecrets)
            }
        }
    }

    struct HTTPFile: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "http", abstract: "Print the collection as a .http file.")
        @OptionGroup var collectionOptions: CollectionOptions<HTTPFile>

        func run() async throws {
            try ExportCommand.print(collectionOptions) { loaded, environment in
                HTTPFileExporter.text(for: ExportCommand.withoutGRPC(loaded), environment: environment)
            }
        }
    }

    struct Hurl: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "hurl",
            abstract: "Print endpoints as a Hurl file, with their captures and assertions (secrets are not written).",
            discussion:
                "Endpoints an endpoint requires come first. Run the file with hurl "
                + "--test and the --variable flags its first comment lists."
        )
        @Argument(help: "Folders or endpoints (Auth, Folder/Name); every endpoint when none.") var endpoints: [String] =
            []
        @OptionGroup var collectionOptions: CollectionOptions<Hurl>
        static let environmentHelp =
            "The environment whose base URL, headers and variables are written (default: the collection's first)."

        func run() async throws {
            try ExportCommand.print(collectionOptions) { loaded, environment in
                HurlExporter.text(
                    for: ExportCommand.withoutGRPC(try loaded.endpoints(selectedBy: endpoints)), in: loaded,
                    environment: environment ?? loaded.environments.first)
            }
        }
    }

    struct Postman: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "postman",
            abstract: "Print the collection as a Postman collection (v2.1); secret values are left empty.")
        @OptionGroup var collectionOptions: CollectionOptions<Postman>
        static let environmentHelp =
            "The environment whose base URL and variables are written (default: the collection's first)."

        func run() async throws {
            try ExportCommand.print(collectionOptions) { loaded, environment in
                PostmanExporter.json(for: ExportCommand.withoutGRPC(loaded), environment: environment)
            }
        }
    }

    struct HAR: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "Print endpoints, resolved in an environment, as a HAR file (requests only; secrets masked).")
        @Argument(help: "The endpoints, as Folder/Name or Name when unique (default: every endpoint).") var endpoints:
            [String] = []
        @OptionGroup var collectionOptions: CollectionOptions<HAR>
        @OptionGroup var variables: VariableOptions
        @Flag(name: .long, help: "Write secrets as they are instead of masking them.") var revealSecrets = false

        func run() async throws {
            try ExportCommand.print(collectionOptions) { loaded, environment in
                let overrides = variables.overrides
                let chosen = ExportCommand.withoutGRPC(
                    endpoints.isEmpty ? loaded.endpoints : try endpoints.map { try loaded.endpoint(named: $0) })
                let resolved = try chosen.map {
                    try RequestResolver().resolve($0, in: loaded, environment: environment, overrides: overrides)
                }
                return HARExporter.json(for: resolved, revealSecrets: revealSecrets)
            }
        }
    }

    struct GRPCurl: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "grpcurl",
            abstract: "Print gRPC endpoints, resolved in an environment, as grpcurl command lines (secrets masked).",
            discussion:
                "Each command is preceded by a # comment naming its endpoint when there are several; "
                + "explorer import grpcurl reads them back. HTTP endpoints are left out: export curl gives them."
        )
        @Argument(help: "Folders or endpoints (Folder/Name, Name); every gRPC endpoint when none.") var endpoints:
            [String] = []
        @OptionGroup var collectionOptions: CollectionOptions<GRPCurl>
        @OptionGroup var variables: VariableOptions
        @Flag(name: .long, help: "Write secrets as they are instead of masking them.") var revealSecrets = false

        func run() async throws {
            try ExportCommand.print(collectionOptions, terminator: "\n") { loaded, environment in
                let selected = try loaded.endpoints(selectedBy: endpoints)
                let chosen = selected.filter(\.isGRPC)
                let http = selected.filter { !$0.isGRPC }.map(\.id)
                if !http.isEmpty, !endpoints.isEmpty || chosen.isEmpty {
                    printError(
                        "warning: not gRPC endpoints, left out (explorer export curl gives them): "
                            + http.joined(separator: ", "))
                }
                guard !chosen.isEmpty else { throw ValidationError("The selection has no gRPC endpoint.") }
                let overrides = variables.overrides
                return try chosen.map { endpoint in
                    let resolved = try RequestResolver().resolve(
                        endpoint, in: loaded, environment: environment, overrides: overrides)
                    let command = try GRPCurlExporter.command(
                        for: resolved, schema: loaded.grpcSchema, collectionFile: loaded.sourceURL,
                        revealSecrets: revealSecrets)
                    return chosen.count > 1
                        ? "# \(String(endpoint.id.filter { !$0.isNewline && ($0.asciiValue ?? 0x20) >= 0x20 }))\n"
                            + command : command
                }.joined(separator: "\n")
            }
        }
    }

    /// A gRPC endpoint asked of a format that writes HTTP requests.
    struct GRPCEndpointsLeftOut: Error, CustomStringConvertible {
        let ids: [String]
        var description: String {
            "\(ids.joined(separator: ", ")) \(ids.count == 1 ? "is a gRPC endpoint" : "are gRPC endpoints"), "
                + "which this format cannot write: explorer export grpcurl gives \(ids.count == 1 ? "it" : "them")."
        }
    }

    /// The endpoints without the gRPC ones, which an HTTP format would write as a wrong
    /// request; one warning line names those left out.
    static func withoutGRPC(_ endpoints: [Endpoint]) -> [Endpoint] {
        let grpc = endpoints.filter(\.isGRPC).map(\.id)
        if !grpc.isEmpty {
            printError(
                "warning: gRPC endpoints left out (explorer export grpcurl gives them): " + grpc.joined(separator: ", ")
            )
        }
        return endpoints.filter { !$0.isGRPC }
    }

    /// The collection without its gRPC endpoints (see the list's `withoutGRPC`).
    static func withoutGRPC(_ collection: APICollection) -> APICollection {
        _ = withoutGRPC(collection.endpoints)
        func kept(_ items: [CollectionItem]) -> [CollectionItem] {
            items.compactMap { item in
                switch item {
                case .endpoint(let endpoint): return endpoint.isGRPC ? nil : item
                case .folder(var folder):
                    folder.items = kept(folder.items)
                    return .folder(folder)
                }
            }
        }
        var copy = collection
        copy.items = kept(collection.items)
        return copy
    }

    /// Loads the collection, picks the environment (`nil` when `--env` is not given), and prints
    /// what `render` makes of them. A collection that cannot be found or read fails as every
    /// command's does; a failure in `render` is printed and exits 1.
    static func print<Help>(
        _ options: CollectionOptions<Help>, terminator: String = "",
        _ render: (APICollection, Environment?) throws -> String
    ) throws {
        let loaded = try options.load().collection
        do {
            let environment = try options.env.map { try loaded.requireEnvironment(named: $0) }
            Swift.print(try render(loaded, environment), terminator: terminator)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
