import ArgumentParser
import Foundation

/// The `explorer` executable: a terminal API explorer.
///
/// Without a subcommand it opens the TUI on a collection file; the subcommands are the
/// headless side of the same tool (sending, importing, exporting, history) and the demo.
@main
struct ExplorerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explorer",
        abstract: "A terminal API explorer: browse collections, switch environments live, inspect responses.",
        discussion: """
            Run `explorer demo` to open the built-in demo API with no server of your own.
            """,
        version: ExplorerVersion.line,
        subcommands: [
            OpenCommand.self,
            DemoCommand.self,
            MockCommand.self,
            SendCommand.self,
            GRPCCommand.self,
            RunCommand.self,
            CompareCommand.self,
            LoadCommand.self,
            OpenAPICommand.self,
            ImportCommand.self,
            ExportCommand.self,
            HistoryCommand.self,
            TrustCommand.self,
            GraphQLCommand.self,
            BenchCommand.self,
        ],
        defaultSubcommand: OpenCommand.self
    )

    /// The names the subcommands answer to, aliases included.
    static var commandNames: Set<String> {
        Set(configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases })
    }

    /// Runs the command line; a usage error (unknown option, missing argument) exits with 2,
    /// like every other usage or collection error of explorer, instead of the parser's 64.
    static func main() async {
        MemoryAllocator.configure()
        // `explorer`, `explorer FILE`, `explorer open`, `explorer open FILE` and `explorer demo`
        // open the TUI without the parser: building its tables for every subcommand and
        // checking for a completion-script request took about 3 ms of every start (the first
        // frame came 6 ms sooner without it).
        if let collection = OpenCommand.plainCollection(
            of: Array(CommandLine.arguments.dropFirst()), commandNames: commandNames)
        {
            do {
                try await OpenCommand.open(collection: collection)
            } catch {
                exit(withError: error)
            }
            return
        }
        if DemoCommand.isPlain(Array(CommandLine.arguments.dropFirst())) {
            do {
                try await DemoCommand.runPlain()
            } catch {
                exit(withError: error)
            }
            return
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
