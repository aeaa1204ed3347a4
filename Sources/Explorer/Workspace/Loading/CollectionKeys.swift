import NetworkingCore
import Yams

extension CollectionLoader {
    /// The keys a collection file may have at the top.
    static let topLevelKeys = [
        "name", "description", "openapi", "protoset", "protos",
        "validate", "variables", "auth", "allow_insecure_redirects", "compare",
        "environments", "endpoints", "trace",
    ]
    /// The keys of an environment.
    static let environmentKeys = [
        "name", "description", "base_url", "protected", "variables", "headers", "secrets", "auth", "cookies", "tls",
        "proxy",
        "allow_insecure_redirects", "follow_redirects", "resolve", "proxy_tunnel", "trace",
    ]
    /// The keys of an endpoint.
    static let endpointKeys = [
        "name", "description", "operation", "method", "path", "query", "headers", "json", "body", "form", "multipart",
        "disabled",
        "capture", "assert", "retry", "requires", "auth", "graphql", "follow_redirects",
        "websocket", "messages", "tags", "trace",
    ]
    /// The keys of an endpoint that `readChecks` reads.
    static let checkingKeys = ["capture", "assert", "retry", "requires"]
    /// The keys of an endpoint's `disabled:` (rows switched off).
    static let disabledKeys = ["query", "headers", "form", "multipart"]
    /// The keys of a folder.
    static let folderKeys = ["folder", "description", "auth", "endpoints", "tags"]
    /// The keys an `auth:` of each type may have, besides `type`.
    static let authKeys: [String: [String]] = [
        "basic": ["username", "password"], "digest": ["username", "password"], "bearer": ["token"],
        "api_key": ["name", "value", "in"], "oauth2": OAuth2Settings.keys, "aws_sigv4": AWSSigV4Settings.keys,
        "oauth1": OAuth1Settings.keys, "none": [],
    ]

    /// The keys of an environment's `tls:`.
    static let tlsKeys = ["ca_cert", "client_cert", "client_key", "client_key_password", "insecure", "min_version"]
    /// The keys of a `proxy:` written as a mapping.
    static let proxyKeys = ["url", "user", "password", "no_proxy"]
    /// The keys of a `multipart:` part written as a mapping.
    static let multipartPartKeys = ["value", "file", "filename", "type"]
    /// The keys of an endpoint's `retry:`.
    static let retryKeys = ["count", "interval"]
    /// The keys of a `requires:` entry written as a mapping.
    static let requirementKeys = ["endpoint", "max_age"]
    /// The keys of an endpoint's `body:` written as a mapping (a file's bytes).
    static let bodyFileKeys = ["file"]
    /// The keys of a WebSocket endpoint's saved message written as a mapping.
    static let webSocketMessageKeys = ["name", "text", "json"]

    /// Every mapping of a collection file whose keys the loader knows, by its place in the
    /// file, with those keys: the lists the loader checks keys against, so that a test can hold
    /// `schema/collection.schema.json` to them. An `auth` of each type is `auth.TYPE`.
    package static let acceptedKeys: [String: [String]] = {
        var places: [String: [String]] = [
            "collection": topLevelKeys,
            "compare": compareKeys,
            "environment": environmentKeys,
            "environment.tls": tlsKeys,
            "environment.proxy": proxyKeys,
            "folder": folderKeys,
            "endpoint": endpointKeys + grpcEndpointKeys,
            "protos": protosKeys,
            "endpoint.body": bodyFileKeys,
            "endpoint.disabled": disabledKeys,
            "endpoint.graphql": GraphQLOperation.keys,
            "endpoint.capture": Capture.keys,
            "endpoint.retry": retryKeys,
            "endpoint.requires": requirementKeys,
            "multipart part": multipartPartKeys,
            "endpoint.messages": webSocketMessageKeys,
        ]
        for (type, keys) in authKeys { places["auth.\(type)"] = ["type"] + keys }
        return places
    }()

    /// The value a collection file's YAML is, read as the loader reads it (within the document
    /// limits, `<<` merge keys applied, plain scalars by their tag), for checking a collection
    /// against the schema.
    ///
    /// - Throws: `CollectionError.malformedYAML`.
    package static func yamlValue(of text: String, file: String = "<collection>") throws -> JSONValue {
        let root: Node?
        do {
            root = try BoundedYAML.compose(text, file: file)
        } catch let error as YamlError {
            throw Reader(file: file).malformed(error)
        } catch let error as DocumentLimitError {
            throw CollectionError.malformedYAML(error.location, problem: "\(error.problem). \(error.advice)")
        }
        return root.map { JSONValue(yaml: Reader.resolvingMergeKeys($0)) } ?? .null
    }
}
