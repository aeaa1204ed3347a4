import Foundation
import NetworkingCore
import Workspace
import Yams

/// What an importer produced: a collection fragment to print or merge, and what it noticed.
package struct ImportResult: Sendable {
    /// The imported collection (name, variables, environments, endpoints).
    package var collection: APICollection
    /// Things the user should know: unknown curl flags, unsupported features, placeholders.
    package var warnings: [String]
    /// Cookies for the jar of the environment the import goes into (`import har --cookies jar`).
    package var cookies: [Cookie] = []

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

/// An import ready to write (`ImportResult.prepared(for:)`).
package struct PreparedImport {
    /// The import, its commands disabled and its reach noted.
    package let result: ImportResult
    /// The collection's YAML tree.
    package let tree: Node

    /// The collection as YAML text.
    ///
    /// - Throws: an emitter error from the YAML library (not expected for collection values).
    package func yaml() throws -> String { try CollectionWriter.yaml(of: tree) }
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
        case .invalidOpenAPI(let path, let reason): return "\(path): the OpenAPI document cannot be imported: \(reason)"
        case .invalidHTTPFile(let path, let reason): return "\(path): the .http file cannot be imported: \(reason)"
        case .unreadableFile(let path): return "The file \(path) cannot be read."
        case .invalidFile(let path, let format, let reason):
            return "\(path): it cannot be imported as \(format): \(reason)"
        }
    }
}

extension ImportResult {
    /// The name an imported `{{command "…"}}` is renamed to: it does not run.
    package static let disabledCommand = "command_from_import"

    /// What `explorer import` writes: the import with its commands disabled
    /// (`disablingCommands`) and what it reaches noted (`notingReach`), and its YAML tree,
    /// made once for all three.
    ///
    /// - Parameter folder: the folder of the collection the import goes into.
    /// - Throws: when the collection cannot be written and read back.
    package func prepared(for folder: URL) throws -> PreparedImport {
        var node = CollectionWriter.node(for: collection)
        let result = try disablingCommands(in: &node).notingReach(from: folder, texts: node)
        return PreparedImport(result: result, tree: node)
    }

    /// The import with every `{{command "…"}}` renamed to `{{command_from_import "…"}}`, which
    /// runs nothing, and a warning that lists them: a file written by someone else (a shared
    /// Postman collection, a HAR file) never brings a command into a collection the user then
    /// opens by name, where it would run with the user's rights.
    ///
    /// Every text of the collection (keys too, and the values inside bodies) is read with the
    /// parser that expands templates, so whatever it would run as a command (a tab, a line
    /// break or nothing but spaces after the name) is what is renamed.
    ///
    /// - Throws: when the collection cannot be written and read back.
    package func disablingCommands() throws -> ImportResult {
        var node = CollectionWriter.node(for: collection)
        return try disablingCommands(in: &node)
    }

    /// `disablingCommands()` on the collection's YAML tree, which is renamed in place.
    private func disablingCommands(in node: inout Node) throws -> ImportResult {
        var disabled: [String] = []
        // Most imports bring no command: the tree is rebuilt only when one does.
        Template.forEachText(of: node) { text in
            if disabled.isEmpty { _ = Self.disablingCommands(in: text, disabled: &disabled) }
        }
        guard !disabled.isEmpty else { return self }
        disabled = []
        node = Template.mapTexts(of: node) { Self.disablingCommands(in: $0, disabled: &disabled) }
        var copy = self
        copy.collection = try CollectionLoader.parse(
            try CollectionWriter.yaml(of: node), file: "the imported collection")
        let count = disabled.count
        let listed = disabled.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ") + (count > 10 ? ", …" : "")
        copy.warnings.append(
            "\(count) {{command \"…\"}} call\(count == 1 ? "" : "s") came with the import and "
                + "\(count == 1 ? "was" : "were") renamed to "
                + "{{\(Self.disabledCommand) \"…\"}}, which runs nothing (\(listed)): read each command, "
                + "and rename it back to command only if you would run it yourself."
        )
        return copy
    }

    /// The import with a warning listing what it reaches beyond the folder it goes to, other
    /// than commands (renamed already): files outside that folder and process environment
    /// variables. The user reads them before opening the collection by name, which trusts it.
    ///
    /// - Parameters:
    ///   - folder: the folder of the collection the import goes into.
    ///   - texts: the collection's YAML tree (`CollectionWriter.node(for:)`).
    private func notingReach(from folder: URL, texts: Node) -> ImportResult {
        let reach = CollectionReach(collection, texts: texts, folder: folder)
            .references.filter { if case .command = $0 { false } else { true } }
        guard !reach.isEmpty else { return self }
        var copy = self
        copy.warnings.append(
            "the import reaches beyond \(folder.path): it " + reach.map(\.description).joined(separator: "; it ")
                + ". A collection you open by name may read them and send them to its servers: check each one.")
        return copy
    }

    /// The text with each placeholder that would run a command renamed, the rest as written.
    static func disablingCommands(in text: String, disabled: inout [String]) -> String {
        var out = ""
        var start = text.startIndex
        for placeholder in Template.placeholders(in: text) {
            guard let call = TemplateFunction(placeholder.name), call.name == "command",
                let word = text[placeholder.inner].firstIndex(where: { !$0.isWhitespace })
            else { continue }
            out += text[start..<word] + disabledCommand
            start = text.index(word, offsetBy: "command".count)
            disabled.append(
                call.arguments.map {
                    switch $0 {
                    case .text(let text), .variable(let text): text
                    }
                }.joined(separator: " "))
        }
        return start == text.startIndex ? text : out + text[start...]
    }
}
