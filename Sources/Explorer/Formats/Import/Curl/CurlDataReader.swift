/// Reads what a curl command sends from elsewhere: `@file` relative to the importer's
/// directory, and `@-` from the command's standard input (a heredoc, a here-string or `< file`).
///
/// It remembers what the import has to say afterwards: whether the standard input was read
/// at all, and the data files curl could not read either (sent empty, as curl sends them).
struct CurlDataReader {
    /// The importer whose directory `@file` is relative to.
    let importer: CurlImporter
    /// Where the command's standard input comes from, when the pasted text says.
    let standardInput: ShellWords.StandardInput?
    /// Whether an option read the standard input.
    private(set) var readStandardInput = false
    /// One warning for each piece of data that was sent empty because it could not be read.
    private(set) var readWarnings: [String] = []

    /// The text of a file, or of the standard input for `-`.
    ///
    /// - Throws: `ImportError.unreadableFile`, or `ImportError.invalidCurl` when the standard
    ///   input is not in the pasted text or the file is named by a shell variable.
    mutating func content(ofFile path: String) throws -> String {
        path == "-" ? try standardInputText() : try importer.readFile(path)
    }

    /// The text of a data option's file (`-d`, `--data-binary`, `--data-urlencode`, `--json`,
    /// `--url-query`, `-T -`), or `nil` with a warning when curl cannot read it either, as curl
    /// then sends that data empty.
    ///
    /// - Throws: `ImportError.invalidCurl` for a file named by a shell variable.
    mutating func dataContent(ofFile path: String) throws -> String? {
        do {
            return try content(ofFile: path)
        } catch ImportError.unreadableFile(let file) {
            readWarnings.append(
                "curl cannot read \(file) either: it sends that data empty, "
                    + "and so does the imported endpoint; edit the body."
            )
            return nil
        } catch ImportError.invalidCurl where path == "-" {
            readWarnings.append(
                "The data read from standard input (@-) is not in the pasted text, so it is empty, "
                    + "as curl sends it with nothing to read; "
                    + "paste it as a heredoc (<<EOF … EOF) or a here-string (<<< '…')."
            )
            return nil
        }
    }

    private mutating func standardInputText() throws -> String {
        readStandardInput = true
        switch standardInput {
        case .text(let text): return text
        case .file(let path): return try importer.readFile(path)
        case .pipe:
            throw ImportError.invalidCurl(
                "the data is read from standard input (@-), "
                    + "which comes from another command here; paste the data instead."
            )
        case nil:
            throw ImportError.invalidCurl(
                "the data is read from standard input (@-); "
                    + "paste it as a heredoc (<<EOF … EOF) or a here-string (<<< '…')."
            )
        }
    }
}
