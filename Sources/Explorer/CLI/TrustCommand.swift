import ArgumentParser
import Foundation
import Terminal
import Workspace

/// `explorer trust [FILE]`: lets the `{{command "…"}}` calls of a collection run.
///
/// A collection named on the command line (or by `EXPLORER_COLLECTION`) is trusted when it is
/// opened; one found on its own (`./explorer.yaml`) runs no command until it is trusted here.
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Let a collection's {{command \"…\"}} calls run (or --revoke, --list).",
        discussion: """
            A command runs on your machine with your rights. A collection you name (explorer FILE, \
            --collection FILE, EXPLORER_COLLECTION) is trusted when opened; ./explorer.yaml found \
            in a folder (a repository just cloned) runs no command until you trust it here.
            """
    )

    @Argument(help: "The collection file (default: ./explorer.yaml).")
    var collection: String?

    @Flag(name: .long, help: "Stop trusting the collection.")
    var revoke = false

    @Flag(name: .long, help: "List the trusted collections.")
    var list = false

    func run() throws {
        let trust = CommandTrust()
        do {
            if list {
                for entry in try trust.list() { print("\(entry.path)\t\(Self.day(entry.since))") }
                return
            }
            let file = URL(fileURLWithPath: collection ?? "explorer.yaml").standardizedFileURL
            guard FileManager.default.fileExists(atPath: file.path) else {
                printError("No collection at \(file.path): name the collection file to trust.")
                throw ExitCode(2)
            }
            if revoke {
                let was = try trust.revoke(file)
                print(was ? "Commands in \(file.path) no longer run." : "\(file.path) was not trusted.")
            } else {
                try trust.trust(file)
                print("Commands in \(file.path) may run (explorer trust --revoke undoes it).")
            }
        } catch let failure as PrivateJSONFile<[String: Date]>.Failure {
            printError(failure.description)
            throw ExitCode(1)
        }
    }

    private static func day(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

extension CollectionLocation {
    /// Trusts a collection the user named, when it has commands to run: naming a file is
    /// opening it on purpose, unlike finding `./explorer.yaml` in the current folder.
    static func trustNamed(_ url: URL) {
        // The word first, as bytes: the regular expression over the whole file costs a few
        // milliseconds of every start, and almost no collection has a command.
        guard let data = FileManager.default.contents(atPath: url.path), data.withUnsafeBytes({ ByteSearch.contains(Array("command".utf8), in: $0) }),
              String(decoding: data, as: UTF8.self).contains(TemplateCommand.call) else { return }
        do {
            try CommandTrust().trust(url)
        } catch {
            printError("The collection's commands cannot be trusted: \(error)")
        }
    }
}
