import ArgumentParser
import Formats
import Foundation
import Workspace

/// `explorer export curl|http|hurl|postman|har ...`: writes endpoints out as curl, `.http`,
/// Hurl (captures and assertions included), a Postman collection or a HAR file.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export endpoints as curl command lines, a .http file, a Hurl file, a Postman collection or a HAR file.",
        subcommands: [Curl.self, HTTPFile.self, Hurl.self, Postman.self, HAR.self]
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
                let resolved = try RequestResolver().resolve(
                    try loaded.endpoint(named: endpoint), in: loaded, environment: environment, overrides: overrides)
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
                HTTPFileExporter.text(for: loaded, environment: environment)
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
                    for: try loaded.endpoints(selectedBy: endpoints), in: loaded,
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
                PostmanExporter.json(for: loaded, environment: environment)
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
                let chosen = endpoints.isEmpty ? loaded.endpoints : try endpoints.map { try loaded.endpoint(named: $0) }
                let resolved = try chosen.map {
                    try RequestResolver().resolve($0, in: loaded, environment: environment, overrides: overrides)
                }
                return HARExporter.json(for: resolved, revealSecrets: revealSecrets)
            }
        }
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
