import ArgumentParser
import Formats
import Foundation

extension ImportCommand {
    /// `explorer import bruno PATH`: a Bruno collection folder (`.bru` files or OpenCollection
    /// YAML), a Bruno JSON export, or one request file.
    struct Bruno: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "bruno",
            abstract: "Import a Bruno collection: a .bru folder, an OpenCollection YAML folder or a Bruno JSON export.",
            discussion:
                "PATH is the collection's folder (with bruno.json or opencollection.yml), a Bruno JSON export, "
                + "or one .bru or OpenCollection request file. Folders, environments, headers, bodies, auth "
                + "(inherit and none resolved as Bruno does), variables, assertions and docs are imported; "
                + "scripts and tests are not run by explorer and are listed in one summary."
        )
        @Argument(help: "The collection folder, a Bruno JSON export, or a .bru / .yml request file.") var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult { try BrunoImporter().importFile(at: url) }
    }
}
