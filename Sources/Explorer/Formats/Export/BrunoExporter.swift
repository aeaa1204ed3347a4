import Foundation
import NetworkingCore
import Workspace

/// Writes a collection as a Bruno collection folder: `bruno.json`, `collection.bru`, a folder
/// (with its `folder.bru`) per folder, a `.bru` file per endpoint, and `environments/*.bru`.
///
/// Each endpoint's URL is its environment's base URL variable and its path
/// (`{{baseUrl}}/users`, or the base URL's own `{{variable}}` when it is one), so every
/// request goes where explorer sends it. Secret values are not written (Bruno keeps secrets
/// on the machine: `vars:secret` names them). `explorer import bruno` reads the folder back.
package enum BrunoExporter {
    /// One file of the folder: its path inside the folder and its text.
    package struct File: Sendable, Hashable {
        /// The path, `/`-separated, relative to the collection folder.
        package var path: String
        /// The file's text.
        package var text: String
    }

    /// The collection's files, and what could not be written (one sentence each).
    ///
    /// - Parameter environment: the environment whose base URL the requests use (default:
    ///   the first); every environment is written.
    package static func files(for collection: APICollection, environment: Environment? = nil) -> (
        files: [File], warnings: [String]
    ) {
        var writer = BrunoWriter(collection: collection, environment: environment ?? collection.environments.first)
        return writer.write()
    }

    /// Writes the files under `folder` (created if absent; a file of the same path replaced).
    ///
    /// - Returns: the warnings of `files(for:environment:)`.
    /// - Throws: a file system error.
    package static func write(
        _ collection: APICollection, environment: Environment? = nil, to folder: URL
    ) throws -> [String] {
        let (files, warnings) = files(for: collection, environment: environment)
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url, options: .atomic)
        }
        return warnings
    }
}

/// The walk that writes the files.
struct BrunoWriter {
    let collection: APICollection
    let environment: Environment?
    var files: [BrunoExporter.File] = []
    var warnings: [String] = []
    /// The variable the request URLs start with.
    let baseVariable: String
    /// Whether `baseVariable` is written into each environment (not one of its variables).
    let addsBaseVariable: Bool

    init(collection: APICollection, environment: Environment?) {
        self.collection = collection
        self.environment = environment
        let base = (environment?.baseURLTemplate ?? "").trimmingCharacters(in: .whitespaces)
        if base.hasPrefix("{{"), base.hasSuffix("}}"),
            base.dropFirst(2).dropLast(2).allSatisfy({ $0 != "{" && $0 != "}" })
        {
            baseVariable = base.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
            addsBaseVariable = false
        } else {
            var name = "baseUrl"
            let taken = Set(
                collection.variables.map(\.name) + collection.environments.flatMap { $0.variables.map(\.name) })
            var counter = 2
            while taken.contains(name) {
                name = "baseUrl\(counter)"
                counter += 1
            }
            baseVariable = name
            addsBaseVariable = true
        }
    }

    /// Every file.
    mutating func write() -> (files: [BrunoExporter.File], warnings: [String]) {
        let config: JSONValue = .object([
            ("version", .string("1")), ("name", .string(collection.name)), ("type", .string("collection")),
            ("ignore", .array([.string("node_modules"), .string(".git")])),
        ])
        files.append(.init(path: "bruno.json", text: config.serialized(pretty: true) + "\n"))
        var root = BruText()
        root.dictionary("meta", [("name", collection.name)])
        writeAuth(collection.auth, into: &root, inherits: false)
        let secrets = collection.secretVariableNames(in: environment)
        root.dictionary(
            "vars:pre-request",
            collection.variables.filter { APICollection.mayExport($0, secrets: secrets) }.map {
                ($0.name, Self.template($0.value))
            })
        if let description = collection.description { root.text("docs", description) }
        files.append(.init(path: "collection.bru", text: root.output))
        for environment in collection.environments { writeEnvironment(environment) }
        writeItems(collection.items, in: "")
        return (files, warnings)
    }

    // MARK: - Environments

