import Foundation
import NetworkingCore
import Workspace

/// Imports Thunder Client (the VS Code extension) collections.
///
/// Three shapes are read: the `thunder-tests/` folder of its Git sync, in the older layout
/// (`thunderCollection.json`, `thunderclient.json` with every request, `thunderEnvironment.json`)
/// or the newer one (`collections/tc_col_*.json`, `environments/tc_env_*.json`), and a
/// collection exported alone (`{"collectionName": …, "requests": …}`, or one `tc_col_*.json`,
/// which brings the `environments/` beside its folder). One collection is the import; several
/// become one folder each.
///
/// Folders stay folders, ordered as Thunder orders them (`sortNum`), with their `auth`; a
/// folder's or collection's headers are written into the requests inside it. A request's URL
/// (its query as written, path parameters put into `{name}` and `:name`), headers and
/// parameters (disabled ones kept switched off), body (json, text, xml, form, multipart with
/// files, GraphQL, binary file), auth (basic, bearer, OAuth 2, AWS Signature Version 4; NTLM is reported) and
/// `docs` become the endpoint's; tests become assertions where they map (status, body, JSON
/// query, headers, response time) and `set-env-var` tests captures. The global environment is the
/// collection's variables, every other environment an environment. `{{#guid}}` and the other
/// system variables explorer has become its functions.
///
/// Every file is read within the document size limit; a file that is not JSON is refused
/// with its path, line and column, and a request that cannot be read is skipped and named.
package struct ThunderImporter: Sendable {
    /// How many collection or environment files one folder may hold.
    static let maximumFiles = 10_000
    /// The format named in errors.
    static let format = "a Thunder Client collection"

    /// Creates an importer.
    package init() {}

    /// Imports a `thunder-tests` folder (or the folder holding one) or an exported collection file.
    ///
    /// - Throws: `ImportError` when the path is neither, or a file cannot be read.
    package func importPath(at url: URL) throws -> ImportResult {
        var isDirectory: ObjCBool = false
        let url = url.standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError.unreadableFile(url.path)
        }
        var source: Source
        if isDirectory.boolValue {
            source = try Self.folder(url)
        } else if url.lastPathComponent == "thunderclient.json" || url.lastPathComponent == "thunderCollection.json" {
            source = try Self.folder(url.deletingLastPathComponent())
        } else {
            source = try Self.exportedFile(url)
        }
        guard !source.collections.isEmpty else {
            throw ImportError.invalidFile(path: url.path, format: Self.format, reason: "it holds no collection.")
        }
        return Self.collection(of: &source)
    }

    /// Imports one file's bytes: an exported collection, a `tc_col_*.json`, or a
    /// `thunderclient.json` list of requests (as one collection).
    ///
    /// - Throws: `ImportError.invalidFile` naming the line and column of a syntax error.
    func importData(_ data: Data, path: String) throws -> ImportResult {
        let root = try Self.value(data, path: path)
        var source = Source()
        let file = URL(fileURLWithPath: path)
        if let requests = root.arrayValue {
            source.collections = [
                ThunderCollection(
                    id: "", name: "Thunder Client", folders: [], requests: requests.filter { $0.members != nil },
                    settings: nil)
            ]
        } else {
            guard case .object = root else {
                throw ImportError.invalidFile(
                    path: path, format: Self.format, reason: "line 1: the top level is not an object.")
            }
            source.collections = [try Self.collection(root, file: file)]
        }
        return Self.collection(of: &source)
    }

    // MARK: - What the files hold

    /// One collection, as every shape holds it.
    struct ThunderCollection {
        var id: String
        var name: String
        var folders: [JSONValue]
        var requests: [JSONValue]
        var settings: JSONValue?
    }

    /// An environment file's one environment.
    struct ThunderEnvironment {
        var name: String
        var isGlobal: Bool
        var variables: [KeyValue]
        var secrets: [String]
    }

    /// Everything read, before it becomes a collection.
    struct Source {
        var collections: [ThunderCollection] = []
        var environments: [ThunderEnvironment] = []
        var warnings: [String] = []
    }

    /// A `thunder-tests` folder in either layout, or the folder that holds one.
    static func folder(_ url: URL) throws -> Source {
        let manager = FileManager.default
        let nested = url.appendingPathComponent("thunder-tests")
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: nested.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return try folder(nested)
        }
        var source = Source()
        let requestsFile = url.appendingPathComponent("thunderclient.json")
        if manager.fileExists(atPath: requestsFile.path) {
            // The older layout: every request in one file, the collections and folders in another.
            let requests = try list(requestsFile)
            let collectionsFile = url.appendingPathComponent("thunderCollection.json")
            let collections = manager.fileExists(atPath: collectionsFile.path) ? try list(collectionsFile) : []
            for collection in collections {
                let id = text(collection["_id"]) ?? ""
                source.collections.append(
                    ThunderCollection(
                        id: id, name: text(collection["colName"]) ?? "Thunder Client",
                        folders: collection["folders"]?.arrayValue ?? [],
                        requests: requests.filter { text($0["colId"]) == id },
                        settings: collection["settings"]))
            }
            let known = Set(source.collections.map(\.id))
            let orphans = requests.filter { !known.contains(text($0["colId"]) ?? "") }
            if !orphans.isEmpty {
                source.collections.append(
                    ThunderCollection(id: "", name: "Thunder Client", folders: [], requests: orphans, settings: nil))
            }
            let environmentsFile = url.appendingPathComponent("thunderEnvironment.json")
            if manager.fileExists(atPath: environmentsFile.path) {
                source.environments = try list(environmentsFile).map(environment)
            }
            return source
        }
        let collectionsFolder = url.appendingPathComponent("collections")
        guard manager.fileExists(atPath: collectionsFolder.path) else {
            throw ImportError.invalidFile(
                path: url.path, format: format,
                reason:
                    "it has neither thunderclient.json (the older layout) nor a collections folder "
                    + "(tc_col_*.json): name the thunder-tests folder or an exported collection file.")
        }
        for file in try jsonFiles(in: collectionsFolder) {
            do {
                source.collections.append(try collection(try object(file), file: file))
            } catch let error as ImportError {
                source.warnings.append("\(error.description) It was skipped.")
            }
        }
        if source.collections.isEmpty, let first = source.warnings.first {
            throw ImportError.invalidFile(path: collectionsFolder.path, format: format, reason: first)
        }
        source.environments += try environments(beside: url)
        return source
    }

    /// An exported collection file (or one `tc_col_*.json`).
    static func exportedFile(_ url: URL) throws -> Source {
        let root = try object(url)
        if root["requests"] == nil, root["data"] != nil {
            throw ImportError.invalidFile(
                path: url.path, format: format,
                reason: "it is an environment, not a collection: import the collection (its folder brings it).")
        }
        var source = Source()
        source.collections = [try collection(root, file: url)]
        if url.deletingLastPathComponent().lastPathComponent == "collections" {
            source.environments = try environments(beside: url.deletingLastPathComponent().deletingLastPathComponent())
        }
        return source
    }

    /// A collection file's object.
    static func collection(_ root: JSONValue, file: URL) throws -> ThunderCollection {
        guard let requests = root["requests"]?.arrayValue else {
            throw ImportError.invalidFile(path: file.path, format: format, reason: "it has no \"requests\" list.")
        }
        return ThunderCollection(
            id: text(root["_id"]) ?? text(root["collectionId"]) ?? "",
            name: text(root["colName"]) ?? text(root["collectionName"])
                ?? file.deletingPathExtension().lastPathComponent,
            folders: root["folders"]?.arrayValue ?? [], requests: requests, settings: root["settings"])
    }

    /// The `environments/tc_env_*.json` files of a `thunder-tests` folder.
    static func environments(beside folder: URL) throws -> [ThunderEnvironment] {
        let environmentsFolder = folder.appendingPathComponent("environments")
        guard FileManager.default.fileExists(atPath: environmentsFolder.path) else { return [] }
        return try jsonFiles(in: environmentsFolder).map { environment(try object($0)) }
    }

    /// One environment object.
    static func environment(_ value: JSONValue) -> ThunderEnvironment {
        let data = (value["data"]?.arrayValue ?? []).filter { $0["isDisabled"]?.boolValue != true }
        let variables = data.compactMap { item in
            text(item["name"]).map { KeyValue($0, converted(text(item["value"]) ?? "")) }
        }
        let secrets = data.filter { $0["isSecret"]?.boolValue == true || text($0["type"]) == "secret" }
            .compactMap { text($0["name"]) }
        let name = text(value["name"]) ?? text(value["envName"]) ?? "default"
        let isGlobal = value["global"]?.boolValue == true || name == "(Global Env)"
        return ThunderEnvironment(name: name, isGlobal: isGlobal, variables: variables, secrets: secrets)
    }

    // MARK: - Reading files

    /// The `.json` files of a folder, by name.
    static func jsonFiles(in folder: URL) throws -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        guard files.count <= maximumFiles else {
            throw ImportError.invalidFile(
                path: folder.path, format: format, reason: "it holds more than \(maximumFiles) files.")
        }
        return files.map { folder.appendingPathComponent($0) }
    }

    /// A file's JSON, read within the document limits.
    ///
    /// - Throws: `ImportError.invalidFile` naming the line and column of a syntax error.
    static func value(_ url: URL) throws -> JSONValue {
        let limits = DocumentLimits.current
        let data: Data
        do {
            guard let read = try limits.readFile(at: url) else { throw ImportError.unreadableFile(url.path) }
            data = read
        } catch let error as DocumentLimitError {
            throw ImportError.invalidFile(
                path: url.path, format: format, reason: "line \(error.line): \(error.problem). \(error.advice)")
        }
        return try value(data, path: url.path)
    }

    /// Bytes as JSON, within the document limits.
    ///
    /// - Throws: `ImportError.invalidFile` naming the line and column of a syntax error.
    static func value(_ data: Data, path: String) throws -> JSONValue {
        let limits = DocumentLimits.current
        do {
            try limits.checkSize(data.count, file: path)
        } catch {
            throw ImportError.invalidFile(path: path, format: format, reason: "\(error.problem). \(error.advice)")
        }
        do {
            return try JSONValue(parsing: data, maximumDepth: limits.maxDepth)
        } catch {
            throw ImportError.invalidFile(path: path, format: format, reason: "it is not valid JSON: \(error).")
        }
    }

    /// A file whose top level is an object.
    static func object(_ url: URL) throws -> JSONValue {
        let root = try value(url)
        guard case .object = root else {
            throw ImportError.invalidFile(
                path: url.path, format: format, reason: "line 1: the top level is not an object.")
        }
        return root
    }

    /// A file whose top level is a list of objects.
    static func list(_ url: URL) throws -> [JSONValue] {
        let root = try value(url)
        guard let list = root.arrayValue else {
            throw ImportError.invalidFile(
                path: url.path, format: format, reason: "line 1: the top level is not a list.")
        }
        return list.filter { if case .object = $0 { true } else { false } }
    }

    /// A scalar as text (numbers and booleans as written).
    static func text(_ value: JSONValue?) -> String? { value?.scalarText }

    /// Thunder's system variables as explorer's functions (`{{#guid}}` → `{{uuid}}`); the rest as written.
    static func converted(_ text: String) -> String {
        guard text.contains("{{#") else { return text }
        let names = [
            "#guid": "uuid", "#uuid": "uuid", "#timestamp": "timestamp", "#unixTime": "timestamp",
            "#dateISO": "now",
        ]
        var out = text
        for (thunder, explorer) in names {
            out = out.replacingOccurrences(of: "{{\(thunder)}}", with: "{{\(explorer)}}")
        }
        return out
    }
}
