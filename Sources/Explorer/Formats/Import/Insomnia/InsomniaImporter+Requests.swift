import Foundation
import NetworkingCore
import Workspace

extension InsomniaImporter {
    /// Walks a workspace's tree of folders and requests (format 5's shape) into collection items.
    struct Walker {
        /// The template conversion, with the folder values in effect.
        var tags: InsomniaTags

        /// The items of one level.
        ///
        /// - Parameters:
        ///   - items: the folders and requests, in order.
        ///   - folderPath: the folders around them.
        ///   - folderAuth: whether a folder around them has its own `auth:` (so a request's
        ///     "No Auth" must turn it off).
        mutating func walk(_ items: [LooseObject], folderPath: [String], folderAuth: Bool) -> [CollectionItem] {
            var out: [CollectionItem] = []
            var used: Set<String> = []
            for item in items {
                let name = item.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
                var unique = name
                var counter = 2
                while !used.insert(unique).inserted {
                    unique = "\(name) (\(counter))"
                    counter += 1
                }
                let description = (item.object("meta")?.text("description") ?? item.text("description")).flatMap {
                    $0.isEmpty ? nil : $0
                }
                if let children = item["children"] as? [Any] {
                    // A folder's environment is written into the requests inside it (see the type's comment).
                    let outer = tags.folderValues
                    for pair in tags.pairs(item.object("environment")) { tags.folderValues[pair.name] = pair.value }
                    let auth = authentication(
                        item.object("authentication"), owner: "the folder \"\(unique)\"", turnsOff: folderAuth)
                    let inner = walk(
                        children.compactMap { $0 as? LooseObject }, folderPath: folderPath + [unique],
                        folderAuth: folderAuth || (auth != nil && auth?.scheme != Authentication.Scheme.none))
                    tags.folderValues = outer
                    noteScripts(item, owner: "the folder \"\(unique)\"")
                    out.append(.folder(Folder(name: unique, items: inner, description: description, auth: auth)))
                } else if item["protoMethodName"] != nil || item["reflectionApi"] != nil || item["protoFileId"] != nil {
                    tags.grpcRequests.append((folderPath + [unique]).joined(separator: "/"))
                } else if item["eventListeners"] != nil
                    || (item.object("meta")?.text("id") ?? "").hasPrefix("socketio-req")
                {
                    // No method, as a WebSocket request, but Engine.IO's handshake and framing: not one.
                    tags.socketIORequests.append((folderPath + [unique]).joined(separator: "/"))
                } else {
                    var endpoint = self.endpoint(item, name: unique, folderAuth: folderAuth)
                    endpoint.folderPath = folderPath
                    endpoint.description = description
                    if let id = item.object("meta")?.text("id") { tags.addresses[id] = endpoint.id }
                    noteScripts(item, owner: "\"\(endpoint.id)\"")
                    out.append(.endpoint(endpoint))
                }
            }
            return out
        }

