import ArgumentParser
import Formats
import Foundation
import Workspace

extension ImportCommand {
    /// `explorer import thunder PATH`: a Thunder Client `thunder-tests/` folder (either layout)
    /// or an exported collection file.
    struct Thunder: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "thunder",
            abstract: "Import Thunder Client collections: its thunder-tests folder or an exported collection.",
            discussion:
                "The folder may be in the older layout (thunderclient.json, thunderCollection.json, "
                + "thunderEnvironment.json) or the newer one (collections/tc_col_*.json, environments/tc_env_*.json). "
                + "Tests become assertions where they map, set-env-var tests captures; the global environment "
                + "becomes the collection's variables."
        )
        @Argument(help: "The thunder-tests folder (or the folder that holds it), or a collection .json file.")
        var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult { try ThunderImporter().importPath(at: url) }
    }
}
