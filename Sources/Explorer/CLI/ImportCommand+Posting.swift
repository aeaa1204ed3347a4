import ArgumentParser
import Formats
import Foundation
import Workspace

extension ImportCommand {
    /// `explorer import posting DIR`: a Posting collection folder (`*.posting.yaml` requests,
    /// subfolders as folders, `.env` files as environments).
    struct Posting: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "posting",
            abstract: "Import a Posting collection: a folder of *.posting.yaml requests and its .env files.",
            discussion:
                "Subfolders become folders and each .env file at the top an environment named after it; "
                + "$name and ${name} become {{name}}. A request file that cannot be read is skipped and named."
        )
        @Argument(help: "The collection folder (or one .posting.yaml file).") var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult { try PostingImporter().importFolder(at: url) }
    }
}
