import Foundation
import NetworkingCore
import Workspace

/// Imports a Postman collection (format v2.0 or v2.1, as the Postman app and newman export
/// it) and, optionally, Postman environment files.
///
/// Folders stay folders; requests become endpoints with their method as written, headers,
/// query and body in every mode (`raw`, `urlencoded`, `formdata` with files and content types,
/// `file`, `graphql`); disabled entries are left out. Collection variables become the
/// collection's, each environment file an environment (its `secret` values listed as
/// secrets). Path variables (`:id`) become `{{id}}`. Auth, inherited from the collection and
/// folders as Postman inherits it, becomes headers for `bearer`, `apikey` and `basic` (with
/// literal credentials); other kinds are reported, never downgraded. A folder's variables
/// (the collection format allows them on any folder) are written into the requests inside it,
/// where they win over every other scope, as a folder's own values do in the tools that
/// honour them; a collection has no folder scope of its own. Descriptions are kept;
/// pre-request and test scripts are kept in the endpoint's description (explorer does not run
/// them), with a warning.
package struct PostmanImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports a collection file, with environment files.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL, environments: [URL] = []) throws -> ImportResult {
        guard let data = try DocumentLimits.current.readFile(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        let environmentFiles = try environments.map { file -> (Data, String) in
            guard let data = try DocumentLimits.current.readFile(at: file) else {
                throw ImportError.unreadableFile(file.path)
            }
            return (data, file.path)
        }
        return try importData(data, path: url.path, environments: environmentFiles)
    }

    /// Imports a collection's bytes, with environment files' bytes and paths.
    ///
    /// - Throws: `ImportError.invalidFile`.
    func importData(_ data: Data, path: String = "<postman>", environments: [(Data, String)] = []) throws
        -> ImportResult
    {
        let format = "a Postman collection (v2.0 or v2.1)"
        let root = try LooseJSON.object(from: data, path: path, format: format)
        if Self.isEnvironment(root) {
            throw ImportError.invalidFile(
                path: path, format: format,
                reason:
                    "it is a Postman environment; import the collection and pass this file with --environment, "
                    + "or add it to a collection with --into."
            )
        }
        if root["requests"] != nil && root["item"] == nil {
            throw ImportError.invalidFile(
                path: path, format: format,
                reason: "it is a Postman collection v1; export it again from Postman as v2.1.")
        }
        guard root["item"] is [Any] else {
            throw ImportError.invalidFile(path: path, format: format, reason: "it has no \"item\" list.")
        }
        let info = root.object("info") ?? root
        var state = State()
        let variables = Self.variables(root.objects("variable") + root.objects("variables"))
        let walked = walk(root.objects("item"), folderPath: [], auth: root.object("auth"), state: &state)
        if state.scripts > 0 {
            state.warnings.append(
                "\(state.scripts) pre-request or test script(s) are kept in the endpoints' descriptions; "
                    + "explorer does not run them."
            )
        }

        // The base URL: the leading {{variable}} or origin most requests share.
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(walked)
        let base = baseURL ?? "http://localhost"
        var environmentList: [Environment] = []
        for (data, environmentPath) in environments {
            environmentList.append(try Self.environment(data, path: environmentPath, baseURL: base, state: &state))
        }
        if environmentList.isEmpty { environmentList = [Environment(name: "default", baseURLTemplate: base)] }
        var collection = APICollection(
            name: info.text("name") ?? "Imported from Postman",
            variables: variables.map { KeyValue($0.name, Self.converted($0.value, state: &state)) }
                + state.pathVariables,
            environments: environmentList, items: items)
        collection.description = Self.description(info["description"])
        return ImportResult(collection: collection, warnings: state.warnings)
    }

    /// What the walk collects besides the items.
    struct State {
        var warnings: [String] = []
        var scripts = 0
        var pathVariables: [KeyValue] = []
        var unknownDynamic: Set<String> = []
        /// The variables of the folders around the item being read, the innermost's winning.
        var folderVariables: [String: String] = [:]
    }

    private func walk(_ items: [LooseObject], folderPath: [String], auth: LooseObject?, state: inout State)
        -> [CollectionItem]
    {
        var out: [CollectionItem] = []
        var usedNames: Set<String> = []
        func unique(_ name: String) -> String {
            var candidate = name.isEmpty ? "Untitled" : name
            var counter = 2
            while !usedNames.insert(candidate).inserted {
                candidate = "\(name) (\(counter))"
                counter += 1
            }
            return candidate
        }
        for item in items {
            let name = item.text("name") ?? "Untitled"
            if let children = item["item"] as? [Any] {
                let folderName = unique(name)
                // A folder's variables are written into the requests inside it (see the type's comment).
                let outer = state.folderVariables
                for variable in Self.variables(item.objects("variable")) {
                    state.folderVariables[variable.name] = Self.converted(variable.value, state: &state)
                }
                let inner = walk(
                    children.compactMap { $0 as? LooseObject }, folderPath: folderPath + [folderName],
                    auth: item.object("auth") ?? auth, state: &state)
                state.folderVariables = outer
                var description = Self.description(item["description"])
                if let scripts = scriptText(item, state: &state) {
                    description = [description, scripts].compactMap { $0 }.joined(separator: "\n\n")
                }
                out.append(.folder(Folder(name: folderName, items: inner, description: description)))
            } else if item["request"] != nil {
                var endpoint = self.endpoint(item, auth: auth, state: &state)
                endpoint.name = unique(name)
                endpoint.folderPath = folderPath
                out.append(.endpoint(endpoint))
            }
        }
        return out
    }

    private func endpoint(_ item: LooseObject, auth inherited: LooseObject?, state: inout State) -> Endpoint {
        let request: LooseObject = item.object("request") ?? ["url": item.text("request") ?? ""]
        let method =
            request.text("method").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "GET"

        // The URL: its raw text, or its parts.
        var urlText = ""
        var pathValues: [LooseObject] = []
        if let text = request.text("url") {
            urlText = text
        } else if let url = request.object("url") {
            pathValues = url.objects("variable")
            if let raw = url.text("raw") {
                urlText = raw
            } else {
                urlText = Self.urlFromParts(url)
            }
            // Disabled query items are in the parts, not in the raw text.
        }
        urlText = Self.converted(urlText, state: &state)
        if !urlText.contains("://") && !urlText.hasPrefix("{{") { urlText = "http://" + urlText }
        var parts = URLParts(urlText)
        // Path variables (`:id`) become templates, their values collection variables.
        parts.path = parts.path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix(":"), segment.count > 1 else { return String(segment) }
            let name = String(segment.dropFirst())
            if !state.pathVariables.contains(where: { $0.name == name }) {
                let value = pathValues.first { $0.text("key") == name }?.text("value") ?? ""
                state.pathVariables.append(KeyValue(name, value))
            }
            return "{{\(name)}}"
        }.joined(separator: "/")

        var headers: [KeyValue] = []
        if let list = request["header"] as? [Any] {
            for case let header as LooseObject in list where !header.flag("disabled") {
                guard let name = header.text("key"), !name.isEmpty else { continue }
                headers.append(KeyValue(name, Self.converted(header.text("value") ?? "", state: &state)))
            }
        } else if let text = request.text("header") {
            for line in text.split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.append(
                    KeyValue(
                        line[..<colon].trimmingCharacters(in: .whitespaces),
                        Self.converted(
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces), state: &state)))
            }
        }
        var query = parts.query
        let auth = applyAuth(
            request.object("auth") ?? inherited, headers: &headers, query: &query, endpoint: item.text("name") ?? "",
            state: &state)

        var body: EndpointBody?
        if let bodyObject = request.object("body"), !bodyObject.flag("disabled") {
            body = self.body(bodyObject, headers: &headers, endpoint: item.text("name") ?? "", state: &state)
        }
        var description = Self.description(request["description"]) ?? Self.description(item["description"])
        if let scripts = scriptText(item, state: &state) {
            description = [description, scripts].compactMap { $0 }.joined(separator: "\n\n")
        }
        var endpoint = Endpoint(
            name: item.text("name") ?? "Untitled", method: HTTPMethod(exactly: method), path: parts.origin + parts.path,
            query: query,
            headers: headers, body: body, description: description)
        endpoint.auth = auth
        return endpoint
    }

    private func body(_ object: LooseObject, headers: inout [KeyValue], endpoint: String, state: inout State)
        -> EndpointBody?
    {
        func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }
        func fields(_ key: String) -> [LooseObject] { object.objects(key).filter { !$0.flag("disabled") } }
        switch object.text("mode") ?? "raw" {
        case "raw":
            guard let raw = object.text("raw"), !raw.isEmpty else { return nil }
            // The app sends the Content-Type of the language chosen (JSON, XML …) unless a header says one.
            let language = object.object("options")?.object("raw")?.text("language")
            let types = [
                "json": "application/json", "xml": "application/xml", "html": "text/html",
                "javascript": "application/javascript", "text": "text/plain",
            ]
            if let language, let type = types[language], !hasHeader("Content-Type") {
                headers.append(KeyValue("Content-Type", type))
            }
            return .raw(Self.converted(raw, state: &state))
        case "urlencoded":
            let pairs = fields("urlencoded").compactMap { field in
                field.text("key").map { KeyValue($0, Self.converted(field.text("value") ?? "", state: &state)) }
            }
            return pairs.isEmpty ? nil : .form(pairs)
        case "formdata":
            var parts: [MultipartField] = []
            for field in fields("formdata") {
                guard let name = field.text("key") else { continue }
                if field.text("type") == "file" {
                    let sources =
                        (field["src"] as? [Any])?.compactMap { $0 as? String } ?? field.text("src").map { [$0] } ?? []
                    if sources.isEmpty {
                        state.warnings.append(
                            "The file part \"\(name)\" of \"\(endpoint)\" names no file; it was left out.")
                    }
                    for source in sources {
                        parts.append(
                            MultipartField(
                                name: name, value: source, isFile: true, contentType: field.text("contentType")))
                    }
                } else {
                    parts.append(
                        MultipartField(
                            name: name, value: Self.converted(field.text("value") ?? "", state: &state),
                            contentType: field.text("contentType")))
                }
            }
            return parts.isEmpty ? nil : .multipart(parts)
        case "file":
            guard let source = object.object("file")?.text("src") else { return nil }
            return .file(source)
        case "graphql":
            let graphql = object.object("graphql") ?? [:]
            var pairs: [(key: String, value: JSONValue)] = [("query", .string(graphql.text("query") ?? ""))]
            if let variables = graphql.text("variables"),
                !variables.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            {
                pairs.append(("variables", JSONValue.container(parsing: variables) ?? .string(variables)))
            }
            if !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", "application/json")) }
            return .raw(Self.converted(JSONValue.object(pairs).serialized(pretty: false), state: &state))
        case let mode:
            state.warnings.append("The body mode \"\(mode)\" of \"\(endpoint)\" is not known; the body was left out.")
            return nil
        }
    }

    /// Adds what an auth block sends, or a warning for kinds a collection cannot send as they are.
    ///
    /// - Returns: the endpoint's `auth:` for Basic and Digest (their credentials are combined
    ///   at send time, so variables in them keep working).
    private func applyAuth(
        _ auth: LooseObject?, headers: inout [KeyValue], query: inout [KeyValue], endpoint: String, state: inout State
    ) -> Authentication? {
        guard let auth, let type = auth.text("type"), type != "noauth" else { return nil }
        // v2.1 writes [{key, value}], v2.0 an object of values.
        func value(_ key: String) -> String? {
            if let list = auth[type] as? [Any] {
                return list.compactMap { $0 as? LooseObject }.first { $0.text("key") == key }?.text("value")
            }
            return auth.object(type)?.text(key)
        }
        if headers.contains(where: { $0.name.lowercased() == "authorization" }) { return nil }
        switch type {
        case "bearer":
            headers.append(KeyValue("Authorization", "Bearer " + Self.converted(value("token") ?? "", state: &state)))
        case "apikey":
            let name = value("key") ?? "X-API-Key"
            let secret = Self.converted(value("value") ?? "", state: &state)
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                state.warnings.append(
                    "\"\(endpoint)\" has API key auth without the key's name; "
                        + "a key without a name cannot be sent, so it was left out."
                )
                return nil
            }
            if value("in") == "query" {
                query.append(KeyValue(name, secret))
            } else {
                headers.append(KeyValue(name, secret))
            }
        case "basic", "digest":
            let user = Self.converted(value("username") ?? "", state: &state)
            let password = Self.converted(value("password") ?? "", state: &state)
            return Authentication(
                type == "digest"
                    ? .digest(username: user, password: password) : .basic(username: user, password: password))
        default:
            state.warnings.append(
                "\"\(endpoint)\" uses \(type) auth, which is not imported (it is not sent as Basic or anything else in "
                    + "its place); add its credentials by hand."
            )
        }
        return nil
    }

    /// The scripts of an item as description text, counted for the warning.
    private func scriptText(_ item: LooseObject, state: inout State) -> String? {
        let events: [LooseObject] = item.objects("event") + (item.object("event").map { [$0] } ?? [])
        var texts: [String] = []
        for event in events {
            guard let script = event.object("script") else { continue }
            let code =
                (script["exec"] as? [Any])?.compactMap { $0 as? String }.joined(separator: "\n") ?? script.text("exec")
                ?? ""
            guard !code.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            state.scripts += 1
            texts.append(
                "Postman \(event.text("listen") == "prerequest" ? "pre-request" : "test") "
                    + "script (not run by explorer):\n\(code)"
            )
        }
        return texts.isEmpty ? nil : texts.joined(separator: "\n\n")
    }

    /// A description: text, or `{content}`.
    static func description(_ value: Any?) -> String? {
        let text = (value as? String) ?? (value as? LooseObject)?.text("content")
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// `{key, value, disabled}` pairs (v2.1 `variable`, v2.0 `variables` with `id`).
    static func variables(_ list: [LooseObject]) -> [KeyValue] {
        list.filter { !$0.flag("disabled") }.compactMap { entry in
            (entry.text("key") ?? entry.text("id")).map { KeyValue($0, entry.text("value") ?? "") }
        }
    }

    /// A URL from its parts when it has no `raw` text.
    static func urlFromParts(_ url: LooseObject) -> String {
        func joined(_ key: String, _ separator: String) -> String {
            if let list = url[key] as? [Any] {
                return list.compactMap { ($0 as? String) ?? ($0 as? LooseObject)?.text("value") }.joined(
                    separator: separator)
            }
            return url.text(key) ?? ""
        }
        var text = (url.text("protocol").map { $0 + "://" } ?? "") + joined("host", ".")
        if let port = url.text("port") { text += ":" + port }
        let path = joined("path", "/")
        if !path.isEmpty { text += "/" + path }
        let query = url.objects("query").filter { !$0.flag("disabled") }.map {
            "\($0.text("key") ?? "")=\($0.text("value") ?? "")"
        }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// Postman's dynamic variables as explorer's built-ins (`{{$guid}}` → `{{uuid}}` …), and
    /// the variables of the folders around as their values.
    static func converted(_ text: String, state: inout State) -> String {
        guard text.contains("{{") else { return text }
        return Template.rewritingVariables(in: text) { name in
            if let value = state.folderVariables[name] { return value }
            switch name {
            case "$guid", "$randomUUID": return "{{uuid}}"
            case "$timestamp": return "{{timestamp}}"
            case "$isoTimestamp": return "{{now}}"
            default:
                if name.hasPrefix("$"), state.unknownDynamic.insert(name).inserted {
                    state.warnings.append(
                        "Postman's {{\(name)}} has no equivalent; "
                            + "define a variable \(name) or edit the endpoints that use it."
                    )
                }
                return "{{\(name)}}"
            }
        }
    }
}
