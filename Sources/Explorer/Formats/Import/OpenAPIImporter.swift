import Foundation
import NetworkingCore
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Workspace
import Yams

/// Imports an OpenAPI 3.0 or 3.1 document (YAML or JSON) with OpenAPIKit.
///
/// Servers become environments (server variables become the environment's variables, so
/// `{scheme}://host` is `{{scheme}}://host`); every operation becomes an endpoint, in a folder
/// named after its first tag; path parameters become `{{variables}}` (given a value when the
/// document has an example or default); required query and header parameters are included
/// (optional ones when they have an example or default); request bodies come from their
/// example, else from a skeleton built from the schema. `$ref`s are resolved first.
package struct OpenAPIImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports a document from a file.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL) throws -> ImportResult {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw ImportError.unreadableFile(url.path) }
        return try importText(text, path: url.path)
    }

    /// Imports a document's text.
    ///
    /// - Parameter path: the path shown in errors.
    /// - Throws: `ImportError.invalidOpenAPI`.
    func importText(_ text: String, path: String = "<openapi>") throws -> ImportResult {
        var warnings: [String] = []
        var (document, _, orders) = try decode(text, path: path)
        let resolved: OpenAPIKit.ResolvedDocument
        do {
            resolved = try document.locallyDereferenced().resolved()
        } catch {
            // A schema that contains itself (a tree, an error with nested errors) and that a
            // request reaches cannot be expanded: the cycles are cut and it is read again.
            let (again, cut, _) = try decode(text, path: path, cuttingCycles: true)
            guard !cut.isEmpty else { throw ImportError.invalidOpenAPI(path: path, reason: "a $ref cannot be resolved: \(error)") }
            do {
                resolved = try again.locallyDereferenced().resolved()
            } catch {
                throw ImportError.invalidOpenAPI(path: path, reason: "a $ref cannot be resolved: \(error)")
            }
            document = again
            orders = MemberOrders()
            warnings.append("The schemas \(cut.joined(separator: ", ")) contain themselves; example bodies built from them stop where they recur.")
        }

        // Servers → environments.
        var environments: [Environment] = []
        var usedEnvironmentNames: Set<String> = []
        for (index, server) in document.servers.enumerated() {
            var base = server.urlTemplate.rawValue
            for name in server.variables.keys { base = base.replacingOccurrences(of: "{\(name)}", with: "{{\(name)}}") }
            if base.hasPrefix("/") || !base.contains("://") && !base.hasPrefix("{{") {
                warnings.append("The server \"\(server.urlTemplate.rawValue)\" is relative; its environment uses http://localhost, edit its base_url.")
                base = "http://localhost" + (base.hasPrefix("/") ? base : "/" + base)
            }
            while base.hasSuffix("/") { base.removeLast() }
            var name = environmentName(server.description, url: server.urlTemplate.rawValue, index: index)
            if usedEnvironmentNames.contains(name) { name += " \(index + 1)" }
            usedEnvironmentNames.insert(name)
            let variables = server.variables.map { KeyValue($0.key, $0.value.default) }
            environments.append(Environment(name: name, baseURLTemplate: base, variables: variables))
        }
        if environments.isEmpty {
            warnings.append("The document has no servers; the environment \"default\" uses http://localhost, edit its base_url.")
            environments.append(Environment(name: "default", baseURLTemplate: "http://localhost"))
        }
        var credentials: [KeyValue] = []

        // Operations → endpoints, in folders per first tag (in the document's tag order).
        var folders: [String: [Endpoint]] = [:]
        var folderOrder: [String] = (document.tags ?? []).map(\.name)
        var topLevel: [Endpoint] = []
        var variables: [KeyValue] = []
        var usedIDs: Set<String> = []
        for operation in resolved.endpoints {
            let folder = operation.tags.first
            var endpoint = makeEndpoint(operation, orders: orders, variables: &variables, warnings: &warnings)
            applySecurity(operation, to: &endpoint, credentials: &credentials, warnings: &warnings)
            if let folder { endpoint.folderPath = [folder] }
            if usedIDs.contains(endpoint.id) {
                endpoint.name += " (\(operation.operationId ?? "\(operation.method.rawValue) \(operation.path.rawValue)"))"
                var counter = 2
                let baseName = endpoint.name
                while usedIDs.contains(endpoint.id) { endpoint.name = "\(baseName) \(counter)"; counter += 1 }
            }
            usedIDs.insert(endpoint.id)
            if let folder {
                if !folderOrder.contains(folder) { folderOrder.append(folder) }
                folders[folder, default: []].append(endpoint)
            } else {
                topLevel.append(endpoint)
            }
        }
        if !credentials.isEmpty {
            // Credentials come from the process environment by default and are secrets.
            environments = environments.map { environment in
                Environment(name: environment.name, baseURLTemplate: environment.baseURLTemplate,
                            variables: environment.variables + credentials, secrets: credentials.map(\.name))
            }
        }
        var items: [CollectionItem] = topLevel.map { .endpoint($0) }
        for name in folderOrder {
            guard let endpoints = folders[name], !endpoints.isEmpty else { continue }
            items.append(.folder(Folder(name: name, items: endpoints.map { .endpoint($0) })))
        }
        let collection = APICollection(name: document.info.title, variables: variables, environments: environments, items: items)
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// The document, decoded by OpenAPIKit and prepared for dereferencing: Swagger 2.0 rewritten
    /// as OpenAPI 3.0 and, when asked, schemas that contain themselves cut where they recur
    /// (both on the document as a plain tree), and every operation's `responses` emptied.
    ///
    /// A JSON document is pruned first (see `prunedForDecoding`). A YAML one is decoded from
    /// its text unless it had to be rewritten; a rewritten YAML document goes through JSON,
    /// where YAML 1.1 reads `enum: [no]` as `false` and `version: 1` as a number.
    ///
    /// - Returns: the document, the names of the schemas whose cycles were cut, and the order of
    ///   its objects' members where they are known (a YAML document keeps its own).
    private func decode(_ text: String, path: String, cuttingCycles: Bool = false) throws
        -> (document: OpenAPIKit.OpenAPI.Document, cut: [String], orders: MemberOrders) {
        let isJSON = text.drop { $0.isWhitespace }.first == "{"
        if isJSON, !cuttingCycles, let (version, json, orders) = Self.prunedForDecoding(text) {
            return (try Self.decodeDocument(.json(json), version: version, path: path), [], orders)
        }
        var tree = try Self.tree(from: text, path: path)
        let isSwagger = tree["swagger"] != nil
        if let swagger = tree["swagger"] {
            guard "\(swagger)".hasPrefix("2.") else {
                throw ImportError.invalidOpenAPI(path: path, reason: "Swagger \(swagger) is not supported (2.0 is).")
            }
            tree = Self.convertingSwagger2(tree)
        }
        guard let found = tree["openapi"] else {
            throw ImportError.invalidOpenAPI(path: path, reason: "it has no \"openapi\" (or \"swagger\") version key.")
        }
        let version = "\(found)"
        tree["openapi"] = version
        let cut = cuttingCycles ? Self.breakingSchemaCycles(in: &tree) : []
        let rewritten = isSwagger || !cut.isEmpty
        let source: DocumentSource = if rewritten {
            .json(try JSONSerialization.data(withJSONObject: tree))
        } else {
            isJSON ? .json(Data(text.utf8)) : .yaml(text)
        }
        var document = try Self.decodeDocument(source, version: version, path: path)
        Self.emptyingResponses(of: &document)
        return (document, cut, MemberOrders())
    }

    /// The text OpenAPIKit decodes.
    private enum DocumentSource {
        case json(Data)
        case yaml(String)
    }

    /// Decodes an OpenAPI 3.0 (converted to 3.1) or 3.1 document.
    private static func decodeDocument(_ source: DocumentSource, version: String, path: String) throws -> OpenAPIKit.OpenAPI.Document {
        // No vendor extension (`x-…`) is imported; reading them decodes every object twice
        // (OpenAPIKit30 reads the same key).
        let userInfo: [CodingUserInfoKey: any Sendable] = [OpenAPIKit.VendorExtensionsConfiguration.enabledKey: false]
        func decoded<T: Decodable>(_ type: T.Type) throws -> T {
            switch source {
            case .json(let data):
                let decoder = JSONDecoder()
                decoder.userInfo = userInfo
                return try decoder.decode(type, from: data)
            case .yaml(let text):
                return try YAMLDecoder().decode(type, from: text, userInfo: userInfo)
            }
        }
        do {
            if version.hasPrefix("3.0") {
                return try decoded(OpenAPIKit30.OpenAPI.Document.self).convert(to: .v3_1_1)
            } else if version.hasPrefix("3.") {
                return try decoded(OpenAPIKit.OpenAPI.Document.self)
            } else {
                throw ImportError.invalidOpenAPI(path: path, reason: "OpenAPI \(version) is not supported (3.0 and 3.1 are).")
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError.invalidOpenAPI(path: path, reason: String(describing: error))
        }
    }

    /// Empties every operation's `responses`: no endpoint is built from a response, and
    /// dereferencing expands a response's schema into every operation that names it (most of
    /// the import's time: Discord's 242 operations each inline the same large objects).
    private static func emptyingResponses(of document: inout OpenAPIKit.OpenAPI.Document) {
        for (template, value) in document.paths {
            guard case .b(var item) = value else { continue }
            for endpoint in item.endpoints {
                var operation = endpoint.operation
                operation.responses = [:]
                item.set(operation: operation, for: endpoint.method)
            }
            document.paths[template] = .b(item)
        }
    }

    private func environmentName(_ description: String?, url: String, index: Int) -> String {
        if let description, !description.isEmpty, description.count <= 40 { return description }
        if let host = URL(string: url)?.host, !host.isEmpty { return host }
        return index == 0 ? "default" : "server \(index + 1)"
    }

    private func makeEndpoint(_ operation: OpenAPIKit.ResolvedEndpoint, orders: MemberOrders, variables: inout [KeyValue], warnings: inout [String]) -> Endpoint {
        let method = HTTPMethod(rawValue: operation.method.rawValue)
        var path = operation.path.rawValue
        if !path.hasPrefix("/") { path = "/" + path }
        var query: [KeyValue] = []
        var headers: [KeyValue] = []
        for parameter in operation.parameters {
            let name = parameter.underlyingParameter.name
            let sample = parameterSample(parameter, orders: orders)
            switch parameter.underlyingParameter.location {
            case .path:
                path = path.replacingOccurrences(of: "{\(name)}", with: "{{\(name)}}")
                if let sample, variables[named: name] == nil { variables.append(KeyValue(name, sample)) }
            case .query:
                if let sample { query.append(KeyValue(name, sample)) } else if parameter.underlyingParameter.required {
                    query.append(KeyValue(name, "{{\(name)}}"))
                }
            case .header:
                if let sample { headers.append(KeyValue(name, sample)) } else if parameter.underlyingParameter.required {
                    headers.append(KeyValue(name, "{{\(name)}}"))
                }
            default:
                break
            }
        }
        var body: EndpointBody?
        if let request = operation.requestBody, let (contentType, content) = preferredContent(request.content) {
            let example = contentExample(content, orders: orders)
            let type = contentType.rawValue.lowercased()
            if type.contains("json") {
                if let example { body = .json(example) }
                if type != "application/json" { headers.append(KeyValue("Content-Type", contentType.rawValue)) }
            } else if type.contains("x-www-form-urlencoded") {
                if case .object(let pairs)? = example { body = .form(pairs.map { KeyValue($0.key, flat($0.value)) }) }
            } else if type.contains("multipart/form-data") {
                if case .object(let pairs)? = example { body = .multipart(pairs.map { MultipartField(name: $0.key, value: flat($0.value)) }) }
            } else if let example, example != .string(""), example != .null {
                body = .raw(flat(example))
                headers.append(KeyValue("Content-Type", contentType.rawValue))
            }
        }
        let title = operation.endpointSummary ?? operation.operationId ?? "\(method.rawValue) \(operation.path.rawValue)"
        let name = title.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "/", with: "∕").trimmingCharacters(in: .whitespaces)
        return Endpoint(name: name.isEmpty ? "\(method.rawValue) \(path)" : name, method: method, path: path, query: query, headers: headers, body: body)
    }

    /// Adds what the operation's first security requirement needs: a header (or query item)
    /// holding a `{{variable}}` whose value defaults to `{{env.NAME}}` and is a secret.
    private func applySecurity(_ operation: OpenAPIKit.ResolvedEndpoint, to endpoint: inout Endpoint, credentials: inout [KeyValue], warnings: inout [String]) {
        guard let requirement = operation.security.first else { return }
        func credential(_ name: String, _ environmentName: String) -> String {
            if credentials[named: name] == nil { credentials.append(KeyValue(name, "{{env.\(environmentName)}}")) }
            return "{{\(name)}}"
        }
        for scoped in requirement.schemes.values.sorted(by: { $0.name < $1.name }) {
            switch scoped.securityScheme.type {
            case .apiKey(let name, let location):
                let value = credential("api_key", "API_KEY")
                switch location {
                case .header:
                    if !endpoint.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) { endpoint.headers.append(KeyValue(name, value)) }
                case .query:
                    if endpoint.query[named: name] == nil { endpoint.query.append(KeyValue(name, value)) }
                case .cookie:
                    endpoint.headers.append(KeyValue("Cookie", "\(name)=\(value)"))
                }
            case .http(let scheme, _):
                if scheme.lowercased() == "basic" {
                    endpoint.headers.set("Authorization", "Basic " + credential("basic_auth", "API_BASIC_AUTH"))
                } else {
                    endpoint.headers.set("Authorization", "Bearer " + credential("token", "API_TOKEN"))
                }
            case .oauth2, .openIdConnect:
                endpoint.headers.set("Authorization", "Bearer " + credential("token", "API_TOKEN"))
            case .mutualTLS:
                warnings.append("The security scheme \(scoped.name) (mutual TLS) is not imported.")
            }
        }
    }

    /// A JSON value written as a parameter or form value.
    private func flat(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        default: return value.serialized()
        }
    }

    private func preferredContent(_ map: OpenAPIKit.DereferencedContent.Map) -> (OpenAPIKit.OpenAPI.ContentType, OpenAPIKit.DereferencedContent)? {
        let pairs = Array(map)
        return pairs.first { $0.key.rawValue.lowercased().contains("json") }.map { ($0.key, $0.value) }
            ?? pairs.first.map { ($0.key, $0.value) }
    }

    private func contentExample(_ content: OpenAPIKit.DereferencedContent, orders: MemberOrders) -> JSONValue? {
        let decoded = { self.jsonValue($0, orders: orders) }
        if let example = content.example.flatMap(decoded) { return example }
        if let first = content.examples?.values.first, let value = first.dataOrLegacyValue.flatMap(decoded) { return value }
        guard let schema = content.schema else { return nil }
        return skeleton(schema, depth: 0, orders: orders)
    }

    private func parameterSample(_ parameter: OpenAPIKit.DereferencedParameter, orders: MemberOrders) -> String? {
        let decoded = { self.jsonValue($0, orders: orders) }
        if let context = parameter.schemaOrContent.a {
            if let example = context.example.flatMap(decoded) { return flat(example) }
            if let first = context.examples?.values.first, let value = first.dataOrLegacyValue.flatMap(decoded) { return flat(value) }
            let schema = context.schema
            if let value = (schema.examples.first ?? schema.defaultValue).flatMap(decoded) { return flat(value) }
            if let value = schema.allowedValues?.first.flatMap(decoded) { return flat(value) }
        }
        return nil
    }

    /// A sample value for a schema: its example, default or first allowed value, else a
    /// placeholder of its type (objects list their properties).
    private func skeleton(_ schema: OpenAPIKit.DereferencedJSONSchema, depth: Int, orders: MemberOrders) -> JSONValue {
        let core = Self.core(of: schema)
        let decoded = { self.jsonValue($0, orders: orders) }
        let child = { self.skeleton($0, depth: depth + 1, orders: orders) }
        if let value = (core.examples.first ?? core.defaultValue).flatMap(decoded) { return value }
        if let value = core.allowedValues?.first.flatMap(decoded) { return value }
        guard depth < 8 else { return .null }
        switch schema {
        case .null, .fragment: return .null
        case .boolean: return .bool(false)
        case .integer, .number: return .number("0")
        case .string:
            switch core.formatString {
            case "date-time": return .string("2024-01-01T00:00:00Z")
            case "date": return .string("2024-01-01")
            case "uuid": return .string("00000000-0000-0000-0000-000000000000")
            case "email": return .string("user@example.com")
            case "uri", "url": return .string("https://example.com")
            default: return .string("")
            }
        case .array(_, let context):
            return .array(context.items.map { [child($0)] } ?? [])
        case .object(_, let context):
            let writable = context.properties.filter { !Self.core(of: $0.value).readOnly }.map { (key: $0.key, value: $0.value) }
            return .object(orders.ordered(writable, among: Array(context.properties.keys)).prefix(60).map { (key: $0.key, value: child($0.value)) })
        case .all(let schemas, _):
            var pairs: [(key: String, value: JSONValue)] = []
            for part in schemas {
                if case .object(let more) = child(part) {
                    for pair in more where !pairs.contains(where: { $0.key == pair.key }) { pairs.append(pair) }
                }
            }
            return pairs.isEmpty ? (schemas.first.map { child($0) } ?? .null) : .object(pairs)
        case .one(let schemas, _), .any(let schemas, _):
            let nonNull = schemas.first { if case .null = $0 { return false } else { return true } }
            return (nonNull ?? schemas.first).map { child($0) } ?? .null
        case .not:
            return .null
        }
    }

    /// A schema's own example, default, format and flags, read from its core context: the
    /// `DereferencedJSONSchema` properties of the same names rebuild the whole subtree as a
    /// `JSONSchema` first, which made building a skeleton quadratic in its depth.
    private static func core(of schema: OpenAPIKit.DereferencedJSONSchema) -> any OpenAPIKit.JSONSchemaContext {
        switch schema {
        case .null(let core), .fragment(let core), .all(_, let core), .one(_, let core), .any(_, let core), .not(_, let core): return core
        case .boolean(let core): return core
        case .number(let core, _): return core
        case .integer(let core, _): return core
        case .string(let core, _): return core
        case .object(let core, _): return core
        case .array(let core, _): return core
        }
    }

    /// An example or default as a JSON value, its objects' members in the document's order.
    private func jsonValue(_ value: OpenAPIKit.AnyCodable, orders: MemberOrders) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(value), let parsed = try? JSONValue(parsing: data) else { return nil }
        return orders.reordered(parsed)
    }
}
