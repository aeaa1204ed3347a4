import Foundation
import NetworkingCore
import Yams

/// Walks the YAML nodes of one file, collecting warnings.
struct Reader {
    let file: String
    var warnings: [CollectionWarning] = []
    /// The file's text, for the column a block scalar's text starts at (a `graphql` query).
    var source = ""

    init(file: String) { self.file = file }

    func location(_ node: Node?) -> FileLocation {
        let mark = node?.mark
        return FileLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func malformed(_ error: YamlError) -> CollectionError {
        .malformedYAML(FileLocation(file: file, line: error.line, column: error.column), problem: error.problem)
    }

    /// Whether a byte may be part of an HTTP method (RFC 9110's token: ASCII letters and
    /// digits and ``!#$%&'*+-.^_`|~``).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Applies YAML merge keys (`<<: *defaults`): the merged mapping's pairs are added where
    /// the mapping does not set the key itself. A tree without any is returned as it is (not
    /// rebuilt: most files have none).
    static func resolvingMergeKeys(_ node: Node) -> Node {
        containsMergeKey(node) ? mergingKeys(node) : node
    }

    private static func containsMergeKey(_ node: Node) -> Bool {
        switch node {
        case .mapping(let mapping): mapping.contains { $0.key.scalar?.string == "<<" || containsMergeKey($0.value) }
        case .sequence(let sequence): sequence.contains(where: containsMergeKey)
        default: false
        }
    }

    private static func mergingKeys(_ node: Node) -> Node {
        switch node {
        case .mapping(let mapping):
            var own: [(Node, Node)] = []
            var merged: [(Node, Node)] = []
            for (key, value) in mapping {
                if key.string == "<<" {
                    let sources: [Node]
                    if case .sequence(let sequence) = value { sources = Array(sequence) } else { sources = [value] }
                    for case .mapping(let source) in sources.map(mergingKeys) {
                        merged += source.map { ($0.key, $0.value) }
                    }
                } else {
                    own.append((key, mergingKeys(value)))
                }
            }
            let ownKeys = Set(own.compactMap { $0.0.string })
            var seen: Set<String> = []
            let inherited = merged.filter { pair in
                guard let name = pair.0.string else { return false }
                return !ownKeys.contains(name) && seen.insert(name).inserted
            }
            return .mapping(Node.Mapping(inherited + own, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map(mergingKeys), sequence.tag, sequence.style, sequence.mark))
        default:
            return node
        }
    }

    mutating func checkKeys(_ mapping: Node.Mapping, known: [String], in container: String) {
        // By index: iterating a mapping copies all its pairs into a new array first.
        for index in mapping.indices {
            let key = mapping[index].key
            // `x-` keys are extensions a user may keep (anchors for `<<` merges, notes).
            guard let name = key.string, !known.contains(name), !name.hasPrefix("x-") else { continue }
            let suggestions = Suggestions.closest(to: name, in: known, limit: 1)
            let hint = suggestions.isEmpty ? "" : "; did you mean \"\(suggestions[0])\"?"
            warnings.append(
                CollectionWarning(
                    location: location(key), message: "unknown key \"\(name)\" in \(container) is ignored\(hint)"))
        }
    }

    /// The error for a required `key` missing from `mapping`, naming the unknown key of the
    /// mapping that is most likely it misspelled (`paht` for `path`).
    func missing(_ key: String, in container: String, node: Node, mapping: Node.Mapping, known: [String])
        -> CollectionError
    {
        for (keyNode, _) in mapping {
            guard let name = keyNode.string, !known.contains(name), !name.hasPrefix("x-"),
                !Suggestions.closest(to: name, in: [key], limit: 1).isEmpty
            else { continue }
            return .missingKey(location(node), key: key, in: container, typo: name, typoLine: location(keyNode).line)
        }
        return .missingKey(location(node), key: key, in: container)
    }

    /// A `true`/`false` value.
    func flag(_ node: Node, key: String) throws -> Bool {
        guard let flag = node.flag else {
            throw CollectionError.wrongType(location(node), key: key, expected: "true or false")
        }
        return flag
    }

    func string(_ node: Node, key: String) throws -> String {
        guard case .scalar(let scalar) = node else {
            throw CollectionError.wrongType(location(node), key: key, expected: "a text value")
        }
        return scalar.string
    }

    func pairs(_ node: Node, key: String) throws -> [KeyValue] {
        try locatedPairs(node, key: key).map(\.pair)
    }

    /// A mapping of names to text values, or the list form (`- name: value`, one pair per
    /// item) that can repeat a name, with where each value is written.
    func locatedPairs(_ node: Node, key: String) throws -> [(pair: KeyValue, location: FileLocation)] {
        try entries(node, key: key).map { entry in
            guard case .scalar(let scalar) = entry.value else {
                throw CollectionError.wrongType(
                    location(entry.value), key: "\(key).\(entry.name)", expected: "a text value")
            }
            let value = entry.value.null != nil && scalar.style == .plain && scalar.string != "" ? "" : scalar.string
            return (KeyValue(entry.name, value), location(entry.value))
        }
    }

    /// The named entries of a mapping, or of the list form (a sequence of one-pair mappings).
    func entries(_ node: Node, key: String) throws -> [(name: String, value: Node)] {
        if case .scalar(let scalar) = node, node.null != nil || scalar.string.isEmpty { return [] }
        switch node {
        case .mapping(let mapping):
            return try mapping.map { (try string($0.key, key: key), $0.value) }
        case .sequence(let sequence):
            return try sequence.map { item in
                guard case .mapping(let mapping) = item, mapping.count == 1, let pair = mapping.first else {
                    throw CollectionError.wrongType(
                        location(item), key: key,
                        expected: "a mapping of names to values, or a list of one-pair mappings (- name: value)")
                }
                return (try string(pair.key, key: key), pair.value)
            }
        default:
            throw CollectionError.wrongType(
                location(node), key: key,
                expected: "a mapping of names to values, or a list of one-pair mappings (- name: value)")
        }
    }

    mutating func items(_ node: Node, folderPath: [String], seen: inout [String: Int]) throws -> [CollectionItem] {
        if node.null != nil { return [] }
        guard case .sequence(let sequence) = node else {
            throw CollectionError.wrongType(
                location(node), key: "endpoints", expected: "a list of endpoints and folders")
        }
        var items: [CollectionItem] = []
        for element in sequence {
            guard case .mapping(let mapping) = element else {
                throw CollectionError.wrongType(
                    location(element), key: "endpoints", expected: "a list of mappings (an endpoint or a folder)")
            }
            if let folderNode = mapping.value("folder") {
                let name = try string(folderNode, key: "folder")
                checkKeys(mapping, known: CollectionLoader.folderKeys, in: "folder \"\(name)\"")
                var children: [CollectionItem] = []
                let auth = try mapping.value("auth").map { try authentication($0, in: "folder \"\(name)\"") }
                let tags = try mapping.value("tags").map { try self.tags($0) } ?? []
                if let childNode = mapping.value("endpoints") {
                    children = try self.items(childNode, folderPath: folderPath + [name], seen: &seen)
                }
                // Two blocks of the same folder are merged, in order.
                if let index = items.firstIndex(where: {
                    if case .folder(let f) = $0 { return f.name == name } else { return false }
                }),
                    case .folder(var folder) = items[index]
                {
                    folder.items += children
                    folder.auth = folder.auth ?? auth
                    folder.tags += tags.filter { !folder.tags.contains($0) }
                    items[index] = .folder(folder)
                } else {
                    items.append(
                        .folder(
                            Folder(
                                name: name, items: children,
                                description: try mapping.value("description").map {
                                    try string($0, key: "description")
                                },
                                auth: auth, tags: tags)))
                }
            } else {
                let endpoint = try self.endpoint(mapping, node: element, folderPath: folderPath)
                if let first = seen[endpoint.id] {
                    throw CollectionError.duplicateEndpoint(location(element), id: endpoint.id, firstLine: first)
                }
                seen[endpoint.id] = location(element).line
                items.append(.endpoint(endpoint))
            }
        }
        return items
    }

    mutating func endpoint(_ mapping: Node.Mapping, node: Node, folderPath: [String]) throws -> Endpoint {
        // Its keys read once: each lookup in the mapping itself copies the pairs it passes.
        let fields = mapping.fields
        guard let nameNode = fields.value("name") else {
            throw missing(
                "name", in: "this endpoint (or \"folder\" for a folder)", node: node, mapping: mapping,
                known: CollectionLoader.endpointKeys)
        }
        let name = try string(nameNode, key: "name")
        if fields.value("grpc") != nil {
            checkKeys(
                mapping, known: CollectionLoader.endpointKeys + CollectionLoader.grpcEndpointKeys,
                in: "endpoint \"\(name)\"")
            return try grpcEndpoint(mapping, node: node, name: name, folderPath: folderPath)
        }
        checkKeys(mapping, known: CollectionLoader.endpointKeys, in: "endpoint \"\(name)\"")
        var locations: [String: FileLocation] = [:]
        // GraphQL over HTTP's default is POST with a JSON body; GET only when written.
        var method = fields.value("graphql") != nil ? HTTPMethod.post : .get
        if let methodNode = fields.value("method") {
            let written = try string(methodNode, key: "method")
            // A method written as a token (all of them, nearly) has no blank to trim.
            let token =
                written.utf8.allSatisfy(Self.isTokenByte)
                ? written : written.trimmingCharacters(in: .whitespaces)
            guard !token.isEmpty, token.utf8.allSatisfy(Self.isTokenByte) else {
                throw CollectionError.invalidMethod(location(methodNode), method: token)
            }
            // Methods are case-sensitive: sent exactly as written (curl's -X wHat sends wHat).
            method = HTTPMethod(exactly: token)
            let standard = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
            if token != token.uppercased(), standard.contains(token.uppercased()) {
                warnings.append(
                    CollectionWarning(
                        location: location(methodNode),
                        message:
                            "the method \"\(token)\" of endpoint \"\(name)\" is sent as written (methods are case-sensitive); write \(token.uppercased()) for the standard one"
                    ))
            }
            locations["method"] = location(methodNode)
        }
        guard let pathNode = fields.value("path") else {
            throw missing(
                "path", in: "endpoint \"\(name)\"", node: node, mapping: mapping, known: CollectionLoader.endpointKeys)
        }
        locations["path"] = location(pathNode)
        let bodyKeys = ["json", "body", "form", "multipart", "graphql"].filter { fields.value($0) != nil }
        if bodyKeys.count > 1 {
            throw CollectionError.conflictingBodies(location(node), endpoint: name)
        }
        var body: EndpointBody?
        if let json = fields.value("json") {
            body = .json(JSONValue(yaml: json))
            locations["body"] = location(json)
        } else if let raw = fields.value("body") {
            locations["body"] = location(raw)
            if case .mapping(let fileMapping) = raw {
                guard fileMapping.count == 1, let file = fileMapping[CollectionLoader.bodyFileKeys[0]] else {
                    throw CollectionError.wrongType(
                        location(raw), key: "body", expected: "text, or a mapping with only \"file\" (a path)")
                }
                body = .file(try string(file, key: "body.file"))
            } else {
                body = .raw(try string(raw, key: "body"))
            }
        } else if let form = fields.value("form") {
            let located = try locatedPairs(form, key: "form")
            body = .form(located.map(\.pair))
            for (index, entry) in located.enumerated() { locations["form[\(index)]"] = entry.location }
        } else if let multipart = fields.value("multipart") {
            var parts: [MultipartField] = []
            for (index, entry) in try entries(multipart, key: "multipart").enumerated() {
                parts.append(try multipartField(entry.name, entry.value))
                locations["multipart[\(index)]"] = location(entry.value)
            }
            body = .multipart(parts)
        }
        let query = try fields.value("query").map { try locatedPairs($0, key: "query") } ?? []
        for (index, entry) in query.enumerated() { locations["query[\(index)]"] = entry.location }
        let headers = try fields.value("headers").map { try locatedPairs($0, key: "headers") } ?? []
        for (index, entry) in headers.enumerated() { locations["headers[\(index)]"] = entry.location }
        var endpoint = Endpoint(
            name: name,
            folderPath: folderPath,
            method: method,
            path: try string(pathNode, key: "path"),
            query: query.map(\.pair),
            headers: headers.map(\.pair),
            body: body,
            location: location(node),
            description: try fields.value("description").map { try string($0, key: "description") }
        )
        if let disabled = fields.value("disabled") {
            endpoint.disabled = try disabledRows(disabled, endpoint: name)
        }
        endpoint.operation = try fields.value("operation").map { try string($0, key: "operation") }
        endpoint.tags = try fields.value("tags").map { try tags($0) } ?? []
        if let auth = fields.value("auth") {
            endpoint.auth = try authentication(auth, in: "endpoint \"\(name)\"")
            locations["auth"] = location(auth)
        }
        if let follow = fields.value("follow_redirects") {
            endpoint.followRedirects = try flag(follow, key: "follow_redirects")
        }
        endpoint.traces = try fields.value("trace").map { try flag($0, key: "trace") }
        if let graphql = fields.value("graphql") {
            endpoint.graphql = try graphQLOperation(graphql, endpoint: name)
            locations["graphql"] = location(graphql)
            if let query = graphql.mapping?["query"] { locations["graphql.query"] = queryOrigin(query) }
        }
        endpoint.locations = locations
        if CollectionLoader.checkingKeys.contains(where: { fields.value($0) != nil }) {
            try readChecks(mapping, into: &endpoint)
        }
        try readWebSocket(mapping, into: &endpoint)
        return endpoint
    }

    /// An `auth:`: `none`, or a mapping with `type` (basic, bearer, digest, api_key, none) and
    /// the type's keys, each a text template.
    ///
    /// - Parameters:
    ///   - node: the value of `auth:`.
    ///   - container: what it belongs to, for messages (`endpoint "Login"`).
    /// - Throws: `CollectionError` at the line and column of the part to fix.
    mutating func authentication(_ node: Node, in container: String) throws -> Authentication {
        let expected = "none, or a mapping with type (\(Authentication.typeNames.joined(separator: ", "))) and its keys"
        if case .scalar(let scalar) = node, scalar.string == "none" {
            return Authentication(.none, location: location(node))
        }
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(location(node), key: "auth", expected: expected)
        }
        guard let typeNode = mapping.value("type") else {
            throw CollectionError.missingKey(location(node), key: "type", in: "the auth of \(container)")
        }
        let type = try string(typeNode, key: "auth.type")
        guard let keys = CollectionLoader.authKeys[type] else {
            let hint =
                Suggestions.closest(to: type, in: Authentication.typeNames, limit: 1).first.map {
                    "; did you mean \"\($0)\"?"
                } ?? ""
            throw CollectionError.wrongType(
                location(typeNode), key: "auth.type",
                expected: "one of \(Authentication.typeNames.joined(separator: ", ")) (not \"\(type)\")\(hint)")
        }
        checkKeys(mapping, known: ["type"] + keys, in: "the \(type) auth of \(container)")
        func required(_ key: String) throws -> String {
            guard let value = mapping[key] else {
                throw CollectionError.missingKey(location(node), key: key, in: "the \(type) auth of \(container)")
            }
            return try string(value, key: "auth.\(key)")
        }
        let scheme: Authentication.Scheme
        switch type {
        case "basic":
            scheme = .basic(
                username: try required("username"),
                password: try mapping.value("password").map { try string($0, key: "auth.password") } ?? "")
        case "digest": scheme = .digest(username: try required("username"), password: try required("password"))
        case "bearer": scheme = .bearer(token: try required("token"))
        case "oauth2": scheme = .oauth2(try oauth2Settings(mapping, node: node, in: container))
        case "aws_sigv4": scheme = .awsSigV4(try awsSigV4Settings(mapping, node: node, in: container))
        case "oauth1": scheme = .oauth1(try oauth1Settings(mapping, node: node, in: container))
        case "api_key":
            var placement = Authentication.KeyPlacement.header
            if let inNode = mapping.value("in") {
                let text = try string(inNode, key: "auth.in")
                guard let found = Authentication.KeyPlacement(rawValue: text) else {
                    throw CollectionError.wrongType(
                        location(inNode), key: "auth.in", expected: "header or query (not \"\(text)\")")
                }
                placement = found
            }
            let name = try required("name")
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CollectionError.wrongType(
                    location(mapping.value("name")), key: "auth.name",
                    expected: "the name of the header or query item that carries the key")
            }
            scheme = .apiKey(name: name, value: try required("value"), placement: placement)
        default: scheme = .none
        }
        return Authentication(scheme, location: location(node))
    }

    /// An `auth: { type: oauth2, … }`: a known `grant` (did-you-mean otherwise), `token_url`,
    /// `client_id` and the keys the grant needs, `client_auth` basic or body.
    ///
    /// - Throws: `CollectionError` at the line and column of the part to fix.
    mutating func oauth2Settings(_ mapping: Node.Mapping, node: Node, in container: String) throws -> OAuth2Settings {
        var values: [String: String] = [:]
        for key in OAuth2Settings.keys {
            if let value = mapping[key] { values[key] = try string(value, key: "auth.\(key)") }
        }
        let grant = values["grant"] ?? "client_credentials"
        guard let needed = OAuth2Settings.requiredKeys[grant] else {
            let hint =
                Suggestions.closest(to: grant, in: OAuth2Settings.grantNames, limit: 1).first.map {
                    "; did you mean \"\($0)\"?"
                } ?? ""
            throw CollectionError.wrongType(
                location(mapping.value("grant")), key: "auth.grant",
                expected: "one of \(OAuth2Settings.grantNames.joined(separator: ", ")) (not \"\(grant)\")\(hint)")
        }
        for key in ["token_url", "client_id"] + needed where values[key] == nil {
            throw CollectionError.missingKey(location(node), key: key, in: "the oauth2 \(grant) auth of \(container)")
        }
        if let clientAuth = values["client_auth"], OAuth2Configuration.ClientAuthentication(rawValue: clientAuth) == nil
        {
            throw CollectionError.wrongType(
                location(mapping.value("client_auth")), key: "auth.client_auth",
                expected: "basic or body (not \"\(clientAuth)\")")
        }
        values["grant"] = grant
        return OAuth2Settings(values)
    }

    /// An endpoint's `disabled:`: the rows switched off, in the forms of `query`, `headers`,
    /// `form` and `multipart`.
    mutating func disabledRows(_ node: Node, endpoint name: String) throws -> DisabledRows {
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(
                location(node), key: "disabled",
                expected: "a mapping of query, headers, form or multipart rows switched off")
        }
        checkKeys(mapping, known: CollectionLoader.disabledKeys, in: "disabled of endpoint \"\(name)\"")
        var rows = DisabledRows()
        rows.query = try mapping.value("query").map { try locatedPairs($0, key: "disabled.query").map(\.pair) } ?? []
        rows.headers =
            try mapping.value("headers").map { try locatedPairs($0, key: "disabled.headers").map(\.pair) } ?? []
        rows.form = try mapping.value("form").map { try locatedPairs($0, key: "disabled.form").map(\.pair) } ?? []
        rows.multipart =
            try mapping.value("multipart").map { parts in
                try entries(parts, key: "disabled.multipart").map { try multipartField($0.name, $0.value) }
            } ?? []
        return rows
    }

    /// One `multipart:` part: `text`, `@path`, or a mapping with `value` or `file` and
    /// optional `filename` and `type`.
    func multipartField(_ name: String, _ node: Node) throws -> MultipartField {
        switch node {
        case .scalar(let scalar):
            let value = node.null != nil && scalar.style == .plain && scalar.string != "" ? "" : scalar.string
            return value.hasPrefix("@")
                ? MultipartField(name: name, value: String(value.dropFirst()), isFile: true)
                : MultipartField(name: name, value: value)
        case .mapping(let mapping):
            let known = CollectionLoader.multipartPartKeys
            if let unknown = mapping.compactMap({ $0.key.string }).first(where: { !known.contains($0) }) {
                throw CollectionError.wrongType(
                    location(node), key: "multipart.\(name)",
                    expected: "a mapping of value or file, filename and type (not \"\(unknown)\")")
            }
            let file = try mapping.value("file").map { try string($0, key: "multipart.\(name).file") }
            let value = try mapping.value("value").map { try string($0, key: "multipart.\(name).value") }
            guard (file == nil) != (value == nil) else {
                throw CollectionError.wrongType(
                    location(node), key: "multipart.\(name)", expected: "a mapping with exactly one of value and file")
            }
            return MultipartField(
                name: name, value: file ?? value ?? "", isFile: file != nil,
                filename: try mapping.value("filename").map { try string($0, key: "multipart.\(name).filename") },
                contentType: try mapping.value("type").map { try string($0, key: "multipart.\(name).type") })
        default:
            throw CollectionError.wrongType(
                location(node), key: "multipart.\(name)",
                expected: "text, @path, or a mapping of value or file, filename and type")
        }
    }
}