    private mutating func writeEnvironment(_ environment: Environment) {
        var text = BruText()
        let secrets = Set(collection.secretVariableNames(in: environment))
        var variables: [(String, String)] = []
        if addsBaseVariable { variables.append((baseVariable, Self.template(environment.baseURLTemplate))) }
        variables += environment.variables.filter { !secrets.contains($0.name) }.map {
            ($0.name, Self.template($0.value))
        }
        text.dictionary("vars", variables)
        let secretNames = environment.variables.map(\.name).filter { secrets.contains($0) }
        if !secretNames.isEmpty { text.list("vars:secret", secretNames) }
        if !environment.headers.isEmpty {
            warnings.append(
                "the environment \"\(environment.name)\" sends headers, which a Bruno environment cannot hold: "
                    + "they were left out; add them to collection.bru's headers.")
        }
        files.append(.init(path: "environments/\(Self.fileName(environment.name)).bru", text: text.output))
    }

    // MARK: - Folders and requests

    private mutating func writeItems(_ items: [CollectionItem], in folder: String) {
        var used: Set<String> = ["folder", "collection"]
        for (index, item) in items.enumerated() {
            var base = Self.fileName(item.displayName)
            var counter = 2
            while !used.insert(base.lowercased()).inserted {
                base = Self.fileName(item.displayName) + " (\(counter))"
                counter += 1
            }
            switch item {
            case .folder(let child):
                let path = folder + base + "/"
                var text = BruText()
                text.dictionary("meta", [("name", child.name), ("seq", "\(index + 1)")])
                writeAuth(child.auth, into: &text, inherits: true)
                if let description = child.description { text.text("docs", description) }
                files.append(.init(path: path + "folder.bru", text: text.output))
                writeItems(child.items, in: path)
            case .endpoint(let endpoint):
                files.append(.init(path: folder + base + ".bru", text: request(endpoint, seq: index + 1)))
            }
        }
    }

