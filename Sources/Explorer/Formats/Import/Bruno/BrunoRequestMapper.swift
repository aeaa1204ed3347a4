import Foundation
import NetworkingCore
import Workspace

/// One walk over Bruno's items: folders and requests as collection items, with what was left
/// out noted in the report.
struct BrunoRequestMapper {
    /// The import's report.
    var report: BrunoReport
    /// The template conversion (and the dynamic variables it met).
    let templates = BrunoTemplates()

    /// The standard methods, which Bruno writes as blocks (`get {`); others are custom.
    static let standardMethods: Set<String> = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "CONNECT", "TRACE",
    ]

    // MARK: - Items

    /// The items of one level, in Bruno's order (`seq`, then name).
    mutating func items(_ items: [LooseObject], scope: BrunoCollection.Scope) -> [CollectionItem] {
        let ordered = items.enumerated().sorted { lhs, rhs in
            let left = Self.sequence(lhs.element)
            let right = Self.sequence(rhs.element)
            if left != right { return left < right }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var out: [CollectionItem] = []
        var used: Set<String> = []
        for item in ordered {
            let name = Self.unique(item.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled", in: &used)
            if item.text("type") == "folder" || (item["items"] != nil && item["request"] == nil) {
                out.append(.folder(folder(item, name: name, scope: scope)))
            } else if let endpoint = endpoint(item, name: name, scope: scope) {
                out.append(.endpoint(endpoint))
            }
        }
        return out
    }

    /// An item's `seq` (`root.meta.seq` for a folder), or last.
    private static func sequence(_ item: LooseObject) -> Double {
        if let seq = item["seq"] as? Double { return seq }
        if let seq = item.text("seq").flatMap(Double.init) { return seq }
        if let seq = item.object("root")?.object("meta")?.text("seq").flatMap(Double.init) { return seq }
        return .infinity
    }

    /// The name, or the name with ` (2)`, ` (3)` … when taken at this level.
    private static func unique(_ name: String, in used: inout Set<String>) -> String {
        let clean = name.replacingOccurrences(of: "/", with: "-")
        var candidate = clean
        var counter = 2
        while !used.insert(candidate).inserted {
            candidate = "\(clean) (\(counter))"
            counter += 1
        }
        return candidate
    }

    /// A folder: its auth, and its headers, variables and post-response variables passed down.
    private mutating func folder(_ item: LooseObject, name: String, scope: BrunoCollection.Scope) -> Folder {
        let root = item.object("root") ?? [:]
        let request = root.object("request") ?? [:]
        var inner = scope
        inner.folderPath.append(name)
        let owner = "the folder \"\(inner.folderPath.joined(separator: "/"))\""
        inner.headers = Self.merged(scope.headers, enabledPairs(request.objects("headers")))
        for variable in enabledPairs(request.object("vars")?.objects("req") ?? []) {
            inner.variables[variable.name] = variable.value
        }
        inner.captures += enabled(request.object("vars")?.objects("res") ?? [])
        let auth = authentication(request.object("auth"), owner: owner, turnsOff: scope.hasAuth)
        if let auth { inner.hasAuth = auth.scheme != .none }
        noteScripts(request, owner: owner)
        let docs = (root.text("docs") ?? request.text("docs")).flatMap {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
        }
        return Folder(name: name, items: items(item.objects("items"), scope: inner), description: docs, auth: auth)
    }

    // MARK: - Pairs

    /// The enabled entries of a list.
    func enabled(_ entries: [LooseObject]) -> [LooseObject] { entries.filter { $0["enabled"] as? Bool ?? true } }

    /// The enabled `name`/`value` entries, templates converted.
    mutating func enabledPairs(_ entries: [LooseObject]) -> [KeyValue] {
        enabled(entries).compactMap { entry in
            guard let name = entry.text("name"), !name.isEmpty else { return nil }
            return KeyValue(templates.convert(name), templates.convert(entry.text("value") ?? ""))
        }
    }

    /// The disabled `name`/`value` entries, templates converted.
    private mutating func disabledPairs(_ entries: [LooseObject]) -> [KeyValue] {
        entries.filter { ($0["enabled"] as? Bool) == false }.compactMap { entry in
            guard let name = entry.text("name"), !name.isEmpty else { return nil }
            return KeyValue(templates.convert(name), templates.convert(entry.text("value") ?? ""))
        }
    }

    /// Outer headers with inner ones added; an inner one replaces an outer one of its name.
    static func merged(_ outer: [KeyValue], _ inner: [KeyValue]) -> [KeyValue] {
        let names = Set(inner.map { $0.name.lowercased() })
        return outer.filter { !names.contains($0.name.lowercased()) } + inner
    }

    /// Script and test blocks are not run: noted by owner.
    mutating func noteScripts(_ request: LooseObject, owner: String) {
        var blocks: [String] = []
        func has(_ text: String?) -> Bool { !(text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if has(request.object("script")?.text("req")) { blocks.append("script:pre-request") }
        if has(request.object("script")?.text("res")) { blocks.append("script:post-response") }
        if has(request.text("tests")) { blocks.append("tests") }
        if !blocks.isEmpty { report.scripts.append((owner, blocks)) }
    }

    // MARK: - Requests

    /// One request as an endpoint, or `nil` for an item that is not one (noted).
    private mutating func endpoint(_ item: LooseObject, name: String, scope: BrunoCollection.Scope) -> Endpoint? {
        let request = item.object("request") ?? [:]
        let shortTypes = [
            "http": "http-request", "graphql": "graphql-request", "grpc": "grpc-request", "ws": "ws-request",
        ]
        let type = item.text("type").map { shortTypes[$0] ?? $0 } ?? "http-request"
        let id = (scope.folderPath + [name]).joined(separator: "/")
        guard ["http-request", "graphql-request", "grpc-request", "ws-request"].contains(type) else {
            report.other.append("\"\(id)\" is a Bruno \(type) item, which is not a request: left out.")
            return nil
        }
        var values = scope.variables
        for variable in enabledPairs(request.object("vars")?.objects("req") ?? []) {
            values[variable.name] = variable.value
        }
        let templates = self.templates
        func text(_ raw: String) -> String { BrunoTemplates.substituting(values, in: templates.convert(raw)) }

        var headers = Self.merged(scope.headers, enabledPairs(request.objects("headers")))
        var disabled = DisabledRows(headers: disabledPairs(request.objects("headers")))
        let params = request.objects("params")
        var endpoint: Endpoint
        switch type {
        case "grpc-request":
            endpoint = grpcEndpoint(request, name: name, headers: headers, text: text)
        case "ws-request":
            var url = text(request.text("url") ?? "")
            if !url.contains("://") && !url.hasPrefix("{{") { url = "ws://" + url }
            endpoint = Endpoint(name: name, method: .get, path: url, headers: headers)
            let messages = (request.object("body")?.objects("ws") ?? []).compactMap { message -> SavedMessage? in
                let content = text(message.text("content") ?? "")
                guard !content.isEmpty else { return nil }
                let title = message.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? content
                let isJSON = message.text("type") == "json" && (try? JSONValue(parsing: content)) != nil
                return SavedMessage(name: title, text: content, isJSON: isJSON)
            }
            endpoint.webSocket = WebSocketSettings(messages: messages)
        default:
            let (url, query) = urlAndQuery(request.text("url") ?? "", params: params, text: text)
            disabled.query = disabledPairs(params.filter { $0.text("type") != "path" }).map {
                KeyValue($0.name, BrunoTemplates.substituting(values, in: $0.value))
            }
            let method = (request.text("method") ?? "GET").trimmingCharacters(in: .whitespaces)
            let allowed = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
            guard !method.isEmpty, method.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
                report.other.append(
                    "\"\(id)\" uses the method \"\(method)\", which is not an HTTP method token (RFC 9110): left out.")
                return nil
            }
            endpoint = Endpoint(
                name: name,
                method: HTTPMethod(
                    exactly: Self.standardMethods.contains(method.uppercased()) ? method.uppercased() : method),
                path: url, query: query)
            body(
                request.object("body") ?? [:], type: type, id: id, into: &endpoint, headers: &headers,
                disabled: &disabled, text: text)
            endpoint.headers = headers
        }
        endpoint.folderPath = scope.folderPath
        if !disabled.isEmpty {
            endpoint.disabled = disabled
            report.disabledRows.append(id)
        }
        let hasAuthorization = headers.contains { $0.name.lowercased() == "authorization" }
        if !hasAuthorization || request.object("auth")?.text("mode") == "none" {
            endpoint.auth = authentication(request.object("auth"), owner: "\"\(id)\"", turnsOff: scope.hasAuth)
        }
        checks(request, scope: scope, id: id, into: &endpoint)
        noteScripts(request, owner: "\"\(id)\"")
        let docs = request.text("docs") ?? item.text("description")
        endpoint.description = docs.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        endpoint.tags = (item["tags"] as? [Any])?.compactMap { $0 as? String } ?? []
        if let settings = item.object("settings") {
            let follow = settings["followRedirects"]
            if (follow as? Bool) == false || (follow as? String) == "false" { endpoint.followRedirects = false }
        }
        return endpoint
    }

    /// The whole URL (origin, path with `:params` filled in, and the query when it is kept as
    /// written) and the query pairs: the enabled query params when there are any (Bruno keeps
    /// them and the URL's query the same), else the URL's own query.
    private mutating func urlAndQuery(
        _ raw: String, params: [LooseObject], text: (String) -> String
    ) -> (String, [KeyValue]) {
        var url = text(raw.trimmingCharacters(in: .whitespaces))
        if !url.contains("://") && !url.hasPrefix("{{") { url = "http://" + url }
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        var query = ""
        if let mark = url.firstIndex(of: "?") {
            query = String(url[url.index(after: mark)...])
            url = String(url[..<mark])
        }
        for param in params where param.text("type") == "path" && (param["enabled"] as? Bool ?? true) {
            guard let name = param.text("name"), !name.isEmpty else { continue }
            url = Self.fillingPathParameter(name, with: text(param.text("value") ?? ""), in: url)
        }
        let queryParams = params.filter { $0.text("type") != "path" && ($0["enabled"] as? Bool ?? true) }
        if !queryParams.isEmpty {
            return (
                url,
                queryParams.compactMap { param in
                    param.text("name").map { KeyValue(text($0), text(param.text("value") ?? "")) }
                }
            )
        }
        guard !query.isEmpty else { return (url, []) }
        if let pairs = URLParts.pairs(query) { return (url, pairs) }
        return (url + "?" + query, [])
    }

    /// The URL with each `/:name` path segment replaced by the value (Bruno's path params).
    static func fillingPathParameter(_ name: String, with value: String, in url: String) -> String {
        guard !value.isEmpty else { return url }
        let start =
            url.range(of: "://").map { url[$0.upperBound...].firstIndex(of: "/") ?? url.endIndex } ?? url.startIndex
        var out = String(url[..<start])
        let segments = url[start...].split(separator: "/", omittingEmptySubsequences: false)
        out += segments.map { $0 == ":" + name ? value : String($0) }.joined(separator: "/")
        return out
    }

    /// A gRPC request as a gRPC endpoint: its server, method, messages and metadata.
    private mutating func grpcEndpoint(
        _ request: LooseObject, name: String, headers: [KeyValue], text: (String) -> String
    ) -> Endpoint {
        var server = text(request.text("url") ?? "")
        if !server.contains("://") && !server.hasPrefix("{{") { server = "grpc://" + server }
        let method = String((request.text("method") ?? "").drop { $0 == "/" })
        var messages: [JSONValue] = []
        for message in request.object("body")?.objects("grpc") ?? [] {
            let content = text(message.text("content") ?? "")
            if content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
            if let value = try? JSONValue(parsing: content) {
                messages.append(value)
            } else {
                report.other.append("the gRPC request \"\(name)\" has a message that is not JSON; it was left out.")
            }
        }
        if !GRPCSettings.isMethodName(method) {
            report.other.append(
                "the gRPC request \"\(name)\" names the method \"\(method)\", which is not package.Service/Method; "
                    + "write its grpc: by hand.")
        }
        let settings = GRPCSettings(
            method: method, server: server, messages: messages.isEmpty ? [.object([])] : messages,
            writtenAsList: messages.count > 1)
        var endpoint = Endpoint(name: name, method: .post, path: settings.path, headers: headers)
        endpoint.grpc = settings
        return endpoint
    }

    // MARK: - Bodies

    /// The body of the mode the request sends, and the Content-Type Bruno adds for it.
    private mutating func body(
        _ body: LooseObject, type: String, id: String, into endpoint: inout Endpoint, headers: inout [KeyValue],
        disabled: inout DisabledRows, text: (String) -> String
    ) {
        func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }
        func contentType(_ value: String) {
            if !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", value)) }
        }
        let mode = type == "graphql-request" ? "graphql" : (body.text("mode") ?? "none")
        switch mode {
        case "json":
            let json = text(body.text("json") ?? "")
            guard !json.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
            if let value = try? JSONValue(parsing: json), !hasHeader("Content-Type") {
                endpoint.body = .json(value)
            } else {
                endpoint.body = .raw(json)
                contentType("application/json")
            }
        case "text", "xml", "sparql":
            let types = ["text": "text/plain", "xml": "application/xml", "sparql": "application/sparql-query"]
            let raw = text(body.text(mode) ?? "")
            guard !raw.isEmpty else { return }
            endpoint.body = .raw(raw)
            contentType(types[mode] ?? "text/plain")
        case "formUrlEncoded":
            let entries = body.objects("formUrlEncoded")
            endpoint.body = .form(
                enabled(entries).compactMap { entry in
                    entry.text("name").map { KeyValue(text($0), text(entry.text("value") ?? "")) }
                })
            disabled.form = disabledPairs(entries)
            headers.removeAll {
                $0.name.lowercased() == "content-type"
                    && $0.value.lowercased().hasPrefix("application/x-www-form-urlencoded")
            }
        case "multipartForm":
            var fields: [MultipartField] = []
            for entry in body.objects("multipartForm") {
                let fieldName = text(entry.text("name") ?? "")
                let contentType = entry.text("contentType").flatMap { $0.isEmpty ? nil : $0 }
                var parts: [MultipartField] = []
                if entry.text("type") == "file" {
                    let paths = (entry["value"] as? [Any])?.compactMap { $0 as? String } ?? [entry.text("value") ?? ""]
                    for path in paths where !path.isEmpty {
                        guard let kept = insideCollection(path, id: id) else { continue }
                        parts.append(
                            MultipartField(name: fieldName, value: kept, isFile: true, contentType: contentType))
                    }
                } else {
                    parts.append(
                        MultipartField(
                            name: fieldName, value: text(entry.text("value") ?? ""), contentType: contentType))
                }
                if entry["enabled"] as? Bool ?? true { fields += parts } else { disabled.multipart += parts }
            }
            endpoint.body = .multipart(fields)
            headers.removeAll {
                $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/")
            }
        case "file":
            let files = body.objects("file")
            guard let selected = files.first(where: { $0.flag("selected") }) ?? (files.count == 1 ? files.first : nil),
                let path = selected.text("filePath"), !path.isEmpty
            else { return }
            guard let kept = insideCollection(path, id: id) else { return }
            endpoint.body = .file(kept)
            if let type = selected.text("contentType"), !type.isEmpty { contentType(type) }
        case "graphql":
            let graphql = body.object("graphql") ?? [:]
            let query = text(graphql.text("query") ?? "")
            var variables: JSONValue?
            let variablesText = text(graphql.text("variables") ?? "")
            if !variablesText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                if let value = try? JSONValue(parsing: variablesText) {
                    variables = value
                } else {
                    report.other.append("the GraphQL variables of \"\(id)\" are not JSON; they were left out.")
                }
            }
            endpoint.graphql = GraphQLOperation(document: .inline(query), variables: variables)
            headers.removeAll { $0.name.lowercased() == "content-type" && $0.value.lowercased().contains("json") }
        case "none":
            break
        default:
            report.other.append("\"\(id)\" has a body of mode \(mode), which explorer does not know: left out.")
        }
    }

    /// A body file's path when it stays inside the collection's folder (relative, no `..`
    /// out of it); otherwise `nil`, noted.
    mutating func insideCollection(_ path: String, id: String) -> String? {
        var depth = 0
        for part in path.split(separator: "/") {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { break }
        }
        if path.hasPrefix("/") || path.hasPrefix("~") || depth < 0 || path.contains("{{") {
            report.outsideFiles.append("\(path) (\"\(id)\")")
            return nil
        }
        return path
    }
}
