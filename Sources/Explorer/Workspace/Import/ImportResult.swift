/// What an importer produced: a collection fragment to print or merge, and what it noticed.
package struct ImportResult: Sendable {
    /// The imported collection (name, variables, environments, endpoints).
    package var collection: APICollection
    /// Things the user should know: unknown curl flags, unsupported features, placeholders.
    package var warnings: [String]

    /// Creates a result.
    init(collection: APICollection, warnings: [String] = []) {
        self.collection = collection
        self.warnings = warnings
    }
}

extension APICollection {
    /// The collection with its whole endpoint tree moved into one folder (`--folder NAME`).
    package func nested(inFolder name: String) -> APICollection {
        func prefixed(_ item: CollectionItem) -> CollectionItem {
            switch item {
            case .endpoint(var endpoint):
                endpoint.folderPath.insert(name, at: 0)
                return .endpoint(endpoint)
            case .folder(var folder):
                folder.items = folder.items.map(prefixed)
                return .folder(folder)
            }
        }
        var copy = self
        copy.items = [.folder(Folder(name: name, items: items.map(prefixed)))]
        return copy
    }
}

/// Why an import failed.
enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The curl command line could not be understood.
    case invalidCurl(String)
    /// The OpenAPI document could not be read.
    case invalidOpenAPI(path: String, reason: String)
    /// The `.http` file could not be read.
    case invalidHTTPFile(path: String, reason: String)
    /// A file named by the input (`-d @file`, the spec) could not be read.
    case unreadableFile(String)
    /// Another tool's export (a Postman collection, a HAR file …) could not be read.
    case invalidFile(path: String, format: String, reason: String)

    package var description: String {
        switch self {
        case .invalidCurl(let reason): return "The curl command cannot be imported: \(reason)"
        case let .invalidOpenAPI(path, reason): return "\(path): the OpenAPI document cannot be imported: \(reason)"
        case let .invalidHTTPFile(path, reason): return "\(path): the .http file cannot be imported: \(reason)"
        case .unreadableFile(let path): return "The file \(path) cannot be read."
        case let .invalidFile(path, format, reason): return "\(path): it cannot be imported as \(format): \(reason)"
        }
    }
}

extension ImportResult {
    /// The name an imported `{{command "…"}}` is renamed to: it does not run.
    package static let disabledCommand = "command_from_import"

    /// The import with every `{{command "…"}}` renamed to `{{command_from_import "…"}}`, which
    /// runs nothing, and a warning that says so: a file written by someone else (a shared
    /// Postman collection, a HAR file) never brings a command into a collection the user then
    /// opens by name, where it would run with the user's rights.
    ///
    /// - Throws: when the collection cannot be written and read back.
    package func disablingCommands() throws -> ImportResult {
        let text = try CollectionWriter.yaml(for: collection)
        let count = text.matches(of: TemplateCommand.call).count
        guard count > 0 else { return self }
        let renamed = text.replacing(TemplateCommand.call) { "{{\($0.1)\(Self.disabledCommand)\($0.2)" }
        var copy = self
        copy.collection = try CollectionLoader.parse(renamed, file: "the imported collection")
        copy.warnings.append("\(count) {{command \"…\"}} call\(count == 1 ? "" : "s") came with the import and \(count == 1 ? "was" : "were") renamed to "
                             + "{{\(Self.disabledCommand) \"…\"}}, which runs nothing: read each command, and rename it back to command only if you would run it yourself.")
        return copy
    }
}
