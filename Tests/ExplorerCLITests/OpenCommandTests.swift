import ArgumentParser
import Testing

@testable import ExplorerCLI

/// `explorer`, `explorer FILE`, `explorer open` and `explorer open FILE` open the TUI without the
/// argument parser; every other command line goes through it, and the two ways agree on what
/// they open.
@Suite struct OpenCommandTests {
    private let names = ExplorerCommand.commandNames

    @Test func theShortPathsNameIsTheConfigurationsName() {
        #expect(OpenCommand.configuration.commandName == OpenCommand.commandName)
    }

    @Test func noArgumentOrOneFileSkipsTheParser() {
        #expect(OpenCommand.plainCollection(of: [], commandNames: names) == .some(nil))
        #expect(OpenCommand.plainCollection(of: ["api.yaml"], commandNames: names) == .some("api.yaml"))
        #expect(OpenCommand.plainCollection(of: ["./demo"], commandNames: names) == .some("./demo"))
    }

    @Test func theDemoAloneSkipsTheParserAndWithAnyOptionDoesNot() throws {
        #expect(DemoCommand.isPlain(["demo"]))
        for line in [
            ["demo", "--serve-only"], ["demo", "--port", "8080"], ["demo", "--help"], ["open", "demo"], [],
        ] {
            #expect(!DemoCommand.isPlain(line), "\(line)")
        }
        // What the parser makes of `explorer demo`: the same defaults the short path serves with.
        let parsed = try #require(try ExplorerCommand.parseAsRoot(["demo"]) as? DemoCommand)
        #expect(parsed.port == 0 && !parsed.serveOnly && !parsed.quiet)
        #expect(parsed.collectionOut == nil && parsed.theme == nil)
    }

    @Test func theOpenCommandWithNoOptionSkipsTheParserToo() {
        #expect(OpenCommand.plainCollection(of: ["open"], commandNames: names) == .some(nil))
        #expect(OpenCommand.plainCollection(of: ["open", "api.yaml"], commandNames: names) == .some("api.yaml"))
        // After `open`, a subcommand's name is a file name, as the parser reads it.
        #expect(OpenCommand.plainCollection(of: ["open", "demo"], commandNames: names) == .some("demo"))
        for line in [
            ["open", "--help"], ["open", "help"], ["open", "api.yaml", "--env", "prod"], ["open", ""],
            ["open", "--theme", "light"], ["open", "a.yaml", "b.yaml"],
        ] {
            #expect(OpenCommand.plainCollection(of: line, commandNames: names) == nil, "\(line)")
        }
    }

    @Test func optionsSubcommandsAndHelpGoThroughTheParser() {
        for line in [
            ["--help"], ["-h"], ["--version"], ["help"], ["demo"], ["send"], ["history"],
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

    @Test func theParserReadsOpenAndOpenFileAsTheShortcutDoes() throws {
        let named = try #require(try ExplorerCommand.parseAsRoot(["open", "demo"]) as? OpenCommand)
        #expect(named.collection == "demo")
        #expect(named.environment.env == nil && named.theme == nil && named.graphQL.validatesGraphQL)
        let bare = try #require(try ExplorerCommand.parseAsRoot(["open"]) as? OpenCommand)
        #expect(bare.collection == nil)
    }
}
