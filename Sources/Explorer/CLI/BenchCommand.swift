import ArgumentParser

/// `explorer bench ...` (hidden): benchmarks of the app's own parts that print figures.
///
/// Each area adds its benchmark as a subcommand here. Run them from a release build
/// (`swift build -c release`); a debug build's figures are not representative.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark of explorer's own parts and print figures.",
        shouldDisplay: false,
        subcommands: [
            BenchHistoryCommand.self, BenchDrawCommand.self, BenchImportCommand.self, BenchReportCommand.self,
        ]
    )
}
