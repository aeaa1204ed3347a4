import ArgumentParser
import Formats
import Foundation
import Workspace

extension ExportCommand {
    /// `explorer export bruno --output DIR`: the collection as a Bruno collection folder.
    struct Bruno: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "bruno",
            abstract: "Write the collection as a Bruno collection folder (.bru files); secret values are left out.",
            discussion:
                "The folder gets bruno.json, collection.bru, a folder (with folder.bru) per folder, a .bru file per "
                + "endpoint and environments/*.bru; Bruno opens it, and explorer import bruno reads it back. "
                + "A folder that already holds files is refused unless --force."
        )
        @Option(name: .long, help: "The folder to write (created when absent).") var output: String
        @Flag(name: .long, help: "Write into a folder that already holds files (files of the same name replaced).")
        var force = false
        @OptionGroup var collectionOptions: CollectionOptions<Bruno>
        static let environmentHelp =
            "The environment whose base URL the requests use (default: the collection's first); all are written."

        func run() async throws {
            let loaded = try collectionOptions.load().collection
            let folder = URL(fileURLWithPath: output)
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard existing.isEmpty || force else {
                printError("\(folder.path) already holds files; give an empty folder, or --force to write into it.")
                throw ExitCode(1)
            }
            do {
                let environment = try collectionOptions.env.map { try loaded.requireEnvironment(named: $0) }
                let warnings = try BrunoExporter.write(
                    loaded, environment: environment, to: folder)
                for warning in warnings { printError("warning: \(warning)") }
                Swift.print("Wrote the Bruno collection \"\(loaded.name)\" to \(folder.path).")
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        }
    }
}
