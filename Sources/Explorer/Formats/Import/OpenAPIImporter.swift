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

    /// Imports a document from a file; `$ref`s to other files are read from its folder.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL, limits: DocumentLimits = .current) throws -> ImportResult {
        let read: String?
        do {
            read = try limits.readText(at: url)
        } catch {
            throw ImportError.invalidOpenAPI(path: url.path, reason: "\(error.problem). \(error.advice)")
        }
        guard let text = read else { throw ImportError.unreadableFile(url.path) }
        return try importText(text, path: url.path, file: url, limits: limits)
    }

    /// Imports a document's text.
    ///
    /// - Parameters:
    ///   - path: the path shown in errors.
    ///   - file: the document's file, whose folder `$ref`s to other files are read from (none
    ///     are read without it).
    ///   - limits: what the document (and each file it names) may hold.
    /// - Throws: `ImportError.invalidOpenAPI`.
    func importText(_ text: String, path: String = "<openapi>", file: URL? = nil, limits: DocumentLimits = .current) throws -> ImportResult {
        var warnings: [String] = []
        let tree = try Self.preparedTree(text, path: path, file: file, limits: limits, warnings: &warnings)
        var (document, orders) = try Self.decodeTolerantly(tree, path: path, warnings: &warnings)
        let resolved: OpenAPIKit.ResolvedDocument
        do {
            resolved = try document.locallyDereferenced().resolved()
        } catch {
            // A schema that contains itself (a tree, an error with nested errors) and that a
            // request reaches cannot be expanded: the cycles are cut and it is read again.
            guard var loose = document.components.schemas.isEmpty ? nil : (try? Self.looseTree(tree)) else {
                throw ImportError.invalidOpenAPI(path: path, reason: "a $ref cannot be resolved: \(error)")
            }
            let cut = Self.breakingSchemaCycles(in: &loose)
            guard !cut.isEmpty, let again = try? JSONValue(parsing: JSONSerialization.data(withJSONObject: loose)) else {
                throw ImportError.invalidOpenAPI(path: path, reason: "a $ref cannot be resolved: \(error)")
            }
            (document, _) = try Self.decodeTolerantly(again, path: path, warnings: &warnings)
            do {
                resolved = try document.locallyDereferenced().resolved()
            } catch {
                throw ImportError.invalidOpenAPI(path: path, reason: "a $ref cannot be resolved: \(error)")
            }
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
        let place = Self.operationPlaces(in: tree)
        func rank(_ operation: OpenAPIKit.ResolvedEndpoint) -> Int {
            place["\(operation.method.rawValue.uppercased()) \(operation.path.rawValue)"] ?? Int.max
        }
        for operation in resolved.endpoints.sorted(by: { rank($0) < rank($1) }) {
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

    /// Each operation's place in the document: the `paths` in their order, the methods in
    /// theirs within each path item, keyed `METHOD /template`. Decoding from JSON keeps no
    /// member order (a `paths` object comes back in hash order); the tree does.
    static func operationPlaces(in tree: JSONValue) -> [String: Int] {
        guard case .object(let paths)? = tree["paths"] else { return [:] }
        var places: [String: Int] = [:]
        for (template, item) in paths {
            guard case .object(let members) = item else { continue }
            for (method, _) in members { places["\(method.uppercased()) \(template)"] = places.count }
        }
        return places
    }

    /// The document as a tree, ready to decode: Swagger 2.0 rewritten as OpenAPI 3.0, every
    /// operation's `responses` emptied (no endpoint is built from one), `$ref`s to other files
    /// put in place, the values public documents get wrong mended, and the components no
    /// request reaches pruned.
    static func preparedTree(_ text: String, path: String, file: URL?, limits: DocumentLimits, warnings: inout [String]) throws -> JSONValue {
        var tree = try documentTree(text, path: path, limits: limits, warnings: &warnings)
        guard case .object = tree else { throw ImportError.invalidOpenAPI(path: path, reason: "the top level is not a mapping.") }
        if let swagger = tree["swagger"] {
            let version = swagger.stringValue ?? swagger.serialized()
            guard version.hasPrefix("2.") else {
                throw ImportError.invalidOpenAPI(path: path, reason: "Swagger \(version) is not supported (2.0 is).")
            }
            // A Swagger file's `$ref`s to other files hold Swagger too: put in place before the
            // rewriting, which reads a parameter only where it is written.
            tree = try withExternalReferences(tree, path: path, file: file, limits: limits, warnings: &warnings)
            let converted = convertingSwagger2(try looseTree(tree))
            // Foundation's objects keep no member order (a process's own hash order): written
            // sorted, then the paths, the methods in each and every object with the members of
            // one of the document's are put back in the document's order.
            let parsed = try JSONValue(parsing: JSONSerialization.data(withJSONObject: converted, options: [.sortedKeys]))
            var orders = MemberOrders()
            orders.record(tree)
            tree = inOrder(of: tree, orders.reordered(parsed))
        }
        guard let found = tree["openapi"], case .object(var members) = tree else {
            throw ImportError.invalidOpenAPI(path: path, reason: "it has no \"openapi\" (or \"swagger\") version key.")
        }
        let version = found.stringValue ?? found.serialized()
        guard version.hasPrefix("3.") else {
            throw ImportError.invalidOpenAPI(path: path, reason: "OpenAPI \(version) is not supported (3.0 and 3.1 are).")
        }
        for index in members.indices {
            if members[index].key == "openapi" { members[index].value = .string(version) }
            if members[index].key == "paths" { members[index].value = withoutResponses(members[index].value) }
        }
        if case .object(let hooks)? = tree["webhooks"], !hooks.isEmpty {
            let names = hooks.prefix(10).map(\.key).joined(separator: ", ") + (hooks.count > 10 ? ", …" : "")
            warnings.append("The document's webhooks are requests its API sends, not ones sent to it, so they are not endpoints here: \(names).")
        }
        tree = try withExternalReferences(.object(members), path: path, file: file, limits: limits, warnings: &warnings)
        mendingValues(&tree, isVersion30: version.hasPrefix("3.0"), path: path, warnings: &warnings)
        return pruned(tree)
    }

    /// The tree with its `$ref`s to other files put in place (`ExternalReferences`); as it is
    /// when it has none.
    ///
    /// - Throws: `ImportError.invalidOpenAPI` when there is no file to read them from, or one
    ///   leads nowhere or outside the document's folder.
    private static func withExternalReferences(_ tree: JSONValue, path: String, file: URL?, limits: DocumentLimits,
                                               warnings: inout [String]) throws -> JSONValue {
        guard hasExternalReference(tree) else { return tree }
        guard let file else {
            throw ImportError.invalidOpenAPI(path: path, reason: "it has $refs to other files, which are read only when importing a file.")
        }
        var references = ExternalReferences(document: file, tree: tree, limits: limits)
        let resolved = try references.resolving(tree, in: references.document, keys: [], stack: [])
        warnings += references.warnings
        return resolved
    }

    /// `converted` with its `paths`, and the members of each path item, in the order
    /// `original` has them (those `original` does not have last, as they came).
    static func inOrder(of original: JSONValue, _ converted: JSONValue) -> JSONValue {
        guard case .object(var top) = converted, case .object(let originalPaths)? = original["paths"],
              let index = top.firstIndex(where: { $0.key == "paths" }), case .object(let paths) = top[index].value else { return converted }
        func sorted(_ members: [(key: String, value: JSONValue)], like order: [String]) -> [(key: String, value: JSONValue)] {
            let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return members.enumerated().sorted { a, b in
                (rank[a.element.key] ?? order.count + a.offset, a.offset) < (rank[b.element.key] ?? order.count + b.offset, b.offset)
            }.map(\.element)
        }
        let itemOrders = Dictionary(originalPaths.map { ($0.key, $0.value.members?.map(\.key) ?? []) }, uniquingKeysWith: { first, _ in first })
        let reordered = sorted(paths, like: originalPaths.map(\.key)).map { path -> (key: String, value: JSONValue) in
            guard case .object(let members) = path.value else { return path }
            return (path.key, .object(sorted(members, like: itemOrders[path.key] ?? [])))
        }
        top[index].value = .object(reordered)
        return .object(top)
    }

    /// Whether a `$ref` under `value` names another file.
    static func hasExternalReference(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            return members.contains { member in
                if member.key == "$ref", case .string(let reference) = member.value { return !reference.hasPrefix("#") }
                return hasExternalReference(member.value)
            }
        case .array(let elements):
            return elements.contains(where: hasExternalReference)
        default:
            return false
        }
    }

    /// The tree as Foundation objects, for the passes written over them (Swagger 2.0, cycles).
    static func looseTree(_ tree: JSONValue) throws -> LooseObject {
        guard let object = tree.anyValue as? LooseObject else { throw ImportError.invalidOpenAPI(path: "<openapi>", reason: "the top level is not a mapping.") }
        return object
    }

    /// Decodes the tree; each value OpenAPIKit cannot read is dropped (`droppingFailure`) and
    /// the tree decoded again, up to `maximumDroppedValues` times.
    ///
    /// - Returns: the document, every operation's `responses` empty, and the order of the
    ///   members of the tree's objects.
    static func decodeTolerantly(_ tree: JSONValue, path: String, warnings: inout [String]) throws
        -> (document: OpenAPIKit.OpenAPI.Document, orders: MemberOrders) {
        var tree = tree
        let version = tree["openapi"]?.stringValue ?? "3.1.0"
        var dropped = 0
        while true {
            do {
                var document = try decodeDocument(Data(tree.serialized().utf8), version: version)
                emptyingResponses(of: &document)
                var orders = MemberOrders()
                orders.record(tree)
                return (document, orders)
            } catch {
                guard dropped < maximumDroppedValues, let warning = droppingFailure(error, in: &tree, path: path) else {
                    let reason = OpenAPIKit.OpenAPI.Error(from: error).localizedDescription
                    throw ImportError.invalidOpenAPI(path: path, reason: dropped < maximumDroppedValues ? reason
                        : "\(dropped) values could not be read, and then: \(reason)")
                }
                warnings.append(warning)
                dropped += 1
            }
        }
    }

    /// Decodes an OpenAPI 3.0 (converted to 3.1) or 3.1 document from JSON.
    private static func decodeDocument(_ data: Data, version: String) throws -> OpenAPIKit.OpenAPI.Document {
        // No vendor extension (`x-…`) is imported; reading them decodes every object twice
        // (OpenAPIKit30 reads the same key).
        let decoder = JSONDecoder()
        decoder.userInfo = [OpenAPIKit.VendorExtensionsConfiguration.enabledKey: false]
        if version.hasPrefix("3.0") {
            return try decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: data).convert(to: .v3_1_1)
        }
        return try decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: data)
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
        let operationName = operation.operationId ?? "\(operation.method.rawValue.uppercased()) \(path)"
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
        var endpoint = Endpoint(name: name.isEmpty ? "\(method.rawValue) \(path)" : name, method: method, path: path, query: query, headers: headers, body: body)
        endpoint.operation = operationName
        return endpoint
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
        if let value = firstExample(content.examples, orders: orders) { return value }
        if let example = content.example.flatMap(decoded) { return example }
        guard let schema = content.schema else { return nil }
        return skeleton(schema, depth: 0, orders: orders)
    }

    /// The value of the first of named examples, in the document's order (decoded, they come
    /// in the process's hash order: Twilio's `Fields` took a different one at each import).
    private func firstExample(_ examples: OrderedDictionary<String, OpenAPIKit.OpenAPI.Example>?, orders: MemberOrders) -> JSONValue? {
        guard let examples, !examples.isEmpty else { return nil }
        let pairs = examples.map { (key: $0.key, value: $0.value) }
        return orders.ordered(pairs, among: pairs.map(\.key)).lazy.compactMap { $0.value.dataOrLegacyValue.flatMap { self.jsonValue($0, orders: orders) } }.first
    }

    private func parameterSample(_ parameter: OpenAPIKit.DereferencedParameter, orders: MemberOrders) -> String? {
        let decoded = { self.jsonValue($0, orders: orders) }
        if let context = parameter.schemaOrContent.a {
            // Named examples first: OpenAPIKit fills `example` with one of them, not the first.
            if let value = firstExample(context.examples, orders: orders) { return flat(value) }
            if let example = context.example.flatMap(decoded) { return flat(example) }
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
