import ArgumentParser
import Foundation
import Terminal
import Workspace

/// `explorer trust [FILE]`: lets a collection reach beyond its folder (`CollectionReach`: its
/// `{{command "…"}}` calls, files outside its folder, process environment variables).
///
/// A collection named on the command line (or by `EXPLORER_COLLECTION`) is trusted when it is
/// opened; one found on its own (`./explorer.yaml`) sends nothing that reaches beyond its
/// folder until it is trusted here, and trust covers what it reaches at that moment.
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract:
            "Let a collection run its commands and read files and variables beyond its folder (or --revoke, --list).",
        discussion: """
            A command runs on your machine with your rights; a file or an environment variable may \
            hold a secret the collection sends to its servers. A collection you name (explorer FILE, \
            --collection FILE, EXPLORER_COLLECTION) is trusted when opened; ./explorer.yaml found in a \
            folder (a repository just cloned) sends nothing until you trust it here. Trust covers what \
            the collection reaches now: a new command, file or variable asks again.
            """
    )

    @Argument(help: "The collection file (default: ./explorer.yaml).")
    var collection: String?

    @Flag(name: .long, help: "Stop trusting the collection.")
    var revoke = false

    @Flag(name: .long, help: "List the trusted collections.")
    var list = false

    func run() throws {
        let trust = CollectionTrust()
        do {
            if list {
                for entry in try trust.list() {
                    print(ExchangeOutput.escapingControls("\(entry.path)\t\(Self.day(entry.since))"))
                }
                return
            }
            let file = URL(fileURLWithPath: collection ?? "explorer.yaml").standardizedFileURL
            guard FileManager.default.fileExists(atPath: file.path) else {
                printError("No collection at \(file.path): name the collection file to trust.")
                throw ExitCode(2)
            }
            if revoke {
                let was = try trust.revoke(file)
                print(was ? "\(file.path) no longer reaches beyond its folder." : "\(file.path) was not trusted.")
                return
            }
            let reach: CollectionReach
            do {
                reach = try CollectionLoader.loadReaching(from: file).reach
            } catch {
                printError(sentence(describing: error))
                throw ExitCode(2)
            }
            try trust.trust(file, reach: reach)
            print(
                "\(file.path) is trusted (explorer trust --revoke undoes it)"
                    + (reach.isEmpty ? "; it reaches nothing beyond its folder." : ": it"))
            for reference in reach.references { print(ExchangeOutput.escapingControls("  \(reference)")) }
            // Trust holds for where it sends too: a change of server asks again.
            if !reach.isEmpty, !reach.destinations.isEmpty {
                print(ExchangeOutput.escapingControls("  and sends to " + reach.destinations.joined(separator: ", ")))
            }
        } catch let failure as PrivateJSONFile<[String: CollectionTrust.Entry]>.Failure {
            printError(failure.description)
            throw ExitCode(1)
        }
    }

    private static func day(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