        /// Scripts (Insomnia 9 and later) are not run here: reported by owner.
        private mutating func noteScripts(_ item: LooseObject, owner: String) {
            let scripts = item.object("scripts") ?? [:]
            let texts = [
                scripts.text("preRequest"), scripts.text("afterResponse"), item.text("preRequestScript"),
                item.text("afterResponseScript"),
            ]
            if texts.contains(where: { !($0 ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
                tags.scripts.append(owner)
            }
        }

        /// One request (or WebSocket request) as an endpoint.
        private mutating func endpoint(_ request: LooseObject, name: String, folderAuth: Bool) -> Endpoint {
            let isWebSocket = request["method"] == nil
            var urlText = tags.convert(request.text("url") ?? "")
            if !urlText.contains("://") && !urlText.hasPrefix("{{") {
                urlText = (isWebSocket ? "ws://" : "http://") + urlText
            }
            let parts = URLParts(urlText)
            let query =
                parts.query
                + request.objects("parameters").filter { !$0.flag("disabled") }.compactMap { parameter in
                    parameter.text("name").flatMap {
                        $0.isEmpty ? nil : KeyValue($0, tags.convert(parameter.text("value") ?? ""))
                    }
                }
            var headers = request.objects("headers").filter { !$0.flag("disabled") }.compactMap { header in
                header.text("name").flatMap {
                    $0.isEmpty ? nil : KeyValue(tags.convert($0), tags.convert(header.text("value") ?? ""))
                }
            }
            func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }

            var body: EndpointBody?
            var graphql: GraphQLOperation?
            let bodyObject = request.object("body") ?? [:]
            let mimeType = bodyObject.text("mimeType") ?? ""
            let params = bodyObject.objects("params").filter { !$0.flag("disabled") }
            if mimeType == "application/graphql", let text = bodyObject.text("text"), !text.isEmpty,
                case .object(let pairs)? = JSONValue.container(parsing: text),
                case .string(let document)? = pairs.first(where: { $0.key == "query" })?.value,
                let variables = Self.graphQLVariables(pairs.first { $0.key == "variables" }?.value),
                Self.isGraphQLDocument(tags.convert(document))
            {
                // Insomnia keeps a GraphQL body as the JSON it sends.
                let operation: String? =
                    if case .string(let name)? = pairs.first(where: { $0.key == "operationName" })?.value, !name.isEmpty
                    { name } else { nil }
                graphql = GraphQLOperation(
                    document: .inline(tags.convert(document)),
                    variables: variables.flatMap { $0 == .null ? nil : tags.convert($0) },
                    operationName: operation)
                headers.removeAll { $0.name.lowercased() == "content-type" }
            } else if let text = bodyObject.text("text"), !text.isEmpty {
                body = .raw(tags.convert(text))
                var sentType = mimeType
                if mimeType == "application/graphql" {
                    // A query explorer cannot read as GraphQL (empty, unfinished, or with its
                    // variables not an object): the JSON Insomnia sends, as it is.
                    tags.warnings.append(
                        "\"\(name)\": its GraphQL query is empty or does not parse (or its variables are not an "
                            + "object), so it is imported as the JSON body Insomnia sends; fix the query to send it "
                            + "as GraphQL.")
                    sentType = "application/json"
                }
                if !sentType.isEmpty && !hasHeader("Content-Type") {
                    headers.append(KeyValue("Content-Type", sentType))
                }
            } else if let file = bodyObject.text("fileName"), !file.isEmpty {
                body = .file(file)
            } else if !params.isEmpty && mimeType.hasPrefix("multipart/form-data") {
                body = .multipart(
                    params.map { param in
                        param.text("type") == "file"
                            ? MultipartField(
                                name: tags.convert(param.text("name") ?? ""), value: param.text("fileName") ?? "",
                                isFile: true)
                            : MultipartField(
                                name: tags.convert(param.text("name") ?? ""),
                                value: tags.convert(param.text("value") ?? ""))
                    })
                headers.removeAll { $0.name.lowercased() == "content-type" }
            } else if !params.isEmpty {
                body = .form(
                    params.map { KeyValue(tags.convert($0.text("name") ?? ""), tags.convert($0.text("value") ?? "")) })
            }

            var endpoint = Endpoint(
                name: name, method: HTTPMethod(exactly: request.text("method") ?? "GET"),
                path: parts.origin + parts.path,
                query: query, headers: headers, body: body)
            endpoint.graphql = graphql
            if isWebSocket { endpoint.webSocket = WebSocketSettings() }
            // An Authorization header written by hand wins, as in Insomnia.
            if !hasHeader("Authorization") {
                endpoint.auth = authentication(
                    request.object("authentication"), owner: "\"\(name)\"", turnsOff: folderAuth)
            }
            return endpoint
        }

        /// An `authentication` block as an `auth:`.
        ///
        /// - Parameters:
        ///   - turnsOff: whether "No Auth" must be written (a folder around has one).
        /// - Returns: `nil` to inherit (an empty block, a disabled one, or a kind that cannot be
        ///   sent as it is, reported).
        mutating func authentication(_ auth: LooseObject?, owner: String, turnsOff: Bool) -> Authentication? {
            guard let auth, let type = auth.text("type"), !auth.flag("disabled") else { return nil }
            func value(_ key: String) -> String { tags.convert(auth.text(key) ?? "") }
            switch type {
            case "none":
                return turnsOff ? Authentication(.none) : nil
            case "basic":
                return Authentication(.basic(username: value("username"), password: value("password")))
            case "digest":
                return Authentication(.digest(username: value("username"), password: value("password")))
            case "bearer":
                let prefix = auth.text("prefix") ?? ""
                if !prefix.isEmpty && prefix.lowercased() != "bearer" {
                    tags.warnings.append(
                        "\(owner) sends its token with the prefix \"\(prefix)\"; it is imported as a Bearer token: add "
                            + "an Authorization header if the server needs that prefix."
                    )
                }
                return Authentication(.bearer(token: value("token")))
            case "apikey":
                let placement: Authentication.KeyPlacement
                switch auth.text("addTo") {
                case "queryParams": placement = .query
                case "cookie":
                    tags.warnings.append(
                        "\(owner) sends its API key as a cookie, which an auth: cannot; add a Cookie header.")
                    return nil
                default: placement = .header
                }
                guard !value("key").trimmingCharacters(in: .whitespaces).isEmpty else {
                    // Insomnia sends nothing for a key without a name (a block left half filled in).
                    tags.warnings.append(
                        "\(owner) has API key auth without the key's name; "
                            + "a key without a name cannot be sent, so it was imported as no auth."
                    )
                    return turnsOff ? Authentication(.none) : nil
                }
                return Authentication(.apiKey(name: value("key"), value: value("value"), placement: placement))
            case "oauth2":
                let grants = [
                    "client_credentials": "client_credentials", "authorization_code": "authorization_code",
                    "password": "password",
                    "refresh_token": "refresh_token",
                ]
                guard let grant = grants[auth.text("grantType") ?? ""] else {
                    tags.warnings.append(
                        "\(owner) uses OAuth 2 with the \(auth.text("grantType") ?? "unnamed") grant, "
                            + "which explorer has not; add its token by hand."
                    )
                    return nil
                }
                var values = ["grant": grant]
                let keys = [
                    "token_url": "accessTokenUrl", "client_id": "clientId", "client_secret": "clientSecret",
                    "scope": "scope",
                    "audience": "audience", "authorization_url": "authorizationUrl", "username": "username",
                    "password": "password",
                    "refresh_token": "refreshToken",
                ]
                for (key, insomniaKey) in keys {
                    let text = value(insomniaKey)
                    if !text.isEmpty { values[key] = text }
                }
                if auth.text("credentialsInBody") == "true" || auth.flag("credentialsInBody") {
                    values["client_auth"] = "body"
                }
                // A block left half filled in cannot get a token (and `auth:` would not load).
                let missing = (["token_url", "client_id"] + (OAuth2Settings.requiredKeys[grant] ?? [])).filter {
                    values[$0] == nil
                }
                guard missing.isEmpty else {
                    tags.warnings.append(
                        "\(owner) uses OAuth 2 (\(grant)) without its \(missing.joined(separator: ", ")); "
                            + "it was imported as no auth: write its auth: by hand."
                    )
                    return turnsOff ? Authentication(.none) : nil
                }
                return Authentication(.oauth2(OAuth2Settings(values)))
            default:
                tags.warnings.append(
                    "\(owner) uses \(type) authentication, "
                        + "which is not imported (nothing weaker is sent in its place); add its credentials by hand."
                )
                return nil
            }
        }
    }
}
