import Foundation
import NetworkingCore
import Workspace

/// Imports an Insomnia export (format 4, JSON or YAML, as Insomnia's "Export Data" writes it).
///
/// The workspace is the collection, request groups are folders, requests are endpoints (URL,
/// method as written, query parameters, headers and bodies; disabled entries left out). The
/// base environment's data become the collection's variables and each sub-environment an
/// environment; a folder's own environment is written into the requests inside it (it wins
/// over the others there; a collection has no folder scope of its own). Insomnia's
/// `{{ _.name }}` is `{{name}}`; template tags (`{% … %}`, response
/// references) cannot be run here and are reported. Basic, bearer and API-key authentication
/// become headers; other kinds are reported, never sent as something weaker.
package struct InsomniaImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports an export file.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL) throws -> ImportResult {
        guard let data = try? Data(contentsOf: url) else { throw ImportError.unreadableFile(url.path) }
        return try importData(data, path: url.path)
    }

    /// Imports an export's bytes.
    ///
    /// - Throws: `ImportError.invalidFile`.
    func importData(_ data: Data, path: String = "<insomnia>") throws -> ImportResult {
        let format = "an Insomnia export (format 4)"
        let text = String(decoding: data, as: UTF8.self)
        let root: LooseObject
        if text.drop(while: \.isWhitespace).first == "{" {
            root = try LooseJSON.object(from: data, path: path, format: format)
        } else {
            do {
                root = try OpenAPIImporter.tree(from: text, path: path)
            } catch {
                throw ImportError.invalidFile(path: path, format: format, reason: "it is neither JSON nor YAML.")
            }
        }
        guard root.text("_type") == "export", let version = root.text("__export_format") else {
            throw ImportError.invalidFile(path: path, format: format, reason: "it has no \"_type: export\" and \"__export_format\"; export it again from Insomnia (Export Data).")
        }
        guard version == "4" else {
            throw ImportError.invalidFile(path: path, format: format, reason: "it is export format \(version); format 4 is read.")
        }
        let resources = root.objects("resources")
        var warnings: [String] = []
        var tags = 0
        // The environment values of the folders around the request being read, the innermost's winning.
        var folderValues: [String: String] = [:]
        func converted(_ text: String) -> String {
            if text.contains("{%") { tags += 1 }
            let plain = text.replacingOccurrences(of: "{{ _.", with: "{{").replacingOccurrences(of: "{{_.", with: "{{")
            guard !folderValues.isEmpty, plain.contains("{{") else { return plain }
            return Template.rewritingVariables(in: plain) { folderValues[$0] ?? "{{\($0)}}" }
        }
        let children = Dictionary(grouping: resources) { $0.text("parentId") ?? "" }
        func sorted(_ list: [LooseObject]) -> [LooseObject] {
            list.sorted { ($0["metaSortKey"] as? Double ?? 0) < ($1["metaSortKey"] as? Double ?? 0) }
        }
        let workspace = resources.first { $0.text("_type") == "workspace" }
        let workspaceID = workspace?.text("_id") ?? ""

        // Environments: the base one's data are collection variables, its children environments.
        func pairs(_ data: LooseObject?) -> [KeyValue] {
            (data ?? [:]).sorted { $0.key < $1.key }.map { key, value in
                if let text = value as? String { return KeyValue(key, converted(text)) }
                if let number = value as? NSNumber { return KeyValue(key, number.stringValue) }
                warnings.append("The environment value \(key) is not text (an object or a list); it is kept as JSON text.")
                let json = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
                return KeyValue(key, json ?? "")
            }
        }
        let base = (children[workspaceID] ?? []).first { $0.text("_type") == "environment" }
        let variables = pairs(base?.object("data"))
        let subEnvironments = sorted((children[base?.text("_id") ?? "-"] ?? []).filter { $0.text("_type") == "environment" })

        // The tree of folders and requests.
        var usedNames: [String: Set<String>] = [:]
        func walk(_ parent: String, folderPath: [String]) -> [CollectionItem] {
            var items: [CollectionItem] = []
            for resource in sorted(children[parent] ?? []) {
                let name = resource.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
                var unique = name
                var counter = 2
                while !usedNames[parent, default: []].insert(unique).inserted { unique = "\(name) (\(counter))"; counter += 1 }
                switch resource.text("_type") {
                case "request_group":
                    // A folder's environment is written into the requests inside it, where it
                    // wins over the workspace's environments as in Insomnia.
                    let outer = folderValues
                    for pair in pairs(resource.object("environment")) { folderValues[pair.name] = pair.value }
                    let inner = walk(resource.text("_id") ?? "", folderPath: folderPath + [unique])
                    folderValues = outer
                    items.append(.folder(Folder(name: unique, items: inner,
                                                description: resource.text("description").flatMap { $0.isEmpty ? nil : $0 })))
                case "request":
                    var endpoint = self.endpoint(resource, converted: converted, warnings: &warnings)
                    endpoint.name = unique
                    endpoint.folderPath = folderPath
                    items.append(.endpoint(endpoint))
                default:
                    break
                }
            }
            return items
        }
        let (items, found) = ImportedOrigins.relativeToMainOrigin(walk(workspaceID, folderPath: []))
        let baseURL = found ?? "http://localhost"
        let skipped = Set(resources.compactMap { $0.text("_type") }).subtracting(["workspace", "request_group", "request", "environment"])
        if !skipped.isEmpty {
            warnings.append("Not imported: \(skipped.sorted().joined(separator: ", ")) (cookie jars, specs and unit tests are Insomnia's own).")
        }
        if tags > 0 {
            warnings.append("\(tags) value(s) use Insomnia template tags ({% … %}), which explorer cannot run; edit them before sending.")
        }
        var environments = subEnvironments.map { environment in
            Environment(name: environment.text("name") ?? "Environment", baseURLTemplate: baseURL, variables: pairs(environment.object("data")),
                        secrets: environment.flag("isPrivate") ? pairs(environment.object("data")).map(\.name) : [])
        }
        if environments.isEmpty { environments = [Environment(name: base?.text("name") ?? "default", baseURLTemplate: baseURL)] }
        var collection = APICollection(name: workspace?.text("name") ?? "Imported from Insomnia", variables: variables,
                                       environments: environments, items: items)
        collection.description = workspace?.text("description").flatMap { $0.isEmpty ? nil : $0 }
        return ImportResult(collection: collection, warnings: warnings)
    }

    private func endpoint(_ request: LooseObject, converted: (String) -> String, warnings: inout [String]) -> Endpoint {
        let name = request.text("name") ?? "Untitled"
        var urlText = converted(request.text("url") ?? "")
        if !urlText.contains("://") && !urlText.hasPrefix("{{") { urlText = "http://" + urlText }
        let parts = URLParts(urlText)
        var query = parts.query + request.objects("parameters").filter { !$0.flag("disabled") }.compactMap { parameter in
            parameter.text("name").map { KeyValue($0, converted(parameter.text("value") ?? "")) }
        }
        var headers = request.objects("headers").filter { !$0.flag("disabled") }.compactMap { header in
            header.text("name").flatMap { $0.isEmpty ? nil : KeyValue($0, converted(header.text("value") ?? "")) }
        }
        func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }

        var body: EndpointBody?
        let bodyObject = request.object("body") ?? [:]
        let mimeType = bodyObject.text("mimeType") ?? ""
        let params = bodyObject.objects("params").filter { !$0.flag("disabled") }
        if let text = bodyObject.text("text"), !text.isEmpty {
            body = .raw(converted(text))
            if !mimeType.isEmpty && !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", mimeType)) }
        } else if let file = bodyObject.text("fileName"), !file.isEmpty {
            body = .file(file)
        } else if !params.isEmpty && mimeType.hasPrefix("multipart/form-data") {
            body = .multipart(params.map { param in
                param.text("type") == "file"
                    ? MultipartField(name: param.text("name") ?? "", value: param.text("fileName") ?? "", isFile: true)
                    : MultipartField(name: param.text("name") ?? "", value: converted(param.text("value") ?? ""))
            })
            headers.removeAll { $0.name.lowercased() == "content-type" }
        } else if !params.isEmpty {
            body = .form(params.map { KeyValue($0.text("name") ?? "", converted($0.text("value") ?? "")) })
        }

        let auth = request.object("authentication") ?? [:]
        if let type = auth.text("type"), !auth.flag("disabled"), !hasHeader("Authorization") {
            switch type {
            case "basic":
                let user = converted(auth.text("username") ?? ""), password = converted(auth.text("password") ?? "")
                if Template.containsVariables(user + password) {
                    warnings.append("\"\(name)\" uses Basic auth with variables; explorer cannot encode them when importing: add an Authorization header.")
                } else {
                    headers.append(KeyValue("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()))
                }
            case "bearer":
                let prefix = auth.text("prefix").flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer"
                headers.append(KeyValue("Authorization", "\(prefix) \(converted(auth.text("token") ?? ""))"))
            case "apikey":
                let key = auth.text("key") ?? "X-API-Key", value = converted(auth.text("value") ?? "")
                if auth.text("addTo") == "queryParams" { query.append(KeyValue(key, value)) } else { headers.append(KeyValue(key, value)) }
            case "none":
                break
            default:
                warnings.append("\"\(name)\" uses \(type) authentication, which is not imported (nothing weaker is sent in its place); add its credentials by hand.")
            }
        }
        return Endpoint(name: name, method: HTTPMethod(exactly: request.text("method") ?? "GET"), path: parts.origin + parts.path, query: query,
                        headers: headers, body: body, description: request.text("description").flatMap { $0.isEmpty ? nil : $0 })
    }
}