    /// One endpoint's `.bru` text.
    private mutating func request(_ endpoint: Endpoint, seq: Int) -> String {
        var text = BruText()
        let type =
            endpoint.isGRPC ? "grpc" : endpoint.graphql != nil ? "graphql" : endpoint.webSocket != nil ? "ws" : "http"
        var meta: [(String, String)] = [("name", endpoint.name), ("type", type), ("seq", "\(seq)")]
        if !endpoint.tags.isEmpty { meta.append(("tags", "")) }
        text.dictionary("meta", meta, lists: endpoint.tags.isEmpty ? [:] : ["tags": endpoint.tags])
        let url = self.url(of: endpoint)
        let authMode = Self.authMode(endpoint.auth)
        let headers = endpoint.headers.map { (Self.template($0.name), Self.template($0.value)) }
        let disabledHeaders = endpoint.disabled.headers.map { ("~" + Self.template($0.name), Self.template($0.value)) }
        if let grpc = endpoint.grpc {
            text.dictionary(
                "grpc",
                [
                    ("url", Self.template(grpc.server ?? environment?.baseURLTemplate ?? "")),
                    ("method", "/" + grpc.method.drop { $0 == "/" }), ("body", "grpc"), ("auth", authMode),
                ])
            text.dictionary("metadata", headers + disabledHeaders)
            for (number, message) in grpc.messages.enumerated() {
                text.dictionary(
                    "body:grpc",
                    [("name", "message \(number + 1)"), ("content", Self.template(message.serialized(pretty: true)))])
            }
        } else if let webSocket = endpoint.webSocket {
            text.dictionary("ws", [("url", url), ("body", "ws"), ("auth", authMode)])
            text.dictionary("headers", headers + disabledHeaders)
            for message in webSocket.messages {
                text.dictionary(
                    "body:ws",
                    [
                        ("name", message.name), ("type", message.isJSON ? "json" : "text"),
                        ("content", Self.template(message.text)),
                    ])
            }
        } else {
            let (mode, bodyBlocks) = body(endpoint)
            let method = endpoint.method.rawValue
            let standard = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "CONNECT", "TRACE"]
            if standard.contains(method) {
                text.dictionary(method.lowercased(), [("url", url), ("body", mode), ("auth", authMode)])
            } else {
                text.dictionary("http", [("method", method), ("url", url), ("body", mode), ("auth", authMode)])
            }
            text.dictionary(
                "params:query",
                endpoint.query.map { (Self.template($0.name), Self.template($0.value)) }
                    + endpoint.disabled.query.map { ("~" + Self.template($0.name), Self.template($0.value)) })
            text.dictionary("headers", headers + disabledHeaders)
            for block in bodyBlocks { text.append(block) }
        }
        writeAuth(endpoint.auth, into: &text, inherits: true, modeWritten: true)
        text.dictionary("vars:post-response", endpoint.captures.compactMap { capture($0, endpoint: endpoint) })
        text.dictionary("assert", endpoint.assertions.compactMap { assertion($0, endpoint: endpoint) })
        if endpoint.followRedirects == false { text.dictionary("settings", [("followRedirects", "false")]) }
        if let description = endpoint.description { text.text("docs", description) }
        return text.output
    }

    /// The request URL: the base URL variable and the path, or the path when it is a whole URL.
    private func url(of endpoint: Endpoint) -> String {
        let path = Self.template(endpoint.path)
        if path.contains("://") || (path.hasPrefix("{{") && !path.hasPrefix("{{\(baseVariable)}}")) { return path }
        return "{{\(baseVariable)}}" + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
    }

    /// The body's mode and blocks.
    private mutating func body(_ endpoint: Endpoint) -> (String, [BruText]) {
        var block = BruText()
        if let graphql = endpoint.graphql {
            switch graphql.document {
            case .inline(let query): block.text("body:graphql", Self.template(query))
            case .file(let path):
                warnings.append(
                    "\"\(endpoint.id)\" reads its GraphQL query from \(path), which a .bru file cannot: "
                        + "paste it into body:graphql.")
            }
            if let variables = graphql.variables {
                block.text("body:graphql:vars", Self.template(variables.serialized(pretty: true)))
            }
            return ("graphql", [block])
        }
        switch endpoint.body {
        case nil:
            return ("none", [])
        case .json(let value):
            block.text("body:json", Self.template(value.serialized(pretty: true)))
            return ("json", [block])
        case .raw(let raw):
            let type = (endpoint.headers.last { $0.name.lowercased() == "content-type" }?.value ?? "").lowercased()
            let mode =
                type.contains("json")
                ? "json" : type.contains("xml") ? "xml" : type.contains("sparql") ? "sparql" : "text"
            block.text("body:\(mode)", Self.template(raw))
            return (mode, [block])
        case .form(let pairs):
            block.dictionary(
                "body:form-urlencoded",
                pairs.map { (Self.template($0.name), Self.template($0.value)) }
                    + endpoint.disabled.form.map { ("~" + Self.template($0.name), Self.template($0.value)) })
            return ("formUrlEncoded", [block])
        case .multipart(let fields):
            func line(_ field: MultipartField, disabled: Bool) -> (String, String) {
                var value = field.isFile ? "@file(\(field.value))" : Self.template(field.value)
                if let type = field.contentType { value += " @contentType(\(type))" }
                if field.filename != nil {
                    warnings.append(
                        "\"\(endpoint.id)\" names the file of its part \(field.name) for the server, which Bruno "
                            + "cannot: the part keeps the file's own name.")
                }
                return ((disabled ? "~" : "") + Self.template(field.name), value)
            }
            block.dictionary(
                "body:multipart-form",
                fields.map { line($0, disabled: false) } + endpoint.disabled.multipart.map { line($0, disabled: true) })
            return ("multipartForm", [block])
        case .file(let path):
            var value = "@file(\(path))"
            if let type = endpoint.headers.last(where: { $0.name.lowercased() == "content-type" })?.value {
                value += " @contentType(\(type))"
            }
            block.dictionary("body:file", [("file", value)])
            return ("file", [block])
        }
    }

    // MARK: - Auth and checks

    /// Bruno's mode for an `auth:` (`inherit` when there is none).
    static func authMode(_ auth: Authentication?) -> String {
        guard let auth else { return "inherit" }
        switch auth.scheme {
        case .none: return "none"
        case .basic: return "basic"
        case .bearer: return "bearer"
        case .digest: return "digest"
        case .apiKey: return "apikey"
        case .oauth2: return "oauth2"
        case .awsSigV4: return "awsv4"
        case .oauth1: return "oauth1"
        }
    }

    /// The `auth:MODE` block (and, for a folder or the collection, `auth { mode }`).
    private mutating func writeAuth(
        _ auth: Authentication?, into text: inout BruText, inherits: Bool, modeWritten: Bool = false
    ) {
        let mode = Self.authMode(auth)
        if !modeWritten { text.dictionary("auth", [("mode", auth == nil && !inherits ? "none" : mode)]) }
        guard let auth else { return }
        switch auth.scheme {
        case .none: break
        case .basic(let username, let password):
            text.dictionary(
                "auth:basic", [("username", Self.template(username)), ("password", Self.template(password))])
        case .digest(let username, let password):
            text.dictionary(
                "auth:digest", [("username", Self.template(username)), ("password", Self.template(password))])
        case .bearer(let token):
            text.dictionary("auth:bearer", [("token", Self.template(token))])
        case .apiKey(let name, let value, let placement):
            text.dictionary(
                "auth:apikey",
                [
                    ("key", Self.template(name)), ("value", Self.template(value)),
                    ("placement", placement == .query ? "queryparams" : "header"),
                ])
        case .oauth2(let settings):
            let names = [
                ("token_url", "access_token_url"), ("client_id", "client_id"), ("client_secret", "client_secret"),
                ("scope", "scope"), ("authorization_url", "authorization_url"), ("username", "username"),
                ("password", "password"),
            ]
            var pairs: [(String, String)] = [("grant_type", settings.grant)]
            for (key, bruKey) in names {
                if let value = settings.values[key] { pairs.append((bruKey, Self.template(value))) }
            }
            pairs.append(
                ("credentials_placement", settings.values["client_auth"] == "body" ? "body" : "basic_auth_header"))
            if !["client_credentials", "password", "authorization_code"].contains(settings.grant) {
                warnings.append("the OAuth 2 \(settings.grant) grant has no Bruno equivalent: its auth was left out.")
            }
            text.dictionary("auth:oauth2", pairs)
        case .awsSigV4(let settings):
            let names = [
                ("accessKeyId", "access_key_id"), ("secretAccessKey", "secret_access_key"),
                ("sessionToken", "session_token"), ("service", "service"), ("region", "region"),
                ("profileName", "profile"),
            ]
            text.dictionary("auth:awsv4", names.map { ($0.0, Self.template(settings.values[$0.1] ?? "")) })
        case .oauth1(let settings):
            let names = [
                ("consumer_key", "consumer_key"), ("consumer_secret", "consumer_secret"), ("access_token", "token"),
                ("token_secret", "token_secret"), ("signature_method", "signature_method"), ("realm", "realm"),
                ("placement", "in"), ("private_key", "private_key"), ("nonce", "nonce"), ("timestamp", "timestamp"),
                ("callback_url", "callback"), ("verifier", "verifier"),
            ]
            text.dictionary(
                "auth:oauth1", names.compactMap { pair in settings.values[pair.1].map { (pair.0, Self.template($0)) } })
        }
    }

    /// A capture as a post-response variable, or `nil` (noted) when Bruno has no expression for it.
    private mutating func capture(_ capture: Capture, endpoint: Endpoint) -> (String, String)? {
        let query: Assertion.Query? =
            switch capture.source {
            case .status: .status
            case .body: .body
            case .jsonpath(let path): .jsonpath(path)
            case .header(let name): .header(name)
            default: nil
            }
        guard let query, let expression = Self.expression(query) else {
            warnings.append("\"\(endpoint.id)\": the capture \(capture.name) has no Bruno expression: left out.")
            return nil
        }
        return (capture.name, expression)
    }

    /// An assertion as `res.… : OPERATOR VALUE`, or `nil` (noted).
    private mutating func assertion(_ assertion: Assertion, endpoint: Endpoint) -> (String, String)? {
        let operators: [Assertion.Predicate: (String, String?)] = [
            .equal: ("eq", "neq"), .notEqual: ("neq", "eq"), .greater: ("gt", "lte"), .greaterOrEqual: ("gte", "lt"),
            .less: ("lt", "gte"), .lessOrEqual: ("lte", "gt"), .contains: ("contains", "notContains"),
            .startsWith: ("startsWith", nil), .endsWith: ("endsWith", nil), .matches: ("matches", "notMatches"),
            .exists: ("isDefined", "isUndefined"), .isEmpty: ("isEmpty", "isNotEmpty"), .isNumber: ("isNumber", nil),
            .isString: ("isString", nil), .isBoolean: ("isBoolean", nil),
        ]
        guard let expression = Self.expression(assertion.query), let (plain, negated) = operators[assertion.predicate],
            let word = assertion.isNegated ? negated : plain
        else {
            warnings.append("\"\(endpoint.id)\": the assertion \(assertion.text) has no Bruno operator: left out.")
            return nil
        }
        var value = word
        if assertion.expected == .null, word == "eq" {
            value = "isNull"
        } else if let expected = assertion.expected {
            switch expected {
            case .string(let string):
                let escaped = string.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "\"", with: "\\\"")
                value += " \"" + escaped + "\""
            default: value += " " + expected.text
            }
        }
        return (expression, value)
    }

    /// A query as Bruno's `res.…` expression.
    static func expression(_ query: Assertion.Query) -> String? {
        switch query {
        case .status: return "res.status"
        case .body: return "res.body"
        case .duration: return "res.responseTime"
        case .header(let name):
            return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                ? "res.headers.\(name.lowercased())" : nil
        case .jsonpath(var path):
            if !path.hasPrefix("$") { path = "$." + path }
            let rest = path.dropFirst()
            guard rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("["),
                !rest.contains(where: { "*?@()".contains($0) }), !rest.contains("..")
            else { return nil }
            return "res.body" + rest
        default: return nil
        }
    }

    // MARK: - Text

    /// explorer's `{{env.X}}` as Bruno's `{{process.env.X}}`; the rest as written.
    static func template(_ text: String) -> String {
        text.replacingOccurrences(of: "{{env.", with: "{{process.env.")
    }

    /// A name as a file name: no `/`, no control characters, not empty or hidden.
    static func fileName(_ name: String) -> String {
        var clean = String(name.map { $0 == "/" || $0 == "\\" || $0 == ":" || $0.isNewline ? "-" : $0 })
            .trimmingCharacters(in: .whitespaces)
        while clean.hasPrefix(".") { clean.removeFirst() }
        return clean.isEmpty ? "untitled" : String(clean.prefix(120))
    }
}

