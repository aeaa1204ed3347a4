import Foundation
import NetworkingCore
import Workspace

/// Imports an Insomnia export: format 5 (`type: collection.insomnia.rest/5.0`, the YAML that
/// Insomnia 11 and later write) and format 4 (`_type: export`, JSON or YAML).
///
/// A workspace is the collection; an export of several workspaces becomes one folder each (or
/// the one chosen by name). Folders stay folders, with their `auth:`; requests become
/// endpoints (URL, method as written, query parameters, headers, every body kind; disabled
/// entries left out) with their own `auth:` (basic, bearer, API key, digest, OAuth 2; other
/// kinds are reported, never sent as something weaker); WebSocket requests become WebSocket
/// endpoints; gRPC and Socket.IO requests, cookie jars, specs and tests are reported. The base environment's
/// data become the collection's variables and each sub-environment an environment (a private
/// one's values secrets); a folder's own environment is written into the requests inside it,
/// where it wins over the others (a collection has no folder scope of its own).
///
/// Insomnia's `{{ _.name }}` is `{{name}}`. Template tags become what explorer has
/// (`InsomniaTags`): a `{% response %}` tag is a capture of the request it names, and every
/// request that uses it `requires:` that one; `{% uuid %}`, `{% now %}`, `{% prompt %}`,
/// `{% base64 %}`, `{% hash 'sha256' %}`, `{% file %}` and the `{% faker %}` values that have
/// one become template functions; any other tag is kept as written and reported.
package struct InsomniaImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports an export file.
    ///
    /// - Parameter workspace: the name of the one workspace to import; all when `nil`.
    /// - Throws: `ImportError`.
    package func importFile(at url: URL, workspace: String? = nil) throws -> ImportResult {
        guard let data = try DocumentLimits.current.readFile(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        return try importData(data, path: url.path, workspace: workspace)
    }

    /// Imports an export's bytes.
    ///
    /// - Throws: `ImportError.invalidFile`.
    func importData(_ data: Data, path: String = "<insomnia>", workspace chosen: String? = nil) throws -> ImportResult {
        let format = "an Insomnia export"
        let text = String(decoding: data, as: UTF8.self)
        let root: LooseObject
        if text.drop(while: \.isWhitespace).first == "{",
            (try? JSONSerialization.jsonObject(with: data)) != nil || !Self.isFlowYAMLExport(text)
        {
            root = try LooseJSON.object(from: data, path: path, format: format)
        } else {
            do {
                root = try OpenAPIImporter.tree(from: text, path: path)
            } catch let error as ImportError {
                throw ImportError.invalidFile(
                    path: path, format: format, reason: "it is neither JSON nor YAML (\(Self.reason(of: error))).")
            }
        }
        let workspaces: [ExportedWorkspace]
        if let type = root.text("type"), type.contains(".insomnia.rest/") || type.hasPrefix("collection.insomnia") {
            workspaces = [try Self.version5(root, type: type, path: path)]
        } else if root.text("_type") == "export" {
            guard let version = root.text("__export_format"), version == "4" else {
                throw ImportError.invalidFile(
                    path: path, format: format,
                    reason:
                        "it is export format \(root.text("__export_format") ?? "(none)"); "
                        + "formats 4 and 5 are read: export it again from Insomnia."
                )
            }
            workspaces = Self.version4(root)
        } else {
            throw ImportError.invalidFile(
                path: path, format: format,
                reason:
                    "it has neither \"type: collection.insomnia.rest/5.0\" (Insomnia 11 and later) "
                    + "nor \"_type: export\" with \"__export_format: 4\"."
            )
        }
        guard !workspaces.isEmpty else {
            throw ImportError.invalidFile(path: path, format: format, reason: "it holds no workspace.")
        }
        var selected = workspaces
        if let chosen {
            guard let found = workspaces.first(where: { $0.name == chosen }) else {
                throw ImportError.invalidFile(
                    path: path, format: format,
                    reason: "it has no workspace \"\(chosen)\"; it has "
                        + workspaces.map { "\"\($0.name)\"" }.joined(separator: ", ") + ".")
            }
            selected = [found]
        }
        return Self.collection(of: selected)
    }

    /// Whether text that starts with `{` and is not JSON is an export in YAML's flow style, as
    /// `inso export` writes format 4 (`{_type: export, __export_format: 4, …}`).
    private static func isFlowYAMLExport(_ text: String) -> Bool {
        let head = text.drop(while: \.isWhitespace).dropFirst().prefix(200)
        return head.drop(while: \.isWhitespace).hasPrefix("_type:") || head.contains("__export_format:")
            || head.contains("type: collection.insomnia")
    }

    /// The import error's reason alone, for a message that names the file itself.
    private static func reason(of error: ImportError) -> String {
        switch error {
        case .invalidOpenAPI(_, let reason), .invalidFile(_, _, let reason), .invalidHTTPFile(_, let reason):
            return reason.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        case .invalidCurl(let reason): return reason
        case .unreadableFile(let path): return "\(path) cannot be read"
        }
    }

    // MARK: - One model for both formats

    /// A workspace as both formats hold it: format 4's resources are rebuilt into format 5's
    /// tree (folders with `children`, requests, `meta.id`), so one walk reads both.
    struct ExportedWorkspace {
        var name: String
        var description: String?
        /// The base environment's name and data.
        var baseName: String?
        var baseData: LooseObject?
        /// The sub-environments: name, data, whether private.
        var environments: [(name: String, data: LooseObject, isPrivate: Bool)] = []
        /// Folders and requests, in order.
        var items: [LooseObject] = []
        /// What the export holds that is not imported (cookie jar, spec, tests …).
        var skipped: Set<String> = []
    }

    /// A format 5 file (one workspace).
    static func version5(_ root: LooseObject, type: String, path: String) throws -> ExportedWorkspace {
        guard type.hasPrefix("collection.insomnia.rest/") || type.hasPrefix("spec.insomnia.rest/") else {
            let kind = type.split(separator: ".").first.map(String.init) ?? type
            throw ImportError.invalidFile(
                path: path, format: "an Insomnia collection",
                reason:
                    "it is an Insomnia \(kind) file (\(type)); "
                    + "export the collection (or the design document) that holds the requests."
            )
        }
        let meta = root.object("meta") ?? [:]
        var workspace = ExportedWorkspace(
            name: root.text("name") ?? "Imported from Insomnia",
            description: meta.text("description").flatMap { $0.isEmpty ? nil : $0 })
        if let environments = root.object("environments") {
            workspace.baseName = environments.text("name")
            workspace.baseData = environments.object("data")
            workspace.environments = environments.objects("subEnvironments").map { environment in
                (
                    environment.text("name") ?? "Environment", environment.object("data") ?? [:],
                    environment.object("meta")?.flag("isPrivate") ?? false
                )
            }
        }
        workspace.items = (root["collection"] as? [Any])?.compactMap { $0 as? LooseObject } ?? []
        if let jar = root.object("cookieJar"), !jar.objects("cookies").isEmpty {
            workspace.skipped.insert("cookie jar")
        }
        if root["spec"] != nil { workspace.skipped.insert("API spec") }
        if !root.objects("testSuites").isEmpty { workspace.skipped.insert("unit tests") }
        return workspace
    }

    /// A format 4 file: its workspaces, each as format 5 holds one.
    static func version4(_ root: LooseObject) -> [ExportedWorkspace] {
        let resources = root.objects("resources")
        let children = Dictionary(grouping: resources) { $0.text("parentId") ?? "" }
        func sorted(_ list: [LooseObject]) -> [LooseObject] {
            list.sorted { ($0["metaSortKey"] as? Double ?? 0) < ($1["metaSortKey"] as? Double ?? 0) }
        }
        func tree(_ parent: String, skipped: inout Set<String>) -> [LooseObject] {
            var items: [LooseObject] = []
            for resource in sorted(children[parent] ?? []) {
                var item = resource
                item["meta"] =
                    ["id": resource.text("_id") ?? "", "description": resource.text("description") ?? ""] as LooseObject
                switch resource.text("_type") {
                case "request_group":
                    item["children"] = tree(resource.text("_id") ?? "", skipped: &skipped)
                    items.append(item)
                case "request":
                    if item["method"] == nil { item["method"] = "GET" }
                    items.append(item)
                case "websocket_request":
                    item.removeValue(forKey: "method")
                    items.append(item)
                case "grpc_request":
                    items.append(item)
                case "environment":
                    break
                case let other?:
                    skipped.insert(other)
                case nil:
                    break
                }
            }
            return items
        }
        return resources.filter { $0.text("_type") == "workspace" }.map { resource in
            let id = resource.text("_id") ?? ""
            var workspace = ExportedWorkspace(
                name: resource.text("name") ?? "Imported from Insomnia",
                description: resource.text("description").flatMap { $0.isEmpty ? nil : $0 })
            let base = (children[id] ?? []).first { $0.text("_type") == "environment" }
            workspace.baseName = base?.text("name")
            workspace.baseData = base?.object("data")
            workspace.environments = sorted(
                (children[base?.text("_id") ?? "-"] ?? []).filter { $0.text("_type") == "environment" }
            ).map {
                ($0.text("name") ?? "Environment", $0.object("data") ?? [:], $0.flag("isPrivate"))
            }
            workspace.items = tree(id, skipped: &workspace.skipped)
            return workspace
        }
    }

    // MARK: - The collection

    /// The collection of one workspace, or of several as one folder each.
    static func collection(of workspaces: [ExportedWorkspace]) -> ImportResult {
        var tags = InsomniaTags(requestNames: requestNames(in: workspaces.flatMap(\.items)))
        var environments: [(name: String, variables: [KeyValue], secrets: [String])] = []
        var variables: [KeyValue] = []
        var items: [CollectionItem] = []
        let several = workspaces.count > 1
        var usedWorkspaceNames: Set<String> = []
        for workspace in workspaces {
            let base = tags.pairs(workspace.baseData)
            if several {
                // Each workspace's base values are written into its own requests, as a folder's are.
                tags.folderValues = Dictionary(
                    base.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            } else {
                variables = base
            }
            for environment in workspace.environments {
                let values = tags.pairs(environment.data)
                if let index = environments.firstIndex(where: { $0.name == environment.name }) {
                    for value in values where environments[index].variables[named: value.name] == nil {
                        environments[index].variables.append(value)
                    }
                } else {
                    environments.append((environment.name, values, environment.isPrivate ? values.map(\.name) : []))
                }
            }
            var walker = Walker(tags: tags)
            var folderName = workspace.name
            var counter = 2
            while several && !usedWorkspaceNames.insert(folderName).inserted {
                folderName = "\(workspace.name) (\(counter))"
                counter += 1
            }
            let walked = walker.walk(workspace.items, folderPath: several ? [folderName] : [], folderAuth: false)
            tags = walker.tags
            tags.folderValues = [:]
            if several {
                items.append(.folder(Folder(name: folderName, items: walked, description: workspace.description)))
            } else {
                items = walked
            }
            for kind in workspace.skipped { tags.skipped.insert(kind) }
        }
        items = tags.chaining(items)
        let (placed, found) = ImportedOrigins.relativeToMainOrigin(items)
        let baseURL = found ?? "http://localhost"
        var list = environments.map {
            Environment(name: $0.name, baseURLTemplate: baseURL, variables: $0.variables, secrets: $0.secrets)
        }
        if list.isEmpty {
            list = [
                Environment(name: (several ? nil : workspaces.first?.baseName) ?? "default", baseURLTemplate: baseURL)
            ]
        }
        var collection = APICollection(
            name: several ? "Imported from Insomnia" : workspaces[0].name, variables: variables,
            environments: list, items: placed)
        collection.description = several ? nil : workspaces[0].description
        return ImportResult(collection: collection, warnings: tags.report())
    }

    /// Every request's id and name, for the `{% response %}` tags that name them.
    private static func requestNames(in items: [LooseObject]) -> [String: String] {
        var names: [String: String] = [:]
        for item in items {
            if let children = item["children"] as? [Any] {
                names.merge(requestNames(in: children.compactMap { $0 as? LooseObject })) { first, _ in first }
            } else if let id = item.object("meta")?.text("id") {
                names[id] = item.text("name") ?? "request"
            }
        }
        return names
    }
}
