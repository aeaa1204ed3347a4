import Foundation
import NetworkingCore
import Workspace

/// Imports a Bruno collection: a folder of `.bru` files (`bruno.json`, `collection.bru`,
/// `folder.bru`, `environments/*.bru`, `.env`), an OpenCollection YAML folder
/// (`opencollection.yml` and its request files, Bruno 3's and later default), a Bruno JSON
/// export (`{"version": "1", "items": …}`), or one `.bru` or OpenCollection request file.
///
/// The three forms are read into one model, the shape of Bruno's JSON export, and that is
/// mapped onto the collection (`BrunoImporter+Collection.swift`): folders stay folders in
/// `seq` order, each request an endpoint (HTTP and custom methods, GraphQL, WebSocket, gRPC)
/// with its query, headers (the collection's and folders' merged in, as Bruno sends them),
/// body, auth (`inherit` and `none` resolved as Bruno resolves them), variables, captures,
/// assertions, docs and settings. Scripts and tests cannot run here; one summary says which
/// requests had them. A request file that cannot be read is left out and named, with its
/// line; the rest is imported.
package struct BrunoImporter: Sendable {
    /// The most files one folder import reads (a folder tree of Bruno files, not a disk).
    static let maximumFiles = 20_000
    /// How deep folders are walked.
    static let maximumDepth = 32

    /// Creates an importer.
    package init() {}

    /// Imports a collection folder, a file inside one (`bruno.json`, `opencollection.yml`),
    /// a JSON export, or one request file.
    ///
    /// - Throws: `ImportError` naming the file (and line) that cannot be read.
    package func importFile(at url: URL) throws -> ImportResult {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError.unreadableFile(url.path)
        }
        if isDirectory.boolValue { return try importFolder(url) }
        let name = url.lastPathComponent
        if ["bruno.json", "opencollection.yml", "opencollection.yaml", "collection.bru"].contains(name) {
            let data = try Self.read(url)
            // A bruno.json that is a whole export (its items inside) is read as one.
            if name != "bruno.json" || LooseJSON.isExport(data) == false {
                return try importFolder(url.deletingLastPathComponent())
            }
        }
        return try importData(try Self.read(url), path: url.path)
    }

    /// Imports one file's bytes: a JSON export, a `.bru` request or an OpenCollection request.
    ///
    /// - Throws: `ImportError.invalidFile` naming the file and line.
    func importData(_ data: Data, path: String) throws -> ImportResult {
        do {
            try DocumentLimits.current.checkSize(data.count, file: path)
        } catch {
            throw ImportError.invalidFile(path: path, format: Self.format, reason: "\(error.problem). \(error.advice)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var report = BrunoReport()
        let tree: LooseObject
        if text.drop(while: \.isWhitespace).first == "{" {
            let root = try LooseJSON.object(from: data, path: path, format: "a Bruno JSON export")
            guard root["items"] is [Any] else {
                throw ImportError.invalidFile(
                    path: path, format: "a Bruno JSON export",
                    reason: "it has no \"items\" list; export the collection from Bruno (Share → Bruno collection).")
            }
            tree = root
        } else if path.hasSuffix(".yml") || path.hasSuffix(".yaml") {
            let document = try Self.yaml(text, path: path)
            if document["opencollection"] != nil || document["items"] is [Any] {
                return BrunoCollection.collection(
                    of: OpenCollectionItems.tree(ofBundle: document, fallbackName: fileName), report: &report)
            }
            guard let item = OpenCollectionItems.item(of: document, fallbackName: fileName) else {
                throw ImportError.invalidFile(
                    path: path, format: "an OpenCollection request",
                    reason: "its info.type is not http, graphql, grpc or websocket; import the collection's folder.")
            }
            tree = ["name": item["name"] ?? fileName, "items": [item]]
        } else {
            let file: BruFile
            do {
                file = try BruFile(parsing: text)
            } catch {
                throw ImportError.invalidFile(path: "\(path):\(error.line)", format: Self.format, reason: error.reason)
            }
            guard let item = BruItems.item(of: file, fallbackName: fileName) else {
                throw ImportError.invalidFile(
                    path: path, format: "a Bruno request",
                    reason: "its meta type is not http, graphql, grpc or ws; import the collection's folder.")
            }
            tree = ["name": item["name"] ?? fileName, "items": [item]]
        }
        return BrunoCollection.collection(of: tree, report: &report)
    }

    /// The format named in errors.
    static let format = "a Bruno collection"

    // MARK: - Folders

    /// A collection folder: `.bru` files, or OpenCollection YAML when it has `opencollection.yml`.
    private func importFolder(_ folder: URL) throws -> ImportResult {
        var report = BrunoReport()
        var walker = FolderWalker(root: folder)
        let isYAML = ["opencollection.yml", "opencollection.yaml"].contains {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        var tree: LooseObject = ["name": folder.lastPathComponent]
        if isYAML {
            let file = ["opencollection.yml", "opencollection.yaml"].map { folder.appendingPathComponent($0) }
                .first { FileManager.default.fileExists(atPath: $0.path) }!
            let document = try Self.yaml(String(decoding: try Self.read(file), as: UTF8.self), path: file.path)
            tree["root"] = OpenCollectionItems.root(of: document)
            tree["name"] = document.object("info")?.text("name") ?? folder.lastPathComponent
            tree["bundledEnvironments"] = OpenCollectionItems.environments(of: document)
        } else {
            let config = folder.appendingPathComponent("bruno.json")
            if FileManager.default.fileExists(atPath: config.path) {
                let object = try LooseJSON.object(
                    from: try Self.read(config), path: config.path, format: "a bruno.json")
                tree["name"] = object.text("name") ?? folder.lastPathComponent
            } else if try !walker.hasFiles(withExtension: "bru", in: folder) {
                throw ImportError.invalidFile(
                    path: folder.path, format: Self.format,
                    reason: "it has no bruno.json, no opencollection.yml and no .bru file; "
                        + "give the folder Bruno opens as the collection.")
            }
            let collectionFile = folder.appendingPathComponent("collection.bru")
            if FileManager.default.fileExists(atPath: collectionFile.path) {
                tree["root"] = BruItems.root(of: try Self.bru(collectionFile))
            }
        }
        tree["items"] = try walker.items(in: folder, yaml: isYAML, depth: 0, report: &report)
        tree["environments"] =
            (tree["bundledEnvironments"] as? [LooseObject] ?? [])
            + (try walker.environments(
                in: folder.appendingPathComponent("environments"), yaml: isYAML, report: &report))
        let dotEnv = folder.appendingPathComponent(".env")
        if let data = try? DocumentLimits.current.readFile(at: dotEnv) {
            report.dotEnvNames = DotEnvNames.names(in: String(decoding: data, as: UTF8.self))
        }
        return BrunoCollection.collection(of: tree, report: &report)
    }

    /// A file's bytes within the document size limit.
    static func read(_ url: URL) throws -> Data {
        do {
            guard let data = try DocumentLimits.current.readFile(at: url) else {
                throw ImportError.unreadableFile(url.path)
            }
            return data
        } catch let error as DocumentLimitError {
            throw ImportError.invalidFile(path: url.path, format: format, reason: "\(error.problem). \(error.advice)")
        }
    }

    /// A `.bru` file, parsed.
    static func bru(_ url: URL) throws -> BruFile {
        do {
            return try BruFile(parsing: String(decoding: try read(url), as: UTF8.self))
        } catch let error as BruFile.ParseError {
            throw ImportError.invalidFile(path: "\(url.path):\(error.line)", format: format, reason: error.reason)
        }
    }

    /// A YAML file's top mapping.
    static func yaml(_ text: String, path: String) throws -> LooseObject {
        do {
            return try OpenAPIImporter.tree(from: text, path: path)
        } catch let error as ImportError {
            switch error {
            case .invalidOpenAPI(_, let reason), .invalidFile(_, _, let reason):
                throw ImportError.invalidFile(path: path, format: "OpenCollection YAML", reason: reason)
            default: throw error
            }
        }
    }
}

/// The walk of a collection folder's files, within the file count and depth limits.
private struct FolderWalker {
    let root: URL
    var filesRead = 0

    /// The folder's entries, sorted, hidden ones, links and `node_modules` left out.
    private func entries(of folder: URL) throws -> [(url: URL, isDirectory: Bool)] {
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { throw ImportError.unreadableFile(folder.path) }
        return urls.sorted { $0.lastPathComponent < $1.lastPathComponent }.compactMap { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            if values?.isSymbolicLink == true || url.lastPathComponent == "node_modules" { return nil }
            return (url, values?.isDirectory ?? false)
        }
    }

    /// Whether a file with the extension is in the folder or below it.
    mutating func hasFiles(withExtension ext: String, in folder: URL, depth: Int = 0) throws -> Bool {
        guard depth < BrunoImporter.maximumDepth else { return false }
        for entry in try entries(of: folder) {
            if entry.isDirectory {
                if try hasFiles(withExtension: ext, in: entry.url, depth: depth + 1) { return true }
            } else if entry.url.pathExtension == ext {
                return true
            }
        }
        return false
    }

    /// Counts a file against the limit.
    private mutating func count(_ url: URL) throws {
        filesRead += 1
        guard filesRead <= BrunoImporter.maximumFiles else {
            throw ImportError.invalidFile(
                path: root.path, format: BrunoImporter.format,
                reason: "it holds more than \(BrunoImporter.maximumFiles) files; import its folders one by one.")
        }
    }

    /// The folders and requests of one folder.
    mutating func items(in folder: URL, yaml: Bool, depth: Int, report: inout BrunoReport) throws -> [LooseObject] {
        var found: [LooseObject] = []
        for entry in try entries(of: folder) {
            let name = entry.url.lastPathComponent
            if entry.isDirectory {
                if depth == 0 && name == "environments" { continue }
                guard depth + 1 < BrunoImporter.maximumDepth else {
                    report.skippedFiles.append("\(entry.url.path): deeper than \(BrunoImporter.maximumDepth) folders")
                    continue
                }
                var folderItem: LooseObject = ["type": "folder", "name": name, "seq": Double.infinity]
                folderItem["items"] = try items(in: entry.url, yaml: yaml, depth: depth + 1, report: &report)
                let folderFile = entry.url.appendingPathComponent(yaml ? "folder.yml" : "folder.bru")
                if FileManager.default.fileExists(atPath: folderFile.path) {
                    try count(folderFile)
                    do {
                        let root: LooseObject
                        if yaml {
                            let text = String(decoding: try BrunoImporter.read(folderFile), as: UTF8.self)
                            root = OpenCollectionItems.root(of: try BrunoImporter.yaml(text, path: folderFile.path))
                        } else {
                            root = BruItems.root(of: try BrunoImporter.bru(folderFile))
                        }
                        folderItem["root"] = root
                        if let meta = root.object("meta") {
                            if let title = meta.text("name"), !title.isEmpty { folderItem["name"] = title }
                            if let seq = meta["seq"] as? Double { folderItem["seq"] = seq }
                        }
                    } catch let error as ImportError {
                        report.skippedFiles.append(error.description)
                    }
                }
                found.append(folderItem)
                continue
            }
            let ext = entry.url.pathExtension
            let isRequest =
                yaml
                ? (ext == "yml" || ext == "yaml")
                    && !["folder.yml", "folder.yaml", "opencollection.yml", "opencollection.yaml"].contains(name)
                : ext == "bru" && !(depth == 0 && name == "collection.bru") && name != "folder.bru"
            guard isRequest else { continue }
            try count(entry.url)
            let fallback = (name as NSString).deletingPathExtension
            do {
                let item: LooseObject?
                if yaml {
                    let text = String(decoding: try BrunoImporter.read(entry.url), as: UTF8.self)
                    item = OpenCollectionItems.item(
                        of: try BrunoImporter.yaml(text, path: entry.url.path), fallbackName: fallback)
                } else {
                    item = BruItems.item(of: try BrunoImporter.bru(entry.url), fallbackName: fallback)
                }
                if let item { found.append(item) }
            } catch let error as ImportError {
                report.skippedFiles.append(error.description)
            }
        }
        return found
    }

    /// The environments of `environments/`, in name order.
    mutating func environments(in folder: URL, yaml: Bool, report: inout BrunoReport) throws -> [LooseObject] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        var environments: [LooseObject] = []
        for entry in try entries(of: folder) where !entry.isDirectory {
            let ext = entry.url.pathExtension
            guard yaml ? (ext == "yml" || ext == "yaml") : ext == "bru" else { continue }
            try count(entry.url)
            let name = (entry.url.lastPathComponent as NSString).deletingPathExtension
            do {
                if yaml {
                    let text = String(decoding: try BrunoImporter.read(entry.url), as: UTF8.self)
                    environments.append(
                        OpenCollectionItems.environment(
                            of: try BrunoImporter.yaml(text, path: entry.url.path), name: name))
                } else {
                    environments.append(BruItems.environment(of: try BrunoImporter.bru(entry.url), name: name))
                }
            } catch let error as ImportError {
                report.skippedFiles.append(error.description)
            }
        }
        return environments
    }
}

/// The names a `.env` file defines (its values are not read into the collection).
enum DotEnvNames {
    /// `NAME=value` lines' names; comments, blanks and `export ` prefixes handled.
    static func names(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return nil }
            if trimmed.hasPrefix("export ") { trimmed = String(trimmed.dropFirst(7)) }
            let name = trimmed[..<(trimmed.firstIndex(of: "=") ?? equals)].trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
    }
}

extension LooseJSON {
    /// Whether the bytes are a Bruno JSON export (`items` at the top).
    static func isExport(_ data: Data) -> Bool {
        ((try? JSONSerialization.jsonObject(with: data)) as? LooseObject)?["items"] is [Any]
    }
}
