import NetworkingCore
import Query
import Yams

extension CollectionLoader {
    /// The keys of a gRPC endpoint besides those every endpoint has.
    static let grpcEndpointKeys = ["grpc", "server", "message", "messages", "metadata", "timeout", "max_message_size"]
    /// The keys of the collection's `protos:`.
    static let protosKeys = ["files", "import_paths"]
    /// The keys an HTTP endpoint has that a gRPC call has no use for, with what to write instead.
    static let keysNotForGRPC: [String: String] = [
        "method": "a gRPC call's method is its grpc: name",
        "path": "a gRPC call's path is its grpc: name (and server: its server)",
        "query": "gRPC has no query; put the values in the message",
        "headers": "write gRPC metadata under metadata:",
        "json": "write the request under message:", "body": "write the request under message:",
        "form": "write the request under message:", "multipart": "write the request under message:",
        "graphql": "an endpoint is either a GraphQL query or a gRPC call",
        "websocket": "an endpoint is either a WebSocket or a gRPC call",
        "follow_redirects": "gRPC calls are not redirected", "disabled": "gRPC endpoints have no rows to switch off",
    ]
}

extension Reader {
    /// A gRPC endpoint: `grpc:` names the method, `message:` or `messages:` the request,
    /// `metadata:` the metadata, `server:` a server other than the environment's.
    ///
    /// - Parameters:
    ///   - mapping: the endpoint's keys.
    ///   - node: the endpoint's node, for its place.
    ///   - name: its name.
    ///   - folderPath: the folders it is in.
    /// - Throws: `CollectionError` at the line and column of the value at fault.
    mutating func grpcEndpoint(_ mapping: Node.Mapping, node: Node, name: String, folderPath: [String]) throws
        -> Endpoint
    {
        let methodNode = mapping.value("grpc")!
        let method = try string(methodNode, key: "grpc").trimmingCharacters(in: .whitespaces)
        guard GRPCSettings.isMethodName(method) else {
            throw CollectionError.wrongType(
                location(methodNode), key: "grpc",
                expected: "a method as package.Service/Method (not \"\(method)\")")
        }
        for (key, advice) in CollectionLoader.keysNotForGRPC.sorted(by: { $0.key < $1.key }) {
            if let keyNode = mapping.keys.first(where: { $0.string == key }) {
                throw CollectionError.invalidCheck(
                    location(keyNode), key: key, endpoint: name,
                    problem: "\(key): is not for a gRPC endpoint: \(advice).")
            }
        }
        var locations: [String: FileLocation] = ["grpc": location(methodNode), "path": location(methodNode)]
        var settings = GRPCSettings(method: method.hasPrefix("/") ? String(method.dropFirst()) : method)
        if let serverNode = mapping.value("server") {
            let server = try string(serverNode, key: "server").trimmingCharacters(in: .whitespaces)
            if !Template.containsVariables(server) && !Endpoint.isGRPCURL(server) {
                throw CollectionError.wrongType(
                    location(serverNode), key: "server",
                    expected: "a gRPC server as grpc://host:port or grpcs://host:port (not \"\(server)\")")
            }
            settings.server = server
            locations["path"] = location(serverNode)
        }
        switch (mapping.value("message"), mapping.value("messages")) {
        case (let one?, nil):
            settings.messages = [try message(one, key: "message")]
            locations["body"] = location(one)
        case (nil, let many?):
            guard case .sequence(let sequence) = many else {
                throw CollectionError.wrongType(
                    location(many), key: "messages", expected: "a list of messages, each a mapping of its fields")
            }
            settings.messages = try sequence.map { try message($0, key: "messages") }
            settings.writtenAsList = true
            locations["body"] = location(many)
        case (let one?, _?):
            throw CollectionError.invalidCheck(
                location(one), key: "message", endpoint: name,
                problem: "write either message: (one request) or messages: (a stream), not both.")
        case (nil, nil):
            break
        }
        if let timeoutNode = mapping.value("timeout") {
            let text = try string(timeoutNode, key: "timeout")
            guard let seconds = DurationText.seconds(text, bareUnit: 1), seconds > 0 else {
                throw CollectionError.wrongType(
                    location(timeoutNode), key: "timeout",
                    expected: "a deadline such as 500ms, 5s or 2m (a bare number is seconds), not \"\(text)\"")
            }
            settings.timeout = seconds
        }
        if let sizeNode = mapping.value("max_message_size") {
            let text = try string(sizeNode, key: "max_message_size")
            guard let bytes = LimitSetting.size(text) else {
                throw CollectionError.wrongType(
                    location(sizeNode), key: "max_message_size",
                    expected: "a number of bytes such as 4194304, 512K or 16M, not \"\(text)\"")
            }
            settings.maximumMessageSize = bytes
        }
        let metadata = try mapping.value("metadata").map { try locatedPairs($0, key: "metadata") } ?? []
        for (index, entry) in metadata.enumerated() { locations["headers[\(index)]"] = entry.location }
        var endpoint = Endpoint(
            name: name, folderPath: folderPath, method: .post, path: settings.path, headers: metadata.map(\.pair),
            location: location(node),
            description: try mapping.value("description").map { try string($0, key: "description") })
        endpoint.grpc = settings
        endpoint.operation = try mapping.value("operation").map { try string($0, key: "operation") }
        endpoint.tags = try mapping.value("tags").map { try tags($0) } ?? []
        if let auth = mapping.value("auth") {
            endpoint.auth = try authentication(auth, in: "endpoint \"\(name)\"")
            locations["auth"] = location(auth)
        }
        endpoint.locations = locations
        try readChecks(mapping, into: &endpoint)
        return endpoint
    }

