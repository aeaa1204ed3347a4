import Foundation
import NetworkingCore
import Yams

/// Writes a collection as YAML in the format `CollectionLoader` reads.
///
/// What is written is the collection as the user wrote it: templates stay templates, so a
/// secret held in `{{env.TOKEN}}` or a `.env` file is never written out. Key order follows the
/// format's documentation; mappings keep the collection's order. Comments cannot be written
/// back (the YAML library drops them when it reads): changes to one endpoint go through
/// `CollectionSource`, which writes only that endpoint's lines.
package enum CollectionWriter {
    /// The collection as YAML text.
    ///
    /// - Throws: an emitter error from the YAML library (not expected for collection values).
    package static func yaml(for collection: APICollection) throws -> String {
        try yaml(of: node(for: collection))
    }

    /// A collection's YAML document tree (`node(for:)`) as text.
    ///
    /// The text is the YAML library's own (`yamsText(of:)`), written by `CollectionYAMLEmitter`
    /// in a fraction of the time; a tree it does not cover is written by the library.
    ///
    /// - Throws: an emitter error from the YAML library (not expected for collection values).
    package static func yaml(of node: Node) throws -> String {
        try CollectionYAMLEmitter.text(of: node) ?? yamsText(of: node)
    }

    /// A YAML document tree as the YAML library writes it, with the options `yaml(of:)` follows.
    ///
    /// - Throws: an emitter error from the YAML library.
    static func yamsText(of node: Node) throws -> String {
        try Yams.serialize(node: node, indent: 2, width: -1, allowUnicode: true)
    }

    /// The collection as a YAML document tree, before it is written out.
    package static func node(for collection: APICollection) -> Node {
        var root: [(Node, Node)] = [("name", scalar(collection.name))]
        if let description = collection.description { root.append(("description", scalar(description))) }
        if let openAPI = collection.openAPI { root.append(("openapi", scalar(openAPI))) }
        root += grpcSchemaPairs(collection.grpcSchema)
        if collection.validatesResponses { root.append(("validate", Node("true", .implicit, .plain))) }
        if collection.traces { root.append(("trace", Node("true", .implicit, .plain))) }
        if !collection.variables.isEmpty { root.append(("variables", mapping(collection.variables))) }
        if let auth = collection.auth { root.append(("auth", authNode(auth))) }
        if collection.allowsInsecureRedirects {
            root.append(("allow_insecure_redirects", Node("true", .implicit, .plain)))
        }
        if !collection.compareRules.isEmpty { root.append(("compare", compareNode(collection.compareRules))) }
        if !collection.environments.isEmpty {
            root.append(("environments", Node(collection.environments.map(environmentNode), .implicit)))
        }
        root.append(("endpoints", Node(collection.items.map(itemNode), .implicit)))
        return keyed(root)
    }

    /// One environment as a YAML mapping.
    static func environmentNode(_ environment: Environment) -> Node {
        var pairs: [(Node, Node)] = [("name", scalar(environment.name))]
        if let summary = environment.summary { pairs.append(("description", scalar(summary))) }
        pairs.append(("base_url", scalar(environment.baseURLTemplate)))
        if environment.isProtected { pairs.append(("protected", Node("true", .implicit, .plain))) }
        if !environment.variables.isEmpty { pairs.append(("variables", mapping(environment.variables))) }
        if !environment.headers.isEmpty { pairs.append(("headers", mapping(environment.headers))) }
        if !environment.secrets.isEmpty {
            pairs.append(("secrets", Node(environment.secrets.map { scalar($0) }, .implicit, .flow)))
        }
        if let auth = environment.auth { pairs.append(("auth", authNode(auth))) }
        if !environment.keepsCookies { pairs.append(("cookies", Node("false", .implicit, .plain))) }
        if let allowed = environment.insecureRedirects {
            pairs.append(("allow_insecure_redirects", Node(allowed ? "true" : "false", .implicit, .plain)))
        }
        if let follow = environment.followRedirects {
            pairs.append(("follow_redirects", Node(follow ? "true" : "false", .implicit, .plain)))
        }
        if !environment.resolve.isEmpty { pairs.append(("resolve", mapping(environment.resolve))) }
        if let traces = environment.traces {
            pairs.append(("trace", Node(traces ? "true" : "false", .implicit, .plain)))
        }
        if environment.proxyTunnel { pairs.append(("proxy_tunnel", Node("true", .implicit, .plain))) }
        if let tls = environment.tls {
            var fields: [(String, Node)] = []
            if let file = tls.caCertificateFile { fields.append(("ca_cert", scalar(file))) }
            if let file = tls.clientCertificateFile { fields.append(("client_cert", scalar(file))) }
            if let file = tls.clientKeyFile { fields.append(("client_key", scalar(file))) }
            if let password = tls.clientKeyPassword { fields.append(("client_key_password", scalar(password))) }
            if tls.insecure { fields.append(("insecure", Node("true", .implicit, .plain))) }
            if let version = tls.minimumVersion { fields.append(("min_version", scalar(version.rawValue))) }
            pairs.append(("tls", Node(fields.map { (Node($0.0), $0.1) }, .implicit)))
        }
        switch environment.proxy {
        case nil: break
        case .none?: pairs.append(("proxy", Node("none", .implicit, .plain)))
        case .server(let proxy)? where proxy.isBareURL: pairs.append(("proxy", scalar(proxy.url)))
        case .server(let proxy)?:
            var fields: [(Node, Node)] = [("url", scalar(proxy.url))]
            if let user = proxy.user { fields.append(("user", scalar(user))) }
            if let password = proxy.password { fields.append(("password", scalar(password))) }
            if let noProxy = proxy.noProxy {
                fields.append(("no_proxy", Node(noProxy.map { scalar($0) }, .implicit, .flow)))
            }
            pairs.append(("proxy", keyed(fields)))
        }
        return keyed(pairs)
    }

    /// One endpoint or folder as a YAML mapping.
    package static func itemNode(_ item: CollectionItem) -> Node {
        switch item {
        case .folder(let folder):
            var pairs: [(Node, Node)] = [("folder", scalar(folder.name))]
            if let description = folder.description { pairs.append(("description", scalar(description))) }
            if let auth = folder.auth { pairs.append(("auth", authNode(auth))) }
            if !folder.tags.isEmpty { pairs.append(("tags", Node(folder.tags.map { scalar($0) }, .implicit, .flow))) }
            pairs.append(("endpoints", Node(folder.items.map(itemNode), .implicit)))
            return keyed(pairs)
        case .endpoint(let endpoint) where endpoint.isGRPC:
            var pairs: [(Node, Node)] = [("name", scalar(endpoint.name))]
            if let description = endpoint.description { pairs.append(("description", scalar(description))) }
            if !endpoint.tags.isEmpty {
                pairs.append(("tags", Node(endpoint.tags.map { scalar($0) }, .implicit, .flow)))
            }
            if let operation = endpoint.operation { pairs.append(("operation", scalar(operation))) }
            pairs += grpcPairs(endpoint)
            if let auth = endpoint.auth { pairs.append(("auth", authNode(auth))) }
            pairs += checkPairs(endpoint)
            return keyed(pairs)
        case .endpoint(let endpoint):
            var pairs: [(Node, Node)] = [("name", scalar(endpoint.name))]
            if let description = endpoint.description { pairs.append(("description", scalar(description))) }
            if !endpoint.tags.isEmpty {
                pairs.append(("tags", Node(endpoint.tags.map { scalar($0) }, .implicit, .flow)))
            }
            // Left out when it is the default the loader gives: POST for GraphQL, else GET.
            if endpoint.method != (endpoint.graphql != nil ? .post : .get) {
                pairs.append(("method", Node(endpoint.method.rawValue)))
            }
            pairs.append(("path", scalar(endpoint.path)))
            if let operation = endpoint.operation { pairs.append(("operation", scalar(operation))) }
            if !endpoint.query.isEmpty { pairs.append(("query", mapping(endpoint.query))) }
            if !endpoint.headers.isEmpty { pairs.append(("headers", mapping(endpoint.headers, caseInsensitive: true))) }
            switch endpoint.body {
            case nil: break
            case .json(let json): pairs.append(("json", jsonNode(json)))
            case .raw(let text): pairs.append(("body", scalar(text)))
            case .file(let path): pairs.append(("body", Node([(scalar("file"), scalar(path))], .implicit)))
            case .form(let fields): pairs.append(("form", mapping(fields)))
            case .multipart(let fields):
                pairs.append(("multipart", named(fields.map { ($0.name, multipartValue($0)) })))
            }
            if let graphql = endpoint.graphql { pairs.append(("graphql", graphQLNode(graphql))) }
            if !endpoint.disabled.isEmpty { pairs.append(("disabled", disabledNode(endpoint.disabled))) }
            if let auth = endpoint.auth { pairs.append(("auth", authNode(auth))) }
            if let follow = endpoint.followRedirects {
                pairs.append(("follow_redirects", Node(follow ? "true" : "false", .implicit, .plain)))
            }
            if let traces = endpoint.traces {
                pairs.append(("trace", Node(traces ? "true" : "false", .implicit, .plain)))
            }
            pairs += checkPairs(endpoint)
            pairs += webSocketPairs(endpoint)
            return keyed(pairs)
        }
    }

    /// An `auth:` as the loader reads it: `none`, or a mapping with `type` first. Its values
    /// are the templates the user wrote, so a `{{password}}` stays a reference.
    static func authNode(_ auth: Authentication) -> Node {
        var pairs: [(Node, Node)] = [("type", scalar(auth.typeName))]
        switch auth.scheme {
        case .none:
            return scalar("none")
        case .basic(let username, let password), .digest(let username, let password):
            pairs += [("username", scalar(username)), ("password", scalar(password))]
        case .bearer(let token):
            pairs.append(("token", scalar(token)))
        case .apiKey(let name, let value, let placement):
            pairs += [("name", scalar(name)), ("value", scalar(value)), ("in", scalar(placement.rawValue))]
        case .oauth2(let settings):
            pairs += OAuth2Settings.keys.compactMap { key in settings.values[key].map { (scalar(key), scalar($0)) } }
        case .awsSigV4(let settings):
            pairs += AWSSigV4Settings.textKeys.compactMap { key in
                settings.values[key].map { (scalar(key), scalar($0)) }
            }
            for (key, flag) in [("normalize_path", settings.normalizePath), ("sign_payload", settings.signPayload)] {
                if let flag { pairs.append((scalar(key), Node(flag ? "true" : "false", .implicit, .plain))) }
            }
        case .oauth1(let settings):
            pairs += OAuth1Settings.keys.compactMap { key in settings.values[key].map { (scalar(key), scalar($0)) } }
        }
        return keyed(pairs)
    }

    /// An endpoint's rows switched off, each table as `query`, `headers`, `form` and
    /// `multipart` are written.
    static func disabledNode(_ rows: DisabledRows) -> Node {
        var pairs: [(Node, Node)] = []
        if !rows.query.isEmpty { pairs.append(("query", mapping(rows.query))) }
        if !rows.headers.isEmpty { pairs.append(("headers", mapping(rows.headers, caseInsensitive: true))) }
        if !rows.form.isEmpty { pairs.append(("form", mapping(rows.form))) }
        if !rows.multipart.isEmpty {
            pairs.append(("multipart", named(rows.multipart.map { ($0.name, multipartValue($0)) })))
        }
        return keyed(pairs)
    }

    /// A mapping of text values, quoted so numbers and booleans stay text; the list form
    /// (`- name: value`) when a name repeats, which a mapping cannot hold.
    ///
    /// - Parameter caseInsensitive: whether names differing only in case count as repeats
    ///   (header names).
    static func mapping(_ pairs: [KeyValue], caseInsensitive: Bool = false) -> Node {
        named(pairs.map { ($0.name, scalar($0.value)) }, caseInsensitive: caseInsensitive)
    }

    /// Named values as a mapping, or as the list form when a name repeats.
    static func named(_ pairs: [(name: String, value: Node)], caseInsensitive: Bool = false) -> Node {
        var seen: Set<String> = []
        let repeats = pairs.contains { !seen.insert(caseInsensitive ? $0.name.lowercased() : $0.name).inserted }
        if repeats {
            return Node(pairs.map { Node([(scalar($0.name), $0.value)], .implicit) }, .implicit)
        }
        return Node(pairs.map { (scalar($0.name), $0.value) }, .implicit)
    }

    /// A multipart part: `text`, `@path`, or a mapping when it has a file name or a type.
    static func multipartValue(_ field: MultipartField) -> Node {
        guard field.hasAttributes else { return scalar(field.isFile ? "@" + field.value : field.value) }
        var pairs: [(Node, Node)] = [(scalar(field.isFile ? "file" : "value"), scalar(field.value))]
        if let filename = field.filename { pairs.append((scalar("filename"), scalar(filename))) }
        if let type = field.contentType { pairs.append((scalar("type"), scalar(type))) }
        return keyed(pairs)
    }

    /// The tags of the scalars the writer makes, one of each for all of them: a tag is an
    /// object, and a large import writes hundreds of thousands of scalars. Yams changes a tag
    /// only while it is implicit or non-specific (resolving it), never one of these.
    private enum Tags {
        nonisolated(unsafe) static let text = Tag(.str)
        nonisolated(unsafe) static let null = Tag(.null)
        nonisolated(unsafe) static let bool = Tag(.bool)
        nonisolated(unsafe) static let int = Tag(.int)
        nonisolated(unsafe) static let float = Tag(.float)
    }

    /// A mapping whose keys are written as `scalar` writes texts: the keys the writer spells
    /// (`name`, `method` …) come as untagged literals, which the emitter would otherwise ask
    /// Yams to resolve (regular expressions, once for each key of each endpoint).
    static func keyed(_ pairs: [(Node, Node)], _ style: Node.Mapping.Style = .any) -> Node {
        Node(
            pairs.map { key, value in
                guard case .scalar(let text) = key, text.tag.description == Tag.Name.implicit.rawValue else {
                    return (key, value)
                }
                return (scalar(text.string), value)
            }, .implicit, style)
    }

    /// A text scalar that reads back as the same text (quoted when it would read as something else).
    ///
    /// Its tag is `!!str` (never written: the emitter is told every tag is implicit), so that
    /// writing it does not ask Yams what the text reads as (seven regular expressions a text).
    static func scalar(_ text: String) -> Node {
        Node(text, Tags.text, needsQuotes(text) ? .doubleQuoted : .plain)
    }

    /// Whether a text written plain would read back as something else: empty, or what Yams
    /// reads as null, a boolean, an integer, a float or a timestamp.
    ///
    /// Yams answers by trying to parse the text as each (removing `_`s with Foundation, a
    /// regular expression for dates): most of the time of writing a large import. The texts
    /// none of those can be are answered from their bytes first (`mayReadAsNonText`); the
    /// others are asked of Yams, so the answer is Yams' own.
    static func needsQuotes(_ text: String) -> Bool {
        if text.isEmpty { return true }
        guard mayReadAsNonText(text) else { return false }
        let plain = Node(text)
        return plain.null != nil || plain.bool != nil || plain.int != nil || plain.float != nil
            || plain.timestamp != nil
    }

    /// False when no YAML 1.1 reading of the text as null, a boolean, an integer, a float or a
    /// timestamp can succeed, from its bytes alone; true when it may (Yams then decides).
    ///
    /// Every text Yams reads as one of those is made of ASCII letters, digits, `._+-:()~` and
    /// spaces (a float's `0x1p3`, `nan(…)`, `1_000`, `1:30`, a date's `2001-12-14 21:59:43`),
    /// and starts with a digit, a sign, `.`, a space, `_`, `~`, `i`, `n` (`inf`, `nan`, `null`)
    /// or the first letter of a boolean (`true`, `yes`, `on`, `false`, `no`, `off`, any case). A control
    /// character sends the text to Yams (a NUL ends the text a float is parsed from; a date
    /// may end with a line break), as does a last character that is a Unicode line break.
    static func mayReadAsNonText(_ text: String) -> Bool {
        var other = false
        var nonASCII = false
        for byte in text.utf8 {
            switch byte {
            case 0..<0x20, 0x7F: return true
            case 0x80...: nonASCII = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"),
                UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "~"):
                break
            default: other = true
            }
        }
        if other { return false }
        if nonASCII {
            guard let last = text.unicodeScalars.last?.value else { return false }
            return last == 0x85 || last == 0x2028 || last == 0x2029
        }
        guard let first = text.utf8.first(where: { $0 != UInt8(ascii: "_") }) else { return true }
        if "0123456789+-. ~iInN".utf8.contains(first) { return true }
        guard let head = text.utf8.first else { return true }
        return text.utf8.count <= 5 && "tTyYoOfFnN".utf8.contains(head)
    }

    /// A JSON body as YAML (flow-free block style, numbers and booleans kept plain).
    static func jsonNode(_ value: JSONValue) -> Node {
        switch value {
        case .null: return Node("null", Tags.null, .plain)
        case .bool(let flag): return Node(flag ? "true" : "false", Tags.bool, .plain)
        case .number(let text):
            return Node(text, text.contains { $0 == "." || $0 == "e" || $0 == "E" } ? Tags.float : Tags.int, .plain)
        case .string(let text): return scalar(text)
        case .array(let values): return Node(values.map(jsonNode), .implicit)
        case .object(let pairs): return Node(pairs.map { (scalar($0.key), jsonNode($0.value)) }, .implicit)
        }
    }
}
