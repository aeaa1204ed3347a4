import ArgumentParser

/// `explorer [COLLECTION] [--env NAME]`: opens the TUI on a collection.
struct OpenCommand: AsyncParsableCommand, CollectionOptionsHelp {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the explorer TUI on a collection file (the default command)."
    )

    /// The subcommand's name, read by `plainCollection` without building the configuration
    /// (which spells it too, for the documentation checks; a test keeps the two the same).
    static let commandName = "open"

    @Argument(help: "The collection file (default: ./explorer.yaml, else $EXPLORER_COLLECTION).")
    var collection: String?

    @OptionGroup var environment: EnvironmentOption<OpenCommand>
    static let environmentHelp = "The environment to start in."

    @Option(name: .long, help: "The colour theme (default, light, high-contrast, monochrome, or a user theme).")
    var theme: String?

    @OptionGroup var graphQL: GraphQLValidationOption

    func run() async throws {
        try await Self.open(
            collection: collection, environment: environment.env, themeName: theme,
            validatesGraphQL: graphQL.validatesGraphQL)
    }

    /// Opens the TUI: what `run()` does, also reached without the argument parser
    /// (`ExplorerCommand.main`, for `explorer` and `explorer FILE`).
    static func open(
        collection: String?, environment: String? = nil, themeName: String? = nil, validatesGraphQL: Bool = true
    ) async throws {
        let url = try CollectionLocation.resolve(explicit: collection)
        try await ExplorerTUI.run(
            collectionURL: url, environment: environment, themeName: themeName, validatesGraphQL: validatesGraphQL)
    }

    /// The collection of a command line that opens the TUI with no option: none (`explorer`,
    /// `explorer open`) or one argument that is not an option, a subcommand or `help`
    /// (`explorer FILE`, `explorer open FILE`), which the parser would give to this command as
    /// the collection.
    ///
    /// - Parameters:
    ///   - arguments: the arguments, without the program's name.
    ///   - commandNames: the names of the root command's subcommands (and their aliases); asked
    ///     only for a line of one argument other than `open` (gathering them reads every
    ///     subcommand's configuration: 0.4 ms of a start).
    /// - Returns: `.some(nil)` for no collection, `.some(FILE)` for one, `nil` when the line
    ///   needs the parser.
    static func plainCollection(of arguments: [String], commandNames: @autoclosure () -> Set<String>) -> String?? {
        var arguments = arguments[...]
        let named = arguments.first == commandName
        if named { arguments = arguments.dropFirst() }
        switch arguments.count {
        case 0:
            return .some(nil)
        case 1:
            let argument = arguments[arguments.startIndex]
            guard !argument.isEmpty, !argument.hasPrefix("-"), argument != "help",
                named || !commandNames().contains(argument)
            else { return nil }
            return .some(argument)
        default:
            return nil
        }
    }
}