extension CollectionItem {
    /// The folder's or endpoint's name.
    var displayName: String {
        switch self {
        case .endpoint(let endpoint): endpoint.name
        case .folder(let folder): folder.name
        }
    }
}

/// The text of a `.bru` file, block by block.
struct BruText {
    private(set) var output = ""

    /// A dictionary block (nothing when it has no pairs, except `meta`).
    mutating func dictionary(_ name: String, _ pairs: [(String, String)], lists: [String: [String]] = [:]) {
        guard !pairs.isEmpty else { return }
        if !output.isEmpty { output += "\n" }
        output += "\(name) {\n"
        for (key, value) in pairs {
            if let list = lists[key] {
                output += "  \(Self.key(key)): [\n" + list.map { "    \($0)\n" }.joined() + "  ]\n"
            } else if value.contains("\n") || value.hasPrefix("'''")
                || value != value.trimmingCharacters(in: .whitespaces)
            {
                let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
                output += "  \(Self.key(key)): '''\n" + lines.map { "    \($0)\n" }.joined() + "  '''\n"
            } else {
                output += "  \(Self.key(key)): \(value)\n"
            }
        }
        output += "}\n"
    }

    /// A list block (`vars:secret [ a, b ]`).
    mutating func list(_ name: String, _ items: [String]) {
        if !output.isEmpty { output += "\n" }
        output += "\(name) [\n" + items.map { "  \($0)" }.joined(separator: ",\n") + "\n]\n"
    }

    /// A text block, each line indented by two spaces.
    mutating func text(_ name: String, _ text: String) {
        if !output.isEmpty { output += "\n" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        output += "\(name) {\n" + lines.map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined() + "}\n"
    }

    /// Another file's blocks.
    mutating func append(_ other: BruText) {
        guard !other.output.isEmpty else { return }
        if !output.isEmpty { output += "\n" }
        output += other.output
    }

    /// A key, quoted when Bruno's grammar needs it (a space, a `:`, a quote, a brace).
    static func key(_ key: String) -> String {
        var name = key
        var prefix = ""
        if name.hasPrefix("~") {
            prefix = "~"
            name.removeFirst()
        }
        let needsQuotes =
            name.isEmpty
            || name.contains { $0 == " " || $0 == "\t" || $0 == ":" || $0 == "\"" || $0 == "{" || $0 == "}" }
            || name.hasPrefix("@") || name.hasPrefix("~")
        guard needsQuotes else { return prefix + name }
        return prefix + "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
