import ArgumentParser
import Formats
import Foundation
import Workspace

/// `explorer import curl|grpcurl|openapi|http|postman|insomnia|har|hurl|posting|thunder|bruno ...`: turns other formats into collection YAML.
///
/// Without `--into` the YAML goes to stdout; with it, the endpoints are merged into that
/// collection file (created when absent), asking before replacing an endpoint of the same
/// address unless `--force`. The file is written atomically. Endpoints are added or replaced
/// in the file's text (`CollectionSource`), keeping its comments; when environments or
/// variables change too, the file is rewritten and its comments are lost (the YAML library
/// drops them when it reads), which the command says before writing.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import endpoints from curl or grpcurl commands, an OpenAPI or Swagger document, a .http file, a Postman collection, "
            + "an Insomnia export, a HAR file, a Hurl file, a Posting collection, Thunder Client collections "
            + "or a Bruno collection.",
        subcommands: [
            Curl.self, GRPCurl.self, OpenAPI.self, HTTPFile.self, Postman.self, Insomnia.self, HAR.self, Hurl.self,
            GraphQL.self, Posting.self, Thunder.self, Bruno.self,
        ]
    )

    /// The options every import shares.
    struct Destination: ParsableArguments {
        @Option(name: .long, help: "Merge into this collection file (created if absent) instead of printing YAML.")
        var into: String?

        @Flag(name: .long, help: "Replace endpoints of the same name in --into without asking.")
        var force = false

        @Option(name: .long, help: "Put the imported endpoints in this folder.")
        var folder: String?
    }

    struct Curl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "curl",
            abstract: "Import curl command lines ('-' reads them from stdin).",
            discussion:
                "Several commands (one per line, or joined with && or ;) become several endpoints; "
                + "$VAR becomes {{env.VAR}}; heredocs and here-strings feed @-."
        )
        @Argument(help: "The curl command line(s), or - for stdin.") var command: String
        @Option(name: .long, help: "The endpoint's name (default: METHOD /path).") var name: String?
        @OptionGroup var destination: Destination

        func run() async throws {
            var text = command
            if command == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            }
            try ImportCommand.finish(destination: destination, readsStandardInput: command == "-") {
                try CurlImporter().importCommand(text, name: name)
            }
        }
    }

    struct GRPCurl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grpcurl",
            abstract: "Import grpcurl command lines as gRPC endpoints (given, in a file, or '-' for stdin).",
            discussion:
                "Several commands (one per line, or joined with && or ;) become several endpoints; the first one's "
                + "server is the environment's base_url, with -insecure, -cacert, -cert and -key as its tls:. "
                + "Credentials in -H metadata go into secret variables. list and describe are not calls: refused."
        )
        @Argument(help: "The grpcurl command line(s), a file holding them, or - for stdin.") var command: String
        @Option(name: .long, help: "The endpoint's name (default: Service/Method).") var name: String?
        @OptionGroup var destination: Destination

        func run() async throws {
            var text = command
            var isDirectory: ObjCBool = false
            if command == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else if !command.contains(where: \.isWhitespace),
                FileManager.default.fileExists(atPath: command, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                guard let data = FileManager.default.contents(atPath: command) else {
                    printError("The file \(command) cannot be read.")
                    throw ExitCode(1)
                }
                text = String(decoding: data, as: UTF8.self)
            }
            try ImportCommand.finish(destination: destination, readsStandardInput: command == "-") {
                try GRPCurlImporter().importCommand(text, name: name)
            }
        }
    }

    /// An import of one file by one importer: the file argument and `Destination`, then `finish`.
    protocol FileImport: AsyncParsableCommand {
        /// The file named on the command line.
        var file: String { get }
        /// Where the result goes.
        var destination: Destination { get }
        /// Runs the importer on the file.
        func imported(from url: URL) throws -> ImportResult
    }

    struct OpenAPI: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "openapi", abstract: "Import every operation of an OpenAPI 3.0/3.1 or Swagger 2.0 document.")
        @Argument(help: "The OpenAPI document (YAML or JSON).") var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult {
            var result = try OpenAPIImporter().importFile(at: url)
            // The description stays linked: responses can be checked against it (`validate:`).
            result.collection.openAPI = ImportCommand.relativePath(
                of: url, from: ImportCommand.destinationFolder(destination))
            return result
        }
    }

    struct HTTPFile: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "http", abstract: "Import a VS Code REST Client / JetBrains .http file.")
        @Argument(help: "The .http file.") var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult { try HTTPFileImporter().importFile(at: url) }
    }

    struct Postman: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "postman",
            abstract:
                "Import a Postman collection (v2.0 or v2.1), with its environments, "
                + "or add an environment file to a collection.",
            discussion:
                "An environment file alone (.postman_environment.json) goes --into a collection: it is added, "
                + "or replaces the variables of the environment of the same name; "
                + "its secret values are kept as secrets."
        )
        @Argument(help: "The collection file (.postman_collection.json), or an environment file with --into.") var file:
            String
        @Option(
            name: .customLong("environment"),
            help: "A Postman environment file (.postman_environment.json); repeatable.")
        var environments: [String] = []
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult {
            try PostmanImporter().importFile(at: url, environments: environments.map { URL(fileURLWithPath: $0) })
        }

        func run() async throws {
            let url = URL(fileURLWithPath: file)
            guard let into = destination.into, let data = try? Data(contentsOf: url),
                PostmanImporter.isEnvironmentFile(data)
            else {
                try ImportCommand.finish(destination: destination) { try imported(from: url) }
                return
            }
            try ImportCommand.addEnvironment(at: url, into: URL(fileURLWithPath: into))
        }
    }

    struct Insomnia: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "insomnia",
            abstract:
                "Import an Insomnia export (Insomnia 11's collection.insomnia.rest/5.0 YAML, "
                + "or format 4 in JSON or YAML).",
            discussion: "An export of several workspaces becomes one folder each, unless --workspace names one.")
        @Argument(help: "The export file.") var file: String
        @Option(name: .long, help: "Import only the workspace of this name.") var workspace: String?
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult {
            try InsomniaImporter().importFile(at: url, workspace: workspace)
        }
    }

    struct HAR: FileImport, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "Import the requests of a HAR file (browsers' developer tools: Save all as HAR).")
        @Argument(help: "The .har file.") var file: String
        @Option(name: .long, help: "Import only this entry (1 for the first).") var entry: Int?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Where the requests' cookies go: header (each endpoint's Cookie header) "
                    + "or jar (the environment's cookie jar; needs --into).")
        )
        var cookies: HARCookiePlacement = .header
        @OptionGroup var jarEnvironment: EnvironmentOption<HAR>
        static let environmentHelp =
            "With --cookies jar: the environment whose jar gets them (default: the one with the import's base URL)."

        /// `--env`, as given.
        var environment: String? { jarEnvironment.env }
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult {
            try HARImporter().importFile(at: url, entry: entry, cookies: cookies)
        }

        func validate() throws {
            if cookies == .jar && destination.into == nil {
                throw ValidationError(
                    "--cookies jar needs --into FILE: a cookie jar belongs to an environment of a collection file.")
            }
            if environment != nil && cookies != .jar {
                throw ValidationError("--env names the environment whose jar gets the cookies: pass --cookies jar too.")
            }
        }

        func run() async throws {
            let result = try ImportCommand.finish(destination: destination) {
                try imported(from: URL(fileURLWithPath: file))
            }
            guard cookies == .jar, let into = destination.into else { return }
            try ImportCommand.keep(
                result.cookies, importedWith: result.collection, in: URL(fileURLWithPath: into),
                environment: environment)
        }
    }

    struct Hurl: FileImport {
        static let configuration = CommandConfiguration(
            commandName: "hurl",
            abstract: "Import the entries of a Hurl file (hurl.dev), with their captures and asserts.",
            discussion:
                "Each entry becomes an endpoint, in order; lines a collection cannot say are kept in the endpoint's "
                + "description. A file Hurl refuses is refused at the same line and column."
        )
        @Argument(help: "The .hurl file.") var file: String
        @OptionGroup var destination: Destination
        func imported(from url: URL) throws -> ImportResult { try HurlImporter().importFile(at: url) }
    }

    /// The folder the imported collection will live in: that of `--into`, else the current one.
    static func destinationFolder(_ destination: Destination) -> URL {
        destination.into.map { URL(fileURLWithPath: $0).standardizedFileURL.deletingLastPathComponent() }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// `file`'s path relative to `folder` when it is inside it, else its absolute path.
    static func relativePath(of file: URL, from folder: URL) -> String {
        let path = file.standardizedFileURL.resolvingSymlinksInPath().path
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// Runs an importer, prints its warnings, then prints or merges the result.
    ///
    /// - Returns: the result as it was printed or merged.
    @discardableResult
    static func finish(destination: Destination, readsStandardInput: Bool = false, _ run: () throws -> ImportResult)
        throws -> ImportResult
    {
        let prepared: PreparedImport
        do {
            var imported = try run()
            if let folder = destination.folder, !folder.isEmpty {
                imported.collection = imported.collection.nested(inFolder: folder)
            }
            prepared = try imported.prepared(for: destinationFolder(destination))
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        let result = prepared.result
        for warning in result.warnings { printError("warning: \(warning)") }
        let yaml: String
        do {
            yaml = try prepared.yaml()
        } catch {
            printError("The imported collection cannot be written as YAML: \(error)")
            throw ExitCode(1)
        }
        do {
            // What is printed or merged must load: an importer's mistake is said, never written.
            try checkLoads(prepared, yaml: yaml)
        } catch {
            printError(
                "The import made a collection that does not load, so nothing was written (a mistake of the importer: "
                    + "please report it with the file): \(error)"
            )
            throw ExitCode(1)
        }
        guard let into = destination.into else {
            print(yaml, terminator: "")
            return result
        }
        let url = URL(fileURLWithPath: into)
        let canAsk = !readsStandardInput && isatty(STDIN_FILENO) == 1
        do {
            let ask: ((String) -> Bool)? = canAsk ? { askToReplace($0) } : nil
            let report = try merge(result.collection, into: url, force: destination.force, ask: ask)
            for note in report.notes { printError("note: \(note)") }
            if !report.kept.isEmpty {
                printError("Kept \(report.kept.count) existing endpoint(s): \(report.kept.joined(separator: ", ")).")
            }
            printError("\(url.path): added \(report.added.count), replaced \(report.replaced.count) endpoint(s).")
        } catch let error as MergeFailure {
            printError(error.description)
            throw ExitCode(1)
        }
        return result
    }

    /// The size of written YAML under which the read-back check parses the text itself.
    static let readBackTextLimit = 256 << 10

    /// Whether the read-back check parses the written text rather than reading the tree it was
    /// written from: for text under `readBackTextLimit` (cheap), or whenever
    /// `EXPLORER_IMPORT_REPARSE=1` is set.
    static func readBackParsesText(byteCount: Int, environment: [String: String]) -> Bool {
        byteCount < readBackTextLimit || environment["EXPLORER_IMPORT_REPARSE"] == "1"
    }

    /// Checks that an import loads as a collection before it is printed or merged.
    ///
    /// A large import is checked from the YAML tree it was written from (parsing 4 MB of YAML
    /// again was a quarter of DocuSign's import); the text's size is still checked, and the
    /// emitter is tested to write that tree as the YAML library would. The tree's nodes have no
    /// lines: when it does not load, the text is parsed after all, so the error names the line
    /// at fault as a small import's does.
    ///
    /// - Parameters:
    ///   - prepared: the import and its YAML tree.
    ///   - yaml: the text written from that tree.
    ///   - parsesText: parse `yaml` (true) or read the tree (false).
    /// - Throws: `CollectionError` for a collection that does not load.
    static func checkLoads(_ prepared: PreparedImport, yaml: String, parsesText: Bool? = nil) throws {
        let file = "the imported collection"
        let byteCount = yaml.utf8.count
        let parsesText =
            parsesText
            ?? readBackParsesText(byteCount: byteCount, environment: ProcessInfo.processInfo.environment)
        if parsesText {
            _ = try CollectionLoader.parse(yaml, file: file)
            return
        }
        do {
            _ = try CollectionLoader.parse(tree: prepared.tree, byteCount: byteCount, file: file)
        } catch {
            _ = try CollectionLoader.parse(yaml, file: file)
            throw error
        }
    }

    /// Adds a Postman environment file to an existing collection file, or replaces the
    /// variables of its environment of the same name, and writes the file atomically.
    static func addEnvironment(at url: URL, into collectionURL: URL) throws {
        do {
            guard FileManager.default.fileExists(atPath: collectionURL.path) else {
                throw MergeFailure.invalidCollection(
                    "\(collectionURL.path) does not exist: import the collection first, "
                        + "then add its environments to it."
                )
            }
            let text: String
            let collection: APICollection
            do {
                text = try String(contentsOf: collectionURL, encoding: .utf8)
                collection = try CollectionLoader.load(from: collectionURL)
            } catch {
                throw MergeFailure.invalidCollection("\(error)")
            }
            let (merged, change, warnings) = try PostmanImporter().addingEnvironment(at: url, to: collection)
            // What is written must load.
            _ = try CollectionLoader.parse(merged, file: collectionURL.path)
            for warning in warnings { printError("warning: \(warning)") }
            if CollectionMerger.hasComments(text) {
                printError(
                    "note: \(collectionURL.path) has comments; they are not kept, "
                        + "because the YAML library (Yams) drops comments when it reads a file."
                )
            }
            do {
                try CollectionMerger.writeAtomically(merged, to: collectionURL)
            } catch {
                throw MergeFailure.writeFailed(sentence(describing: error))
            }
            switch change {
            case .added(let name): printError("\(collectionURL.path): added the environment \"\(name)\".")
            case .replaced(let name):
                printError("\(collectionURL.path): replaced the variables of the environment \"\(name)\".")
            }
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    /// Why `--into` did not write.
    enum MergeFailure: Error, CustomStringConvertible {
        /// The existing file is not a valid collection.
        case invalidCollection(String)
        /// Endpoints exist already and there is no terminal to ask and no `--force`.
        case wouldReplace([String], path: String)
        /// Writing failed: the write's own sentence, which names the file and the step.
        case writeFailed(String)

        var description: String {
            switch self {
            case .invalidCollection(let reason): return reason
            case .wouldReplace(let ids, let path):
                return
                    "\(path) already has \(ids.map { "\"\($0)\"" }.joined(separator: ", ")); pass --force to replace, "
                    + "or run in a terminal to be asked."
            case .writeFailed(let sentence): return sentence
            }
        }
    }

    /// Merges an imported collection into a file, atomically.
    ///
    /// - Parameters:
    ///   - imported: what was imported.
    ///   - url: the collection file (created when absent).
    ///   - force: replaces existing endpoints without asking.
    ///   - ask: asks whether to replace one endpoint; `nil` when no one can be asked.
    /// - Returns: what the merge did.
    /// - Throws: `MergeFailure`.
    @discardableResult
    static func merge(_ imported: APICollection, into url: URL, force: Bool, ask: ((String) -> Bool)?) throws
        -> CollectionMerger.Report
    {
        let exists = FileManager.default.fileExists(atPath: url.path)
        var base = APICollection(name: imported.name)
        var originalText = ""
        if exists {
            do {
                originalText = try String(contentsOf: url, encoding: .utf8)
                base = try CollectionLoader.load(from: url)
            } catch {
                throw MergeFailure.invalidCollection("\(error)")
            }
            if !force && ask == nil {
                let clashes = imported.endpoints.map(\.id).filter { base.endpoint(withID: $0) != nil }
                if !clashes.isEmpty { throw MergeFailure.wouldReplace(clashes, path: url.path) }
            }
        }
        let (merged, report) = CollectionMerger.merge(imported, into: base) { id in force || (ask?(id) ?? false) }
        let linksDocument = merged.openAPI != base.openAPI
        if report.added.isEmpty && report.replaced.isEmpty && !linksDocument && exists { return report }
        var text: String?
        if exists {
            // Endpoints added or replaced in the file's text, so the rest stays as written.
            var source = CollectionSource(originalText)
            var placed = true
            for endpoint in merged.endpoints where placed {
                if report.added.contains(endpoint.id) { placed = source.insert(endpoint) }
                if report.replaced.contains(endpoint.id) {
                    placed = source.replace(endpointWithID: endpoint.id, with: endpoint)
                }
            }
            if placed, linksDocument, let document = merged.openAPI { placed = source.addTopLevel("openapi", document) }
            text = placed && source.holds(merged) ? source.text : nil
        }
        if text == nil && exists && CollectionMerger.hasComments(originalText) {
            printError(
                "note: \(url.path) has comments; they are not kept, because the YAML "
                    + "library (Yams) drops comments when it reads a file."
            )
        }
        do {
            try CollectionMerger.writeAtomically(try text ?? CollectionWriter.yaml(for: merged), to: url)
        } catch {
            throw MergeFailure.writeFailed(sentence(describing: error))
        }
        return report
    }

    private static func askToReplace(_ id: String) -> Bool {
        writeStandardError(
            ExchangeOutput.escapingControls("Replace the existing endpoint \"\(id)\"? [y/N] ", keepingLineBreaks: false)
        )
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

extension ImportCommand.FileImport {
    func run() async throws {
        try ImportCommand.finish(destination: destination) { try imported(from: URL(fileURLWithPath: file)) }
    }
}
