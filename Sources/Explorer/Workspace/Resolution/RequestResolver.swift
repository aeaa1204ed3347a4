import Foundation
import NetworkingCore

/// Turns an endpoint of a collection into a request: `(collection, endpoint, environment,
/// --var overrides) -> ResolvedRequest`.
///
/// Variables resolve by precedence `--var` > environment > collection, then `{{env.NAME}}`
/// and the built-ins. Environment headers come first and an endpoint's header of the same
/// name replaces them. A body adds its `Content-Type` unless the endpoint sets one.
///
/// The nearest `auth:` (endpoint, folders, environment, collection) adds its header or query
/// item — replacing an environment header of the same name, but not one the endpoint writes
/// itself under an inherited auth — or, for digest, the credentials that answer the server's
/// challenge. Its expanded secrets (password, token, key) are masked like secret variables.
package struct RequestResolver: Sendable {
    /// The process environment used for `{{env.NAME}}`.
    var processEnvironment: [String: String]
    /// The time `{{timestamp}}` and `{{now}}` stand for (the current time when `nil`).
    var now: Date?
    /// The value `{{uuid}}` stands for (a fresh one when `nil`).
    var uuid: String?
    /// The directory multipart file parts are read relative to (the collection's when `nil`).
    var baseDirectory: URL?
    /// Who answers `{{prompt "Label"}}` (the CLI's terminal); `nil` makes a prompt an error.
    package var prompter: (any TemplatePrompter)?
    /// Whether `{{command "…"}}` runs (from a trusted collection), or stays as written: a
    /// preview, resolved on every move through the list, never runs one.
    package var runsCommands = true

    /// Creates a resolver.
    package init(processEnvironment: [String: String] = ProcessInfo.processInfo.environment, now: Date? = nil, uuid: String? = nil, baseDirectory: URL? = nil) {
        self.processEnvironment = processEnvironment
        self.now = now
        self.uuid = uuid
        self.baseDirectory = baseDirectory
    }

    /// Resolves an endpoint in an environment.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint.
    ///   - collection: its collection (for collection variables and the file's directory).
    ///   - environment: the environment to send in; the collection's first when `nil`.
    ///   - overrides: `--var name=value` pairs.
    ///   - captured: variables captured from earlier responses in this environment (below
    ///     `--var`, above the environment's own); secret ones are masked like `secrets:`.
    /// - Returns: the request and what a screen needs to show it.
    /// - Throws: `ResolveError` (an undefined variable names the variable and the endpoint).
    package func resolve(
        _ endpoint: Endpoint,
        in collection: APICollection,
        environment: Environment? = nil,
        overrides: [String: String] = [:],
        captured: [String: CapturedVariable] = [:]
    ) throws -> ResolvedRequest {
        guard let environment = environment ?? collection.environments.first else {
            throw ResolveError.noEnvironment(endpoint: endpoint.id)
        }
        let scope = self.scope(for: collection, environment: environment, overrides: overrides, captured: captured)
        // `at` names the part in `Endpoint.locations` (`path`, `query[2]` …), so an error
        // points at the line and column to fix.
        func place(_ key: String) -> FileLocation? { endpoint.locations[key] ?? endpoint.location }
        func expand(_ text: String, _ part: String, at key: String) throws -> (text: String, spans: [VariableSpan]) {
            do {
                return try scope.expand(text)
            } catch {
                throw ResolveError(scopeFailure: error, context: "the \(part) of endpoint \"\(endpoint.id)\"", at: place(key))
            }
        }

        let baseURL = try environment.resolvedBaseURL(in: scope)
        let baseSpans = (try? scope.expand(environment.baseURLTemplate).spans) ?? []

        // Path: each piece is percent-encoded on its own, so variable spans stay exact.
        var path = ""
        var pathSpans: [VariableSpan] = []
        var inQuery = false
        // A `?` written in the path starts a raw query, encoded as Networking encodes it.
        func encodePiece(_ text: String) -> String {
            guard !inQuery else { return PercentEncoding.encode(text, allowed: PercentEncoding.rawQueryAllowed, keepEscapes: true) }
            guard let mark = text.firstIndex(of: "?") else { return encodePath(text) }
            inQuery = true
            return encodePath(String(text[..<mark])) + "?"
                + PercentEncoding.encode(String(text[text.index(after: mark)...]), allowed: PercentEncoding.rawQueryAllowed, keepEscapes: true)
        }
        for segment in Template(endpoint.path).segments {
            switch segment {
            case .literal(let literal):
                path += encodePiece(literal)
            case .variable(let name):
                let value = try expand("{{\(name)}}", "path", at: "path").text
                let encoded = encodePiece(value)
                pathSpans.append(VariableSpan(name: name, range: path.count..<(path.count + encoded.count)))
                path += encoded
            }
        }
        // A path that is an absolute URL (an imported request to another server than the
        // environment's) is sent there; the environment's headers stay with its own server.
        let otherServer = Self.server(ofAbsolute: path)
        if let otherServer, URL(string: otherServer)?.host?.isEmpty ?? true {
            throw ResolveError.invalidURL(endpoint: endpoint.id, url: path, at: place("path"))
        }
        if otherServer == nil && !path.isEmpty && !path.hasPrefix("/") && !path.hasPrefix("?") { path = "/" + path }

        var queryItems: [URLQueryItem] = []
        var queryText = ""
        var querySpans: [VariableSpan] = []
        for (index, item) in endpoint.query.enumerated() {
            let name = try expand(item.name, "query", at: "query[\(index)]").text
            if index > 0 { queryText += "&" }
            queryText += encodeQuery(name) + "="
            var value = ""
            for segment in Template(item.value).segments {
                switch segment {
                case .literal(let literal):
                    value += literal
                    queryText += encodeQuery(literal)
                case .variable(let variable):
                    let expanded = try expand("{{\(variable)}}", "query", at: "query[\(index)]").text
                    let encoded = encodeQuery(expanded)
                    querySpans.append(VariableSpan(name: variable, range: queryText.count..<(queryText.count + encoded.count)))
                    value += expanded
                    queryText += encoded
                }
            }
            queryItems.append(URLQueryItem(name: name, value: value))
        }

        // The environment's headers, then the endpoint's: an endpoint header replaces the
        // environment's of the same name, and an endpoint may repeat a header (list form).
        var headers = HTTPHeaders()
        let ownNames = Set(endpoint.headers.map { $0.name.lowercased() })
        for header in environment.headers where otherServer == nil && !ownNames.contains(header.name.lowercased()) {
            do {
                headers.add(name: try scope.expand(header.name).text, value: try scope.expand(header.value).text)
            } catch {
                throw ResolveError(scopeFailure: error, context: "the header \(header.name) of environment \"\(environment.name)\"", at: environment.location)
            }
        }
        for (index, header) in endpoint.headers.enumerated() {
            let name = try expand(header.name, "headers", at: "headers[\(index)]").text
            headers.add(name: name, value: try expand(header.value, "header \(name)", at: "headers[\(index)]").text)
        }

        var authSecrets: [String] = []
        var digest: DigestCredentials?
        var oauth2: OAuth2Configuration?
        if let auth = collection.authentication(for: endpoint, in: environment) {
            func expandAuth(_ text: String) throws -> String {
                do {
                    return try scope.expand(text).text
                } catch {
                    throw ResolveError(scopeFailure: error, context: "the auth of endpoint \"\(endpoint.id)\"", at: auth.location ?? endpoint.location)
                }
            }
            func setHeader(_ name: String, _ value: String) {
                if endpoint.auth == nil, ownNames.contains(name.lowercased()) { return }
                headers.replaceOrAdd(name: name, value: value)
            }
            switch auth.scheme {
            case .none:
                break
            case let .basic(username, password):
                let user = try expandAuth(username), secret = try expandAuth(password)
                let encoded = Data("\(user):\(secret)".utf8).base64EncodedString()
                setHeader("Authorization", "Basic " + encoded)
                authSecrets += [secret, encoded]
            case let .bearer(token):
                let secret = try expandAuth(token)
                setHeader("Authorization", "Bearer " + secret)
                authSecrets.append(secret)
            case let .apiKey(name, value, placement):
                let key = try expandAuth(name), secret = try expandAuth(value)
                switch placement {
                case .header:
                    setHeader(key, secret)
                case .query:
                    queryItems.append(URLQueryItem(name: key, value: secret))
                    queryText += (queryText.isEmpty ? "" : "&") + encodeQuery(key) + "=" + encodeQuery(secret)
                }
                authSecrets.append(secret)
            case let .digest(username, password):
                let credentials = DigestCredentials(username: try expandAuth(username), password: try expandAuth(password))
                digest = credentials
                authSecrets.append(credentials.password)
            case let .oauth2(settings):
                // The token is obtained when the request is sent (the dispatcher's adapter);
                // an Authorization header the endpoint writes itself wins, as for bearer.
                guard !(endpoint.auth == nil && ownNames.contains("authorization")) else { break }
                do {
                    let (configuration, secrets) = try settings.resolved(by: expandAuth)
                    oauth2 = configuration
                    authSecrets += secrets
                } catch let failure as OAuth2Settings.Failure {
                    throw ResolveError.invalidAuth(endpoint: endpoint.id, reason: failure.description, at: auth.location ?? endpoint.location)
                }
            }
        }

        let directory = baseDirectory ?? collection.sourceURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var body: Data?
        var bodyFile: URL?
        switch endpoint.body {
        case nil:
            break
        case .json(let json):
            let expanded = try json.mapStrings { try expand($0, "json body", at: "body").text }
            body = Data(expanded.serialized(pretty: false).utf8)
            if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
        case .raw(let text):
            body = Data(try expand(text, "body", at: "body").text.utf8)
        case .file(let path):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url) else {
                throw ResolveError.unreadableFile(endpoint: endpoint.id, path: url.path, at: place("body"))
            }
            body = data
            bodyFile = url
        case .form(let fields):
            let items = try fields.enumerated().map { index, field in
                URLQueryItem(
                    name: try expand(field.name, "form", at: "form[\(index)]").text,
                    value: try expand(field.value, "form", at: "form[\(index)]").text)
            }
            body = Data(PercentEncoding.form(items).utf8)
            if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded") }
        case .multipart(let fields):
            var parts: [MultipartPart] = []
            for (index, field) in fields.enumerated() {
                let key = "multipart[\(index)]"
                let name = try expand(field.name, "multipart", at: key).text
                let value = try expand(field.value, "multipart", at: key).text
                let filename = try field.filename.map { try expand($0, "multipart", at: key).text }
                let contentType = try field.contentType.map { try expand($0, "multipart", at: key).text }
                if field.isFile {
                    let url = value.hasPrefix("/") ? URL(fileURLWithPath: value) : directory.appendingPathComponent(value)
                    guard let data = try? Data(contentsOf: url) else {
                        throw ResolveError.unreadableFile(endpoint: endpoint.id, path: url.path, at: place(key))
                    }
                    parts.append(MultipartPart(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, data: data))
                } else {
                    parts.append(MultipartPart(name: name, filename: filename, contentType: contentType, data: Data(value.utf8)))
                }
            }
            let multipart = MultipartBody(parts: parts)
            body = multipart.data
            headers.remove(name: "Content-Type")
            headers.add(name: "Content-Type", value: multipart.contentType)
        }

        var graphQLDocument: GraphQLSourceText?
        if let graphql = endpoint.graphql {
            // GraphQL over HTTP: a JSON body for POST, query parameters for GET.
            let source = try graphQLSource(of: graphql, endpoint: endpoint, directory: directory)
            let variables = try graphql.variables.map { try $0.mapStrings { try expand($0, "graphql variables", at: "graphql").text } }
            let parameters = try Self.graphQLParameters(source, variables: variables, operation: graphql, endpoint: endpoint)
            if endpoint.method == .get {
                for item in parameters.queryItems {
                    queryItems.append(item)
                    queryText += (queryText.isEmpty ? "" : "&") + encodeQuery(item.name) + "=" + encodeQuery(item.value ?? "")
                }
            } else {
                body = parameters.body
                if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
            }
            if !headers.contains("Accept") { headers.add(name: "Accept", value: GraphQLOperation.accept) }
            graphQLDocument = source
        }

        let request = BasicRequest(method: endpoint.method, path: path, queryItems: queryItems, headers: headers, httpBody: body)
        // The URL is built by Networking itself, so what is shown is exactly what is sent.
        guard let built = try? request.url(relativeTo: baseURL) else {
            throw ResolveError.invalidURL(endpoint: endpoint.id, url: baseURL.absoluteString + path, at: place("path"))
        }
        let url = built.absoluteString
        let tail = path + (queryText.isEmpty ? "" : (path.contains("?") ? "&" : "?") + queryText)
        var spans = baseSpans.filter { $0.range.upperBound <= baseURL.absoluteString.count }
        if url.hasSuffix(tail) {
            let pathOffset = url.count - tail.count
            spans += pathSpans.map { $0.shifted(by: pathOffset) }
            spans += querySpans.map { $0.shifted(by: pathOffset + path.count + 1) }
        }

        var secretValues = environment.secretValues(in: scope)
        for name in environment.secrets { if let value = overrides[name] { secretValues.append(value) } }
        secretValues += captured.values.filter(\.isSecret).map(\.value)
        secretValues += authSecrets.filter { !$0.isEmpty }
        secretValues += (prompter?.secretAnswers ?? []).filter { !$0.isEmpty }
        secretValues += scope.outputs.commandOutputs.filter { !$0.isEmpty }
        var resolved = ResolvedRequest(
            endpoint: endpoint,
            environment: environment,
            baseURL: baseURL,
            request: request,
            url: url,
            urlVariableSpans: spans,
            masker: SecretMasker(secretValues: secretValues),
            collectionKey: collection.storeKey,
            scope: scope,
            bodyFile: bodyFile
        )
        resolved.digest = digest
        resolved.oauth2 = oauth2
        resolved.graphQLDocument = graphQLDocument
        return resolved
    }

    /// Whether an endpoint's path is a whole URL, so that it is sent there and not to the
    /// environment's `base_url`: written out (`https://cdn.example.com/x`), or a leading
    /// `{{variable}}` whose value in the environment or the collection is one.
    package static func pathIsWholeURL(_ path: String, in collection: APICollection, environment: Environment?) -> Bool {
        if server(ofAbsolute: path) != nil { return true }
        guard let first = Template(path).segments.first, case .variable(let name) = first else { return false }
        let value = environment?.variables[named: name] ?? collection.variables[named: name] ?? ""
        return server(ofAbsolute: value) != nil
    }

    /// `scheme://host[:port]` of a path that is an absolute http(s) URL, else `nil`.
    package static func server(ofAbsolute path: String) -> String? {
        guard let scheme = path.range(of: "://"), ["http", "https", "ws", "wss"].contains(path[..<scheme.lowerBound].lowercased()) else { return nil }
        let end = path[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? path.endIndex
        return String(path[..<end])
    }

    /// The variables a request of this environment sees: `--var`, captured, the
    /// environment's, the collection's, `{{env.NAME}}` and the built-ins.
    func scope(for collection: APICollection, environment: Environment, overrides: [String: String], captured: [String: CapturedVariable]) -> VariableScope {
        var scope = VariableScope(
            overrides: overrides,
            environmentVariables: environment.variables,
            collectionVariables: collection.variables.isEmpty ? environment.collectionVariables : collection.variables,
            processEnvironment: processEnvironment,
            dotEnv: environment.dotEnv,
            uuid: uuid ?? UUID().uuidString.lowercased(),
            now: now ?? Date()
        )
        scope.captured = captured.mapValues(\.value)
        scope.directory = baseDirectory ?? collection.sourceURL?.deletingLastPathComponent()
        scope.prompter = prompter
        scope.collectionFile = collection.sourceURL
        scope.runsCommands = runsCommands
        return scope
    }

    private func encodePath(_ text: String) -> String {
        PercentEncoding.encode(text, allowed: PercentEncoding.pathAllowed, keepEscapes: true)
    }

    private func encodeQuery(_ text: String) -> String {
        PercentEncoding.encode(text, allowed: PercentEncoding.queryComponentAllowed, keepEscapes: false)
    }
}