    /// One request message: a mapping of its fields (proto3 JSON names or the .proto's).
    private func message(_ node: Node, key: String) throws -> JSONValue {
        guard case .mapping = node else {
            throw CollectionError.wrongType(
                location(node), key: key, expected: "a message: a mapping of its fields ({} for an empty one)")
        }
        return JSONValue(yaml: node)
    }

    /// The collection's `protoset:` and `protos:`.
    ///
    /// - Throws: `CollectionError.wrongType` at a value of the wrong shape.
    mutating func grpcSchemaFiles(_ mapping: Node.Mapping) throws -> GRPCSchemaFiles {
        var files = GRPCSchemaFiles()
        files.descriptorSet = try mapping.value("protoset").map { try string($0, key: "protoset") }
        guard let protos = mapping.value("protos") else { return files }
        let expected = "a mapping with files (a list of .proto files) and import_paths (a list of folders)"
        guard case .mapping(let protosMapping) = protos else {
            throw CollectionError.wrongType(location(protos), key: "protos", expected: expected)
        }
        checkKeys(protosMapping, known: CollectionLoader.protosKeys, in: "protos")
        func list(_ key: String) throws -> [String] {
            guard let node = protosMapping[key] else { return [] }
            if case .scalar = node { return [try string(node, key: "protos.\(key)")] }
            guard case .sequence(let sequence) = node else {
                throw CollectionError.wrongType(location(node), key: "protos.\(key)", expected: expected)
            }
            return try sequence.map { try string($0, key: "protos.\(key)") }
        }
        files.protoFiles = try list("files")
        files.importPaths = try list("import_paths")
        if files.protoFiles.isEmpty {
            throw CollectionError.missingKey(location(protos), key: "files", in: "protos")
        }
        return files
    }
}

extension CollectionWriter {
    /// A gRPC endpoint's own keys, as the loader reads them.
    static func grpcPairs(_ endpoint: Endpoint) -> [(Node, Node)] {
        guard let settings = endpoint.grpc else { return [] }
        var pairs: [(Node, Node)] = [("grpc", scalar(settings.method))]
        if let server = settings.server { pairs.append(("server", scalar(server))) }
        if settings.writtenAsList || settings.messages.count != 1 {
            pairs.append(("messages", Node(settings.messages.map(jsonNode), .implicit)))
        } else if let message = settings.messages.first, message != .object([]) {
            pairs.append(("message", jsonNode(message)))
        }
        if !endpoint.headers.isEmpty { pairs.append(("metadata", mapping(endpoint.headers, caseInsensitive: true))) }
        if let timeout = settings.timeout { pairs.append(("timeout", scalar(DurationText.format(timeout)))) }
        if let bytes = settings.maximumMessageSize { pairs.append(("max_message_size", scalar(byteText(bytes)))) }
        return pairs
    }

    /// A size as `max_message_size:` takes it: in the largest binary unit that keeps it whole.
    private static func byteText(_ bytes: Int) -> String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }

    /// The collection's `protoset:` and `protos:`.
    static func grpcSchemaPairs(_ files: GRPCSchemaFiles) -> [(Node, Node)] {
        var pairs: [(Node, Node)] = []
        if let descriptorSet = files.descriptorSet { pairs.append(("protoset", scalar(descriptorSet))) }
        guard !files.protoFiles.isEmpty else { return pairs }
        var protos: [(Node, Node)] = [("files", Node(files.protoFiles.map { scalar($0) }, .implicit, .flow))]
        if !files.importPaths.isEmpty {
            protos.append(("import_paths", Node(files.importPaths.map { scalar($0) }, .implicit, .flow)))
        }
        pairs.append(("protos", keyed(protos)))
        return pairs
    }
}
