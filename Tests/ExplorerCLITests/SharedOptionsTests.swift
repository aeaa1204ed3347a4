import ArgumentParser
import Testing

@testable import ExplorerCLI

/// The options several commands share are declared once (`SharedOptions.swift`): one parser of
/// `--var NAME=VALUE`, one sentence and exit code 2 for a malformed value, one help line.
@Suite struct SharedOptionsTests {
    /// Every command line that takes `--var`, with what else it needs to parse.
    private static let takingVariables: [[String]] = [
        ["send", "Health"],
        ["run"],
        ["load", "Health"],
        ["compare", "Health", "--env", "a", "--env", "b"],
        ["graphql", "schema"],
        ["export", "curl", "Health"],
        ["export", "har"],
    ]

    /// The `--var` options of a parsed command line that takes them.
    private static func variables(of command: any ParsableCommand) -> VariableOptions? {
        switch command {
        case let send as SendCommand: send.variables
        case let run as RunCommand: run.variables
        case let load as LoadCommand: load.variables
        case let compare as CompareCommand: compare.variables
        case let schema as GraphQLCommand.Schema: schema.variables
        case let curl as ExportCommand.Curl: curl.variables
        case let har as ExportCommand.HAR: har.variables
        default: nil
        }
    }

    @Test func anAssignmentIsANameBeforeTheFirstEqualsSign() throws {
        let plain = try #require(VariableOptions.assignment("user_id=1"))
        #expect(plain.name == "user_id" && plain.value == "1")
        let empty = try #require(VariableOptions.assignment("token="))
        #expect(empty.name == "token" && empty.value == "")
        let equals = try #require(VariableOptions.assignment("query=a=b&c=d"))
        #expect(equals.name == "query" && equals.value == "a=b&c=d")
        let spaced = try #require(VariableOptions.assignment("Label=two words"))
        #expect(spaced.name == "Label" && spaced.value == "two words")
    }

    @Test func anAssignmentNeedsAnEqualsSignAndAName() {
        for malformed in ["novalue", "", "=value", "="] {
            #expect(VariableOptions.assignment(malformed) == nil, "\(malformed)")
        }
    }

    @Test func aLaterPairWinsOverAnEarlierOne() throws {
        #expect(try VariableOptions.parse([]) == [:])
        #expect(try VariableOptions.parse(["a=1", "b=2", "a=3"]) == ["a": "3", "b": "2"])
    }

    @Test func theFirstMalformedPairIsTheOneNamed() {
        #expect(throws: VariableOptions.Malformed(pair: "novalue")) {
            try VariableOptions.parse(["a=1", "novalue", "=x"])
        }
        #expect(
            VariableOptions.Malformed(pair: "novalue").description == #"--var expects NAME=VALUE, but got "novalue"."#)
    }

    @Test func everyCommandParsesVariablesTheSameWay() throws {
        for line in Self.takingVariables {
            let parsed = try ExplorerCommand.parseAsRoot(line + ["--var", "a=1", "--var", "b=x=y", "--var", "a=2"])
            let options = try #require(Self.variables(of: parsed), "\(line)")
            #expect(options.overrides == ["a": "2", "b": "x=y"], "\(line)")
        }
    }

    @Test func aMalformedVariableIsUsageErrorTwoInEveryCommand() {
        for line in Self.takingVariables {
            do {
                _ = try ExplorerCommand.parseAsRoot(line + ["--var", "novalue"])
                Issue.record("\(line) accepted --var novalue")
            } catch {
                #expect(ExplorerCommand.exitCode(for: error) == ExitCode(2), "\(line)")
            }
        }
    }

    @Test func everyCommandHelpsWithTheSameVarLine() {
        let commands: [any ParsableCommand.Type] = [
            SendCommand.self, RunCommand.self, LoadCommand.self, CompareCommand.self, GraphQLCommand.Schema.self,
            ExportCommand.Curl.self, ExportCommand.HAR.self,
        ]
        let lines = Set(
            commands.map { command in
                ExplorerCommand.helpMessage(for: command, columns: 200).split(separator: "\n")
                    .first { $0.hasPrefix("  --var <") }
                    .map { $0.split(separator: " ").joined(separator: " ") } ?? "(no --var in \(command))"
            })
        #expect(lines == ["--var <NAME=VALUE> Set a variable that wins over the collection's (repeatable)."])
    }

    @Test func aTimeoutMustBePositiveInEveryCommand() {
        for line in [
            ["send", "Health"], ["run"], ["load", "Health"], ["compare", "Health", "--env", "a", "--env", "b"],
            ["history", "resend", "1"],
        ] {
            for timeout in ["0", "-1"] {
                do {
                    _ = try ExplorerCommand.parseAsRoot(line + ["--timeout=\(timeout)"])
                    Issue.record("\(line) accepted --timeout \(timeout)")
                } catch {
                    #expect(ExplorerCommand.exitCode(for: error) == ExitCode(2), "\(line) --timeout \(timeout)")
                }
            }
            #expect((try? ExplorerCommand.parseAsRoot(line + ["--timeout", "2.5"])) != nil, "\(line)")
        }
    }

    @Test func theFlagsAreReadWhereverTheyAreShared() throws {
        let send = try SendCommand.parse(["Health", "--no-history", "--no-cookies", "--yes", "--no-validate"])
        #expect(send.history.noHistory && send.history.recorder() == nil)
        #expect(send.cookies.noCookies && send.confirm.yes && !send.graphQL.validatesGraphQL)
        #expect(!send.responses.validatesResponses)
        let run = try RunCommand.parse(["--validate", "--timeout", "3"])
        #expect(run.responses.validatesResponses && run.idleTimeout.timeout == 3)
        #expect(!run.history.noHistory && !run.cookies.noCookies && !run.confirm.yes && run.graphQL.validatesGraphQL)
        let resend = try HistoryCommand.Resend.parse(["7", "--yes", "--timeout", "4"])
        #expect(resend.confirm.yes && resend.output.timeout == 4)
    }

    @Test func theCollectionAndEnvironmentOptionsAreTheSameEverywhere() throws {
        let send = try SendCommand.parse(["Health", "--collection", "api.yaml", "--env", "prod"])
        #expect(send.collectionOptions.collection == "api.yaml" && send.collectionOptions.env == "prod")
        let compare = try CompareCommand.parse(["Health", "--collection", "api.yaml", "--env", "a", "--env", "b"])
        #expect(compare.collection.collection == "api.yaml" && compare.env == ["a", "b"])
        let list = try HistoryCommand.List.parse(["--collection", "api.yaml"])
        #expect(list.collection == "api.yaml")
        let mock = try MockCommand.parse(["api.yaml", "--env", "staging"])
        #expect(mock.env == "staging")
        let har = try ImportCommand.HAR.parse(["x.har", "--cookies", "jar", "--into", "api.yaml", "--env", "local"])
        #expect(har.environment == "local")
        let open = try #require(
            try ExplorerCommand.parseAsRoot(["api.yaml", "--env", "prod", "--no-validate"]) as? OpenCommand)
        #expect(open.collection == "api.yaml" && open.environment.env == "prod" && !open.graphQL.validatesGraphQL)
    }
}
