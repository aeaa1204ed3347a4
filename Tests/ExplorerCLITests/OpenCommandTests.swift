import ArgumentParser
import Testing

@testable import ExplorerCLI

/// `explorer` and `explorer FILE` open the TUI without the argument parser; every other
/// command line goes through it, and the two ways agree on what they open.
@Suite struct OpenCommandTests {
    private let names = ExplorerCommand.commandNames

    @Test func noArgumentOrOneFileSkipsTheParser() {
        #expect(OpenCommand.plainCollection(of: [], commandNames: names) == .some(nil))
        #expect(OpenCommand.plainCollection(of: ["api.yaml"], commandNames: names) == .some("api.yaml"))
        #expect(OpenCommand.plainCollection(of: ["./demo"], commandNames: names) == .some("./demo"))
    }

    @Test func optionsSubcommandsAndHelpGoThroughTheParser() {
        for line in [
            ["--help"], ["-h"], ["--version"], ["help"], ["demo"], ["send"], ["open"], ["history"],
            ["api.yaml", "--env", "prod"], ["--env", "prod"], [""],
        ] {
            #expect(OpenCommand.plainCollection(of: line, commandNames: names) == nil, "\(line)")
        }
    }

    @Test func theParserGivesAFileToTheDefaultCommandAsItsCollection() throws {
        // What the shortcut assumes: one plain argument is the open command's collection.
        let parsed = try ExplorerCommand.parseAsRoot(["api.yaml"])
        let open = try #require(parsed as? OpenCommand)
        #expect(open.collection == "api.yaml")
        #expect(open.environment.env == nil && open.theme == nil && open.graphQL.validatesGraphQL)
    }
}
