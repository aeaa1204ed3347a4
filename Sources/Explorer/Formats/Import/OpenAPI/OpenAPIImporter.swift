import Contract
import Foundation
import NetworkingCore
import Workspace
import Yams

/// Imports an OpenAPI 3.0 or 3.1 document (YAML or JSON), read as a tree.
///
/// Servers become environments (server variables become the environment's variables, so
/// `{scheme}://host` is `{{scheme}}://host`); every operation becomes an endpoint, in a folder
/// named after its first tag; path parameters become `{{variables}}` (given a value when the
/// document has an example or default); required query and header parameters are included
/// (optional ones when they have an example or default); request bodies come from their
/// example, else from a skeleton built from the schema. `$ref`s are followed as each endpoint
/// reads what they name (`ComponentLookup`).
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
    func importText(_ text: String, path: String = "<openapi>", file: URL? = nil, limits: DocumentLimits = .current)
        throws -> ImportResult
    {
        var warnings: [String] = []
        let tree = try Self.preparedTree(text, path: path, file: file, limits: limits, warnings: &warnings)
        var samples = Samples(
            lookup: ComponentLookup(tree), isVersion30: tree["openapi"]?.stringValue?.hasPrefix("3.0") ?? false)

        // Servers → environments.
        var environments: [Environment] = []
        var usedEnvironmentNames: Set<String> = []
        for (index, server) in (tree["servers"]?.arrayValue ?? []).enumerated() {
            guard let url = server["url"]?.stringValue else {
                warnings.append("\(path)#/servers/\(index): a server without a `url` is left out.")
                continue
            }
            var base = url
            for variable in server["variables"]?.members ?? [] {
                base = base.replacingOccurrences(of: "{\(variable.key)}", with: "{{\(variable.key)}}")
            }
            if base.hasPrefix("/") || !base.contains("://") && !base.hasPrefix("{{") {
                warnings.append(
                    "The server \"\(url)\" is relative; its environment uses http://localhost, edit its base_url.")
                base = "http://localhost" + (base.hasPrefix("/") ? base : "/" + base)
            }
            while base.hasSuffix("/") { base.removeLast() }
            var name = environmentName(server["description"]?.stringValue, url: url, index: index)
            if usedEnvironmentNames.contains(name) { name += " \(index + 1)" }
            usedEnvironmentNames.insert(name)
            let variables = (server["variables"]?.members ?? []).map {
                KeyValue($0.key, $0.value["default"].map(Self.flat) ?? "")
            }
            environments.append(Environment(name: name, baseURLTemplate: base, variables: variables))
        }
        if environments.isEmpty {
            warnings.append(
                "The document has no servers; the environment \"default\" uses http://localhost, edit its base_url.")
            environments.append(Environment(name: "default", baseURLTemplate: "http://localhost"))
        }
        var credentials: [KeyValue] = []

        // Operations → endpoints, in folders per first tag (in the document's tag order).
        var folders: [String: [Endpoint]] = [:]
        var folderOrder: [String] = (tree["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        var topLevel: [Endpoint] = []
        var variables: [KeyValue] = []
        var usedIDs: Set<String> = []
        let globalSecurity = tree["security"]?.arrayValue ?? []
        for operation in Self.operations(of: tree, lookup: &samples.lookup) {
            samples.place = operation.key
            let folder = operation.tags.first
            var endpoint = makeEndpoint(operation, samples: &samples, variables: &variables)
            applySecurity(
                operation.security ?? globalSecurity, to: &endpoint, lookup: &samples.lookup,
                credentials: &credentials, warnings: &warnings)
            if let folder { endpoint.folderPath = [folder] }
            if usedIDs.contains(endpoint.id) {
                endpoint.name += " (\(operation.operationID ?? "\(operation.method) \(operation.path)"))"
                var counter = 2
                let baseName = endpoint.name
                while usedIDs.contains(endpoint.id) {
                    endpoint.name = "\(baseName) \(counter)"
                    counter += 1
                }
            }
            usedIDs.insert(endpoint.id)
            if let folder {
                if !folderOrder.contains(folder) { folderOrder.append(folder) }
                folders[folder, default: []].append(endpoint)
            } else {
                topLevel.append(endpoint)
            }
        }
        warnings += samples.lookup.warnings
        if !samples.cut.isEmpty {
            let named = samples.cut.prefix(5).joined(separator: ", ") + (samples.cut.count > 5 ? ", …" : "")
            warnings.append(
                "The example bodies of \(samples.cut.count) operation\(samples.cut.count == 1 ? "" : "s") (\(named)) "
                    + "stop at \(Samples.maximumValues) values; their schemas name more than that."
            )
        }
        if !samples.recurring.isEmpty {
            warnings.append(
                "The schemas \(samples.recurring.sorted().joined(separator: ", ")) contain themselves; "
                    + "example bodies built from them stop where they recur."
            )
        }
        if !credentials.isEmpty {
            // Credentials come from the process environment by default and are secrets.
            environments = environments.map { environment in
                Environment(
                    name: environment.name, baseURLTemplate: environment.baseURLTemplate,
                    variables: environment.variables + credentials, secrets: credentials.map(\.name))
            }
        }
        var items: [CollectionItem] = topLevel.map { .endpoint($0) }
        for name in folderOrder {
            guard let endpoints = folders[name], !endpoints.isEmpty else { continue }
            items.append(.folder(Folder(name: name, items: endpoints.map { .endpoint($0) })))
        }
        let title = tree["info"]?["title"]?.stringValue ?? ""
        if title.isEmpty {
            warnings.append("\(path)#/info/title: the document has no title; the collection is named \"API\".")
        }
        let collection = APICollection(
            name: title.isEmpty ? "API" : title, variables: variables, environments: environments, items: items)
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// The document as a tree, ready to read endpoints from: Swagger 2.0 rewritten as OpenAPI 3.0, every
    /// operation's `responses` emptied (no endpoint is built from one), `$ref`s to other files
    /// put in place, the values public documents get wrong mended, and the components no
    /// request reaches pruned.
    static func preparedTree(_ text: String, path: String, file: URL?, limits: DocumentLimits, warnings: inout [String])
        throws -> JSONValue
    {
        var tree = try documentTree(text, path: path, limits: limits, warnings: &warnings)
        guard case .object = tree else {
            throw ImportError.invalidOpenAPI(path: path, reason: "the top level is not a mapping.")
        }
        if let swagger = tree["swagger"] {
            let version = swagger.stringValue ?? swagger.serialized()
            guard version.hasPrefix("2.") else {
                throw ImportError.invalidOpenAPI(path: path, reason: "Swagger \(version) is not supported (2.0 is).")
            }
            // A Swagger file's `$ref`s to other files hold Swagger too: put in place before the
            // rewriting, which reads a parameter only where it is written.
            tree = try withExternalReferences(tree, path: path, file: file, limits: limits, warnings: &warnings)
            let converted = convertingSwagger2(try looseTree(tree))
            // Foundation's objects keep no member order (a process's own hash order): read back
            // sorted, then the paths, the methods in each and every object with the members of
            // one of the document's are put back in the document's order.
            let parsed = Self.sortedTree(converted)
            var orders = MemberOrders()
            orders.record(tree)
            tree = inOrder(of: tree, orders.reordered(parsed))
        }
        guard let found = tree["openapi"], case .object(var members) = tree else {
            throw ImportError.invalidOpenAPI(path: path, reason: "it has no \"openapi\" (or \"swagger\") version key.")
        }
        let version = found.stringValue ?? found.serialized()
        guard version.hasPrefix("3.") else {
            throw ImportError.invalidOpenAPI(
                path: path, reason: "OpenAPI \(version) is not supported (3.0 and 3.1 are).")
        }
        for index in members.indices {
            if members[index].key == "openapi" { members[index].value = .string(version) }
            if members[index].key == "paths" { members[index].value = withoutResponses(members[index].value) }
        }
        if case .object(let hooks)? = tree["webhooks"], !hooks.isEmpty {
            let names = hooks.prefix(10).map(\.key).joined(separator: ", ") + (hooks.count > 10 ? ", …" : "")
            warnings.append(
                "The document's webhooks are requests its API sends, "
                    + "not ones sent to it, so they are not endpoints here: \(names)."
            )
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
    private static func withExternalReferences(
        _ tree: JSONValue, path: String, file: URL?, limits: DocumentLimits,
        warnings: inout [String]
    ) throws -> JSONValue {
        guard hasExternalReference(tree) else { return tree }
        guard let file else {
            throw ImportError.invalidOpenAPI(
                path: path, reason: "it has $refs to other files, which are read only when importing a file.")
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
            let index = top.firstIndex(where: { $0.key == "paths" }), case .object(let paths) = top[index].value
        else { return converted }
        func sorted(_ members: [(key: String, value: JSONValue)], like order: [String]) -> [(
            key: String, value: JSONValue
        )] {
            let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return members.enumerated().sorted { a, b in
                (rank[a.element.key] ?? order.count + a.offset, a.offset) < (
                    rank[b.element.key] ?? order.count + b.offset, b.offset
                )
            }.map(\.element)
        }
        let itemOrders = Dictionary(
            originalPaths.map { ($0.key, $0.value.members?.map(\.key) ?? []) }, uniquingKeysWith: { first, _ in first })
        let reordered = sorted(paths, like: originalPaths.map(\.key)).map { path -> (key: String, value: JSONValue) in
            guard case .object(let members) = path.value else { return path }
            return (path.key, .object(sorted(members, like: itemOrders[path.key] ?? [])))
        }
        top[index].value = .object(reordered)
        return .object(top)
    }

    /// Whether a `$ref` under `value` names another file (one in example data is data, not a reference).
    static func hasExternalReference(_ value: JSONValue) -> Bool {
        !forEachReference(in: value, at: []) { reference, _ in reference.hasPrefix("#") }
    }

    /// The tree as Foundation objects, for the passes written over them (Swagger 2.0); its
    /// numbers kept as the document wrote them (`NumberText`).
    static func looseTree(_ tree: JSONValue) throws -> LooseObject {
        func loose(_ value: JSONValue) -> Any {
            switch value {
            case .null: return NSNull()
            case .bool(let flag): return flag
            case .number(let text): return NumberText(text: text)
            case .string(let text): return text
            case .array(let elements): return elements.map(loose)
            case .object(let members):
                return Dictionary(members.map { ($0.key, loose($0.value)) }, uniquingKeysWith: { _, last in last })
            }
        }
        guard let object = loose(tree) as? LooseObject else {
            throw ImportError.invalidOpenAPI(path: "<openapi>", reason: "the top level is not a mapping.")
        }
        return object
    }

    /// A number of the document inside `looseTree`, as its text.
    struct NumberText {
        let text: String
    }

    /// Foundation objects (from `looseTree`, rewritten) as a tree, each object's members sorted
    /// by name. (`JSONSerialization`'s sorted writing compared every pair of names in the
    /// system locale: 70 % of a Swagger document's import.)
    static func sortedTree(_ value: Any) -> JSONValue {
        switch value {
        case let object as LooseObject:
            return .object(object.sorted { $0.key < $1.key }.map { ($0.key, sortedTree($0.value)) })
        case let array as [Any]: return .array(array.map(sortedTree))
        case let text as String: return .string(text)
        case let number as NumberText: return .number(number.text)
        case let flag as Bool: return .bool(flag)
        case let integer as Int: return .number(String(integer))
        case let number as Double: return .number(String(describing: number))
        default: return .null
        }
    }

    private func environmentName(_ description: String?, url: String, index: Int) -> String {
        if let description, !description.isEmpty, description.count <= 40 { return description }
        if let host = URL(string: url)?.host, !host.isEmpty { return host }
        return index == 0 ? "default" : "server \(index + 1)"
    }

    /// An operation of the document, with the parameters that apply to it.
    struct Operation {
        /// The method as the document writes it (`get`).
        let method: String
        /// The path template (`/pets/{id}`).
        let path: String
        /// The operation object.
        let operation: JSONValue
        /// The operation's parameters, then its path item's that it does not override (by name
        /// and location), their references followed.
        let parameters: [JSONValue]
        /// `METHOD /template`, as warnings name it.
        var key: String { "\(method.uppercased()) \(path)" }
        var operationID: String? { operation["operationId"]?.stringValue }
        var tags: [String] { operation["tags"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        /// The operation's own security requirements; `nil` when the document's apply.
        var security: [JSONValue]? { operation["security"]?.arrayValue }
    }

    /// A parameter's name; one YAML reads as a number (`name: 2024`) as written.
    static func name(of parameter: JSONValue) -> String? {
        switch parameter["name"] {
        case .string(let text)?, .number(let text)?: return text
        default: return nil
        }
    }

    /// The methods a path item holds operations under.
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// Every operation of the document, the paths in their order and the methods in theirs
    /// within each path item.
    static func operations(of document: JSONValue, lookup: inout ComponentLookup) -> [Operation] {
        var operations: [Operation] = []
        for (path, value) in document["paths"]?.members ?? [] {
            guard let item = lookup.resolved(value, at: path), case .object(let members) = item else { continue }
            let shared = item["parameters"]?.arrayValue ?? []
            for (method, operation) in members where methods.contains(method) {
                guard case .object = operation else { continue }
                let key = "\(method.uppercased()) \(path)"
                var seen: Set<String> = []  // location and name
                var parameters: [JSONValue] = []
                for reference in (operation["parameters"]?.arrayValue ?? []) + shared {
                    guard let parameter = lookup.resolved(reference, at: key), let name = Self.name(of: parameter),
                        let location = parameter["in"]?.stringValue
                    else { continue }
                    if seen.insert("\(location) \(name)").inserted { parameters.append(parameter) }
                }
                operations.append(Operation(method: method, path: path, operation: operation, parameters: parameters))
            }
        }
        return operations
    }

    private func makeEndpoint(_ operation: Operation, samples: inout Samples, variables: inout [KeyValue]) -> Endpoint {
        let method = HTTPMethod(rawValue: operation.method.uppercased())
        var path = operation.path
        if !path.hasPrefix("/") { path = "/" + path }
        let operationName = operation.operationID ?? "\(operation.method.uppercased()) \(path)"
        var query: [KeyValue] = []
        var headers: [KeyValue] = []
        for parameter in operation.parameters {
            let name = Self.name(of: parameter) ?? ""
            let sample = samples.sample(of: parameter)
            let required = parameter["required"]?.boolValue ?? false
            switch parameter["in"]?.stringValue {
            case "path":
                path = path.replacingOccurrences(of: "{\(name)}", with: "{{\(name)}}")
                if let sample, variables[named: name] == nil { variables.append(KeyValue(name, sample)) }
            case "query":
                if let sample {
                    query.append(KeyValue(name, sample))
                } else if required {
                    query.append(KeyValue(name, "{{\(name)}}"))
                }
            case "header":
                if let sample {
                    headers.append(KeyValue(name, sample))
                } else if required {
                    headers.append(KeyValue(name, "{{\(name)}}"))
                }
            default:
                break
            }
        }
        var body: EndpointBody?
        if let reference = operation.operation["requestBody"],
            let request = samples.lookup.resolved(reference, at: samples.place),
            let (contentType, content) = samples.preferredContent(request["content"])
        {
            let example = samples.example(of: content)
            let type = contentType.lowercased()
            if type.contains("json") {
                if let example { body = .json(example) }
                if type != "application/json" { headers.append(KeyValue("Content-Type", contentType)) }
            } else if type.contains("x-www-form-urlencoded") {
                if case .object(let pairs)? = example {
                    body = .form(pairs.map { KeyValue($0.key, Self.flat($0.value)) })
                }
            } else if type.contains("multipart/form-data") {
                if case .object(let pairs)? = example {
                    body = .multipart(pairs.map { MultipartField(name: $0.key, value: Self.flat($0.value)) })
                }
            } else if let example, example != .string(""), example != .null {
                body = .raw(Self.flat(example))
                headers.append(KeyValue("Content-Type", contentType))
            }
        }
        let title =
            operation.operation["summary"]?.stringValue ?? operation.operationID
            ?? "\(method.rawValue) \(operation.path)"
        let name = title.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "/", with: "∕")
            .trimmingCharacters(in: .whitespaces)
        var endpoint = Endpoint(
            name: name.isEmpty ? "\(method.rawValue) \(path)" : name, method: method, path: path, query: query,
            headers: headers, body: body)
        endpoint.operation = operationName
        return endpoint
    }

    /// Adds what the operation's first security requirement needs: a header (or query item)
    /// holding a `{{variable}}` whose value defaults to `{{env.NAME}}` and is a secret.
    private func applySecurity(
        _ requirements: [JSONValue], to endpoint: inout Endpoint, lookup: inout ComponentLookup,
        credentials: inout [KeyValue], warnings: inout [String]
    ) {
        guard let requirement = requirements.first?.members else { return }
        func credential(_ name: String, _ environmentName: String) -> String {
            if credentials[named: name] == nil { credentials.append(KeyValue(name, "{{env.\(environmentName)}}")) }
            return "{{\(name)}}"
        }
        for schemeName in requirement.map(\.key).sorted() {
            let reference = "#/components/securitySchemes/" + JSONPointer.escape(schemeName)
            guard
                let scheme = lookup.resolved(
                    .object([(key: "$ref", value: .string(reference))]), at: endpoint.operation ?? endpoint.name)
            else { continue }
            switch scheme["type"]?.stringValue {
            case "apiKey":
                guard let name = scheme["name"]?.stringValue, !name.isEmpty else { continue }
                let value = credential("api_key", "API_KEY")
                switch scheme["in"]?.stringValue {
                case "header":
                    if !endpoint.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                        endpoint.headers.append(KeyValue(name, value))
                    }
                case "query":
                    if endpoint.query[named: name] == nil { endpoint.query.append(KeyValue(name, value)) }
                case "cookie":
                    endpoint.headers.append(KeyValue("Cookie", "\(name)=\(value)"))
                default:
                    break
                }
            case "http":
                if scheme["scheme"]?.stringValue?.lowercased() == "basic" {
                    endpoint.headers.set("Authorization", "Basic " + credential("basic_auth", "API_BASIC_AUTH"))
                } else {
                    endpoint.headers.set("Authorization", "Bearer " + credential("token", "API_TOKEN"))
                }
            case "oauth2", "openIdConnect":
                endpoint.headers.set("Authorization", "Bearer " + credential("token", "API_TOKEN"))
            case "mutualTLS":
                warnings.append("The security scheme \(schemeName) (mutual TLS) is not imported.")
            default:
                warnings.append(
                    "The security scheme \(schemeName) has no type explorer knows "
                        + "(\(scheme["type"]?.serialized() ?? "none")); it is not imported."
                )
            }
        }
    }
}
