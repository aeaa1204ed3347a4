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
///
/// `resolve` runs its steps in that order: path → query → headers → auth
/// (`RequestResolver+Auth.swift`) → body (`RequestResolver+Body.swift`) → GraphQL, each
/// expanding the endpoint's templates with the one `EndpointTemplates`.
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
    package init(
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment, now: Date? = nil,
        uuid: String? = nil, baseDirectory: URL? = nil
    ) {
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
        // A value captured in this environment when it sent to another server stays behind
        // (the base URL is worked out for that only when some captured value names a server:
        // the preview resolves on every move through the list).
        let baseURL =
            captured.values.contains { $0.origin != nil }
            ? try? environment.resolvedBaseURL(
                in: self.scope(for: collection, environment: environment, overrides: overrides, captured: [:]))
            : nil
        let (captured, heldBack) = Self.capturesForTheSameServer(captured, baseURL: baseURL)
        do {
            return try resolving(
                endpoint, in: collection, environment: environment, overrides: overrides, captured: captured)
        } catch ResolveError.undefinedVariable(let name, _, let location) where heldBack[name] != nil {
            let kept = heldBack[name]!
            throw ResolveError.capturedForAnotherServer(
                name: name, endpoint: kept.endpoint, origin: kept.origin ?? "", at: location)
        }
    }

    /// The captured values whose server is the environment's now (or unknown), and those held
    /// back because they were captured when it sent to another server.
    static func capturesForTheSameServer(_ captured: [String: CapturedVariable], baseURL: URL?)
        -> (kept: [String: CapturedVariable], heldBack: [String: CapturedVariable])
    {
        guard let baseURL else { return (captured, [:]) }
        let server = CapturedVariable.origin(of: baseURL)
        var kept: [String: CapturedVariable] = [:]
        var heldBack: [String: CapturedVariable] = [:]
        for (name, value) in captured {
            if value.origin == nil || value.origin == server { kept[name] = value } else { heldBack[name] = value }
        }
        return (kept, heldBack)
    }

    /// `resolve`'s steps, with the captured values that may be used.
    private func resolving(
        _ endpoint: Endpoint, in collection: APICollection, environment: Environment, overrides: [String: String],
        captured: [String: CapturedVariable]
    ) throws -> ResolvedRequest {
        let scope = self.scope(for: collection, environment: environment, overrides: overrides, captured: captured)
        let templates = EndpointTemplates(endpoint: endpoint, scope: scope)
        let baseURL = try environment.resolvedBaseURL(in: scope)
        let baseSpans = (try? scope.expand(environment.baseURLTemplate).spans) ?? []

        let path = try resolvedPath(with: templates)
        var query = try resolvedQuery(with: templates)
        let headerResolution = try resolvedHeaders(
            with: templates, environment: environment, sentToEnvironmentServer: !path.isWholeURL)
        var headers = headerResolution.headers
        // `trace:`: a fresh W3C trace context per request; one the user wrote wins.
        if endpoint.traces ?? environment.tracesRequests, headers["traceparent"] == nil {
            headers.add(name: "traceparent", value: TraceParent.random().description)
        }
        // Credentials stay with their origin: an inherited `auth:` is not sent to another server.
        let sentToOwnOrigin = Self.inheritedAuthGoes(toPath: path.text, isWholeURL: path.isWholeURL, baseURL: baseURL)
        let auth = try resolvedAuth(
            with: templates, collection: collection, environment: environment, inherited: sentToOwnOrigin,
            host: path.isWholeURL ? URL(string: path.text)?.host : baseURL.host, headers: &headers, query: &query)
        let directory =
            baseDirectory ?? collection.sourceURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var body = try resolvedBody(with: templates, directory: directory, headers: &headers)
        let graphQLDocument = try resolvedGraphQL(
            with: templates, directory: directory, query: &query, body: &body.data, headers: &headers)

        try Self.checkHeaderValues(headers, of: templates)
        let masker = SecretMasker(
            secretValues: secretValues(
                in: scope, environment: environment, overrides: overrides, captured: captured, authSecrets: auth.secrets
            ))
        var request = BasicRequest(
            method: endpoint.method, path: path.text, queryItems: query.items, headers: headers, httpBody: body.data)
        request.originBoundHeaders = Self.originBoundHeaders(
            of: headers, fromEnvironment: headerResolution.fromEnvironment, masker: masker)
        let url = try builtURL(
            of: request, relativeTo: baseURL, baseSpans: baseSpans, path: path, query: query, templates: templates)
        var resolved = ResolvedRequest(
            endpoint: endpoint,
            environment: environment,
            baseURL: baseURL,
            request: request,
            url: url.text,
            urlVariableSpans: url.spans,
            masker: masker,
            collectionKey: collection.storeKey,
            scope: scope,
            bodyFile: body.file
        )
        resolved.digest = auth.digest
        resolved.oauth2 = auth.oauth2
        resolved.signing = auth.signing
        resolved.graphQLDocument = graphQLDocument
        resolved.grpcMessages = try endpoint.grpc.map { settings in
            try settings.messages.map { message in
                try message.mapStrings { try templates.expand($0, "gRPC message", at: "body") }
            }
        }
        return resolved
    }

    // MARK: - Steps

    /// Refuses a header whose expanded value holds a line break, NUL or another control
    /// character but a tab (RFC 9110 §5.5), before the transport would refuse it quoting the
    /// value, which may be a whole file read by `{{file …}}` or a secret.
    static func checkHeaderValues(_ headers: HTTPHeaders, of templates: EndpointTemplates) throws {
        for header in headers {
            let scalars = Array(header.value.unicodeScalars)
            guard let index = scalars.firstIndex(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
                continue
            }
            let what =
                scalars[index] == "\n" || scalars[index] == "\r"
                ? "holds a line break" : "holds the control character U+\(String(format: "%04X", scalars[index].value))"
            throw ResolveError.invalidHeaderValue(
                endpoint: templates.endpoint.id, header: header.name,
                reason: "(\(scalars.count) characters) \(what) at character \(index + 1)",
                at: templates.place("headers"))
        }
    }

    /// A path expanded and percent-encoded, with where its variables stand.
    struct ResolvedPath {
        /// The encoded path (or whole URL), starting with `/` when it is a path.
        var text: String
        /// The spans of the variables' values in `text`.
        var spans: [VariableSpan]
        /// Whether the path is an absolute URL, sent there and not to the environment's server.
        var isWholeURL: Bool
    }

    /// A query as it is built: the items Networking encodes, and the same query encoded as it
    /// stands in the URL, with the spans of the variables' values in that text.
    struct ResolvedQuery {
        var items: [URLQueryItem] = []
        var text = ""
        var spans: [VariableSpan] = []

        /// Starts an item: `&` after the items before it, then the encoded name and `=`.
        mutating func startItem(named name: String) {
            text += (text.isEmpty ? "" : "&") + RequestResolver.encodeQuery(name) + "="
        }

        /// Adds an item whose name and value are already expanded (an API key, GraphQL's
        /// parameters).
        mutating func append(_ item: URLQueryItem) {
            startItem(named: item.name)
            text += RequestResolver.encodeQuery(item.value ?? "")
            items.append(item)
        }
    }

    /// The path: each piece is percent-encoded on its own, so variable spans stay exact, and a
    /// `?` written in the path starts a raw query, encoded as Networking encodes it. A path
    /// that is an absolute URL (an imported request to another server than the environment's)
    /// is sent there.
    ///
    /// - Throws: `ResolveError` for an undefined variable, or a whole URL without a host.
    private func resolvedPath(with templates: EndpointTemplates) throws -> ResolvedPath {
        var path = ""
        var inQuery = false
        func encodePiece(_ text: String) -> String {
            guard !inQuery else {
                return PercentEncoding.encode(text, allowed: PercentEncoding.rawQueryAllowed, keepEscapes: true)
            }
            guard let mark = text.firstIndex(of: "?") else { return Self.encodePath(text) }
            inQuery = true
            return Self.encodePath(String(text[..<mark])) + "?"
                + PercentEncoding.encode(
                    String(text[text.index(after: mark)...]), allowed: PercentEncoding.rawQueryAllowed,
                    keepEscapes: true)
        }
        let spans = try templates.expand(
            templates.endpoint.path, "path", at: "path", encodingInto: &path, with: encodePiece
        ).spans
        let otherServer = Self.server(ofAbsolute: path)
        if let otherServer, URL(string: otherServer)?.host?.isEmpty ?? true {
            throw ResolveError.invalidURL(endpoint: templates.endpoint.id, url: path, at: templates.place("path"))
        }
        if otherServer == nil && !path.isEmpty && !path.hasPrefix("/") && !path.hasPrefix("?") { path = "/" + path }
        return ResolvedPath(text: path, spans: spans, isWholeURL: otherServer != nil)
    }

    /// The endpoint's query items, each name and value expanded.
    ///
    /// - Throws: `ResolveError` for an undefined variable, at the item's line.
    private func resolvedQuery(with templates: EndpointTemplates) throws -> ResolvedQuery {
        var query = ResolvedQuery()
        for (index, item) in templates.endpoint.query.enumerated() {
            let key = "query[\(index)]"
            let name = try templates.expand(item.name, "query", at: key)
            query.startItem(named: name)
            let value = try templates.expand(
                item.value, "query", at: key, encodingInto: &query.text, with: Self.encodeQuery)
            query.spans += value.spans
            query.items.append(URLQueryItem(name: name, value: value.text))
        }
        return query
    }

    /// The environment's headers, then the endpoint's: an endpoint header replaces the
    /// environment's of the same name, and an endpoint may repeat a header (list form). The
    /// environment's headers stay with its own server.
    ///
    /// - Returns: the headers, and the names of those the environment gave.
    /// - Throws: `ResolveError` for an undefined variable, at the header's line.
    private func resolvedHeaders(
        with templates: EndpointTemplates, environment: Environment, sentToEnvironmentServer: Bool
    ) throws -> (headers: HTTPHeaders, fromEnvironment: Set<String>) {
        var headers = HTTPHeaders()
        let ownNames = Self.headerNames(of: templates.endpoint)
        var fromEnvironment = Set<String>()
        for header in environment.headers where sentToEnvironmentServer && !ownNames.contains(header.name.lowercased())
        {
            do {
                let name = try templates.scope.expand(header.name).text
                headers.add(name: name, value: try templates.scope.expand(header.value).text)
                fromEnvironment.insert(name.lowercased())
            } catch {
                throw ResolveError(
                    scopeFailure: error, context: "the header \(header.name) of environment \"\(environment.name)\"",
                    at: environment.location)
            }
        }
        for (index, header) in templates.endpoint.headers.enumerated() {
            let name = try templates.expand(header.name, "headers", at: "headers[\(index)]")
            headers.add(
                name: name, value: try templates.expand(header.value, "header \(name)", at: "headers[\(index)]"))
        }
        return (headers, fromEnvironment)
    }

    /// The headers that stay with the request's origin on a redirect to another one, like
    /// credentials: those the environment gave (meant for its own server), and those whose
    /// value holds a secret, in any form the masker knows (`X-Custom: {{pw}}` with `pw` under
    /// `secrets:`).
    static func originBoundHeaders(of headers: HTTPHeaders, fromEnvironment: Set<String>, masker: SecretMasker) -> Set<
        String
    > {
        var bound = fromEnvironment
        for header in headers where !masker.secretRanges(in: header.value).isEmpty {
            bound.insert(header.name.lowercased())
        }
        return bound
    }

    /// GraphQL over HTTP: a JSON body for POST, query parameters for GET, and the `Accept`
    /// GraphQL answers with.
    ///
    /// - Returns: the document sent, or `nil` when the endpoint is not a GraphQL operation.
    /// - Throws: `ResolveError` for an unreadable or invalid document or an undefined variable.
    private func resolvedGraphQL(
        with templates: EndpointTemplates, directory: URL, query: inout ResolvedQuery, body: inout Data?,
        headers: inout HTTPHeaders
    ) throws -> GraphQLSourceText? {
        let endpoint = templates.endpoint
        guard let graphql = endpoint.graphql else { return nil }
        let source = try graphQLSource(
            of: graphql, endpoint: endpoint, directory: directory, collectionFile: templates.scope.collectionFile)
        let variables = try graphql.variables.map {
            try $0.mapStrings { try templates.expand($0, "graphql variables", at: "graphql") }
        }
        let parameters = try Self.graphQLParameters(
            source, variables: variables, operation: graphql, endpoint: endpoint)
        if endpoint.method == .get {
            for item in parameters.queryItems { query.append(item) }
        } else {
            body = parameters.body
            if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
        }
        if !headers.contains("Accept") { headers.add(name: "Accept", value: GraphQLOperation.accept) }
        return source
    }

    /// The URL as Networking builds it (so what is shown is exactly what is sent), and where
    /// the variables' values stand in it.
    ///
    /// - Throws: `ResolveError.invalidURL` when Networking cannot build it.
    private func builtURL(
        of request: BasicRequest, relativeTo baseURL: URL, baseSpans: [VariableSpan], path: ResolvedPath,
        query: ResolvedQuery,
        templates: EndpointTemplates
    ) throws -> (text: String, spans: [VariableSpan]) {
        guard let built = try? request.url(relativeTo: baseURL) else {
            throw ResolveError.invalidURL(
                endpoint: templates.endpoint.id, url: baseURL.absoluteString + path.text, at: templates.place("path"))
        }
        let url = built.absoluteString
        let tail = path.text + (query.text.isEmpty ? "" : (path.text.contains("?") ? "&" : "?") + query.text)
        var spans = baseSpans.filter { $0.range.upperBound <= baseURL.absoluteString.count }
        if url.hasSuffix(tail) {
            let pathOffset = url.count - tail.count
            spans += path.spans.map { $0.shifted(by: pathOffset) }
            spans += query.spans.map { $0.shifted(by: pathOffset + path.text.count + 1) }
        }
        return (url, spans)
    }

    /// Every value the request's masker hides: the environment's secrets (and the `--var`
    /// given for them), secret captures, the auth's secrets, secret prompt answers and what
    /// commands printed.
    private func secretValues(
        in scope: VariableScope, environment: Environment, overrides: [String: String],
        captured: [String: CapturedVariable], authSecrets: [String]
    ) -> [String] {
        var secretValues = environment.secretValues(in: scope)
        for name in environment.secrets { if let value = overrides[name] { secretValues.append(value) } }
        secretValues += captured.values.filter(\.isSecret).map(\.value)
        secretValues += authSecrets.filter { !$0.isEmpty }
        secretValues += (prompter?.secretAnswers ?? []).filter { !$0.isEmpty }
        secretValues += scope.outputs.commandOutputs.filter { !$0.isEmpty }
        return secretValues
    }

    // MARK: - URLs

    /// Whether an endpoint's path is a whole URL, so that it is sent there and not to the
    /// environment's `base_url`: written out (`https://cdn.example.com/x`), or a leading
    /// `{{variable}}` whose value in the environment or the collection is one.
    package static func pathIsWholeURL(_ path: String, in collection: APICollection, environment: Environment?) -> Bool
    {
        if server(ofAbsolute: path) != nil { return true }
        guard let first = Template(path).segments.first, case .variable(let name) = first else { return false }
        let value = environment?.variables[named: name] ?? collection.variables[named: name] ?? ""
        return server(ofAbsolute: value) != nil
    }

    /// Whether `scheme://host[:port]` is the origin of a URL (ports as the scheme's default when
    /// left out, names compared without case).
    static func isOrigin(_ server: String, of url: URL) -> Bool {
        guard let other = URL(string: server), let scheme = other.scheme?.lowercased(),
            let host = other.host?.lowercased()
        else { return false }
        func port(_ url: URL, _ scheme: String) -> Int? {
            url.port ?? ["http": 80, "ws": 80, "https": 443, "wss": 443, "grpcs": 443][scheme]
        }
        return scheme == url.scheme?.lowercased() && host == url.host?.lowercased()
            && port(other, scheme) == port(url, scheme)
    }

    /// `scheme://host[:port]` of a path that is an absolute http(s), ws(s) or grpc(s) URL, else `nil`.
    package static func server(ofAbsolute path: String) -> String? {
        // "://" found in the UTF-8 (Foundation's search bridges every path it is asked about,
        // and what a collection reaches asks it of every endpoint).
        let bytes = path.utf8
        var colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        while let found = colon, !bytes[bytes.index(after: found)...].starts(with: "//".utf8) {
            colon = bytes[bytes.index(after: found)...].firstIndex(of: UInt8(ascii: ":"))
        }
        guard let colon,
            ["http", "https", "ws", "wss", "grpc", "grpcs"].contains(path[..<colon].lowercased())
        else { return nil }
        let authority = bytes.index(colon, offsetBy: 3)
        let end = path[authority...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? path.endIndex
        return String(path[..<end])
    }

    /// The variables a request of this environment sees: `--var`, captured, the
    /// environment's, the collection's, `{{env.NAME}}` and the built-ins.
    func scope(
        for collection: APICollection, environment: Environment, overrides: [String: String],
        captured: [String: CapturedVariable]
    ) -> VariableScope {
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

    /// The names of the headers an endpoint writes itself, lowercased.
    static func headerNames(of endpoint: Endpoint) -> Set<String> {
        Set(endpoint.headers.map { $0.name.lowercased() })
    }

    /// A file named by an endpoint: absolute, or relative to the collection's folder.
    static func fileURL(_ path: String, in directory: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }

    private static func encodePath(_ text: String) -> String {
        PercentEncoding.encode(text, allowed: PercentEncoding.pathAllowed, keepEscapes: true)
    }

    fileprivate static func encodeQuery(_ text: String) -> String {
        PercentEncoding.encode(text, allowed: PercentEncoding.queryComponentAllowed, keepEscapes: false)
    }
}
