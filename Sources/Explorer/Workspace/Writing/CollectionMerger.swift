import Foundation
import Yams

/// Merges imported endpoints into a collection, and writes collection files atomically.
///
/// Endpoints with a new address are added (folders merged by name); an endpoint whose
/// address exists is replaced only when `replace` says so (the CLI asks, or `--force`).
/// Variables that are new are added, existing ones kept; an environment with a new base URL
/// is added (under its host's name when its name is taken).
package enum CollectionMerger {
    /// What a merge did, for the user to read.
    package struct Report: Sendable, Hashable {
        /// Addresses of endpoints added.
        package var added: [String] = []
        /// Addresses of endpoints replaced.
        package var replaced: [String] = []
        /// Addresses of endpoints kept because replacing them was declined.
        package var kept: [String] = []
        /// Notes about environments and variables that were not changed.
        package var notes: [String] = []
    }

    /// Merges `imported` into `base`.
    ///
    /// - Parameters:
    ///   - imported: the collection an importer produced.
    ///   - base: the existing collection.
    ///   - replace: asked for each endpoint that exists already; `true` replaces it.
    /// - Returns: the merged collection and what happened.
    package static func merge(_ imported: APICollection, into base: APICollection, replace: (String) -> Bool) -> (
        APICollection, Report
    ) {
        var merged = base
        var report = Report()
        for variable in imported.variables {
            if let existing = merged.variables[named: variable.name] {
                if existing != variable.value {
                    report.notes.append("The variable \(variable.name) exists already and was kept as \"\(existing)\".")
                }
            } else {
                merged.variables.append(variable)
            }
        }
        if let document = imported.openAPI {
            if merged.openAPI == nil {
                merged.openAPI = document
            } else if merged.openAPI != document {
                report.notes.append(
                    "The collection checks responses against \(merged.openAPI ?? ""); "
                        + "the imported \(document) was not linked (change openapi: to use it)."
                )
            }
        }
        var imported = imported
        rebase(&imported, onto: merged, report: &report)
        for environment in imported.environments {
            // An environment whose base URL is there already adds nothing.
            guard !merged.environments.contains(where: { $0.baseURLTemplate == environment.baseURLTemplate }) else {
                continue
            }
            var name = environment.name
            if merged.environment(named: name) != nil {
                // Same name, another server: keep both, the new one named after its host.
                let host = URL(string: environment.baseURLTemplate)?.host.map { host in
                    URL(string: environment.baseURLTemplate)?.port.map { "\(host):\($0)" } ?? host
                }
                name = host ?? environment.name
                var counter = 2
                let stem = name
                while merged.environment(named: name) != nil {
                    name = "\(stem) \(counter)"
                    counter += 1
                }
                report.notes.append(
                    "The environment \"\(environment.name)\" exists already; "
                        + "the imported \(environment.baseURLTemplate) was added as \"\(name)\"."
                )
            }
            merged.environments.append(
                environment.moved(
                    named: name, collectionVariables: merged.variables, dotEnv: base.environments.first?.dotEnv ?? [:]))
        }
        // The addresses there already, kept as a set: each endpoint is looked up once, so an
        // import of n endpoints costs n steps, not n times the collection.
        var present = Set(merged.endpoints.map(\.id))
        for endpoint in imported.endpoints {
            if present.contains(endpoint.id) {
                if replace(endpoint.id) {
                    merged.items = replacing(endpoint, in: merged.items, folderPath: [])
                    report.replaced.append(endpoint.id)
                } else {
                    report.kept.append(endpoint.id)
                }
            } else {
                insert(endpoint, into: &merged.items, remainingPath: endpoint.folderPath[...])
                present.insert(endpoint.id)
                report.added.append(endpoint.id)
            }
        }
        return (merged, report)
    }

    /// When a one-server import (curl, `.http`) points under an existing environment's base
    /// URL (`http://h/v1` + `/v1/posts` under `http://h/v1`), its paths are made relative to
    /// that environment and its own environment is dropped.
    private static func rebase(_ imported: inout APICollection, onto base: APICollection, report: inout Report) {
        guard imported.environments.count == 1, let source = imported.environments.first,
            !Template.containsVariables(source.baseURLTemplate)
        else { return }
        let origin =
            source.baseURLTemplate.hasSuffix("/") ? String(source.baseURLTemplate.dropLast()) : source.baseURLTemplate
        for target in base.environments where !Template.containsVariables(target.baseURLTemplate) {
            let prefix =
                target.baseURLTemplate.hasSuffix("/")
                ? String(target.baseURLTemplate.dropLast()) : target.baseURLTemplate
            guard prefix.hasPrefix(origin) else { continue }
            let basePath = String(prefix.dropFirst(origin.count))
            let allUnder = imported.endpoints.allSatisfy {
                $0.path == basePath || $0.path.hasPrefix(basePath + "/") || $0.path.hasPrefix(basePath + "?")
            }
            guard allUnder else { continue }
            imported.items = imported.items.map { rebased($0, removing: basePath) }
            imported.environments = []
            if !basePath.isEmpty {
                report.notes.append(
                    "The imported paths were made relative to the environment "
                        + "\"\(target.name)\" (\(target.baseURLTemplate))."
                )
            }
            return
        }
    }

    private static func rebased(_ item: CollectionItem, removing basePath: String) -> CollectionItem {
        switch item {
        case .endpoint(var endpoint):
            endpoint.path = String(endpoint.path.dropFirst(basePath.count))
            if endpoint.path.isEmpty { endpoint.path = "/" }
            return .endpoint(endpoint)
        case .folder(var folder):
            folder.items = folder.items.map { rebased($0, removing: basePath) }
            return .folder(folder)
        }
    }

    private static func replacing(_ endpoint: Endpoint, in items: [CollectionItem], folderPath: [String])
        -> [CollectionItem]
    {
        items.map { item in
            switch item {
            case .endpoint(let existing) where existing.id == endpoint.id:
                var replacement = endpoint
                replacement.folderPath = existing.folderPath
                return .endpoint(replacement)
            case .folder(var folder):
                folder.items = replacing(endpoint, in: folder.items, folderPath: folderPath + [folder.name])
                return .folder(folder)
            default:
                return item
            }
        }
    }

    /// Adds an endpoint at the end of its folder (made when missing), in place: the items are
    /// not copied for each endpoint added.
    private static func insert(
        _ endpoint: Endpoint, into items: inout [CollectionItem], remainingPath: ArraySlice<String>
    ) {
        guard let head = remainingPath.first else {
            items.append(.endpoint(endpoint))
            return
        }
        let index =
            items.firstIndex { if case .folder(let f) = $0 { f.name == head } else { false } }
            ?? {
                items.append(.folder(Folder(name: head, items: [])))
                return items.count - 1
            }()
        guard case .folder(var folder) = items[index] else { return }
        items[index] = .endpoint(endpoint)  // lets `folder` hold the only reference to its items
        insert(endpoint, into: &folder.items, remainingPath: remainingPath.dropFirst())
        items[index] = .folder(folder)
    }

    /// Whether a YAML text has comments that rewriting it would lose.
    package static func hasComments(_ yaml: String) -> Bool {
        // Byte by byte: a `#` first on its line (after blanks) or after a space. Splitting the
        // text into lines of characters took 0.2–0.3 ms of every start (the demo collection).
        var lineIsBlank = true
        var previous: UInt8 = 0
        for byte in yaml.utf8 {
            switch byte {
            case UInt8(ascii: "#") where lineIsBlank || previous == UInt8(ascii: " "):
                return true
            case UInt8(ascii: "\n"):
                lineIsBlank = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                lineIsBlank = false
            }
            previous = byte
        }
        return false
    }

    /// Writes a collection's text over its file atomically, keeping the file's mode, owner and
    /// symbolic link, and flushing it to disk (see `AtomicFile`).
    ///
    /// - Parameters:
    ///   - text: the collection's YAML.
    ///   - url: the collection file, or a symbolic link to it.
    /// - Throws: `FileSystemError`; the file is then unchanged.
    package static func writeAtomically(_ text: String, to url: URL) throws {
        try AtomicFile.write(Data(text.utf8), to: url)
    }
}
