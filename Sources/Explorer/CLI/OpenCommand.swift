import ArgumentParser

/// `explorer [COLLECTION] [--env NAME]`: opens the TUI on a collection.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the explorer TUI on a collection file (the default command)."
    )

    @Argument(help: "The collection file (default: ./explorer.yaml, else $EXPLORER_COLLECTION).")
    var collection: String?

    @Option(name: .long, help: "The environment to start in.")
    var env: String?

    @Option(name: .long, help: "The colour theme (default, light, high-contrast, monochrome, or a user theme).")
    var theme: String?

    @Flag(name: .long, help: "Send GraphQL queries without validating them against the environment's schema first.")
    var noValidate = false

    func run() async throws {
        let url = try CollectionLocation.resolve(explicit: collection)
        try await ExplorerTUI.run(collectionURL: url, environment: env, themeName: theme, validatesGraphQL: !noValidate)
    }
}
