import Foundation
import NetworkingCore
import Workspace

extension ThunderImporter {
    /// The collection of what was read: one collection at the top, several as one folder each.
    static func collection(of source: inout Source) -> ImportResult {
        var walker = Walker()
        walker.warnings = source.warnings
        let several = source.collections.count > 1
        var items: [CollectionItem] = []
        var rootAuth: Authentication?
        var usedNames: Set<String> = []
        for collection in source.collections {
            let auth = walker.authentication(
                collection.settings?["auth"], owner: "the collection \"\(collection.name)\"")
            let headers = walker.rows(collection.settings?["headers"]).filter(\.enabled).map(\.row)
            var name = collection.name
            var counter = 2
            while several && !usedNames.insert(name).inserted {
                name = "\(collection.name) (\(counter))"
                counter += 1
            }
            let inner = walker.walk(
                collection, container: "", folderPath: several ? [name] : [], headers: headers,
                hasAuth: auth.map { $0.scheme != .none } ?? false)
            if several {
                items.append(.folder(Folder(name: name, items: inner, auth: auth)))
            } else {
                items = inner
                rootAuth = auth
            }
        }
        let (placed, found) = ImportedOrigins.relativeToMainOrigin(items)
        let baseURL = found ?? "http://localhost"
        var collection = APICollection(name: several ? "Imported from Thunder Client" : source.collections[0].name)
        collection.items = placed
        collection.auth = rootAuth
        collection.variables = source.environments.filter(\.isGlobal).flatMap(\.variables)
        var environments: [Environment] = []
        for environment in source.environments where !environment.isGlobal {
            var name = environment.name
            var counter = 2
            while environments.contains(where: { $0.name == name }) {
                name = "\(environment.name) (\(counter))"
                counter += 1
            }
            environments.append(
                Environment(
                    name: name, baseURLTemplate: baseURL, variables: environment.variables,
                    secrets: environment.secrets))
        }
        collection.environments =
            environments.isEmpty ? [Environment(name: "default", baseURLTemplate: baseURL)] : environments
        return ImportResult(collection: collection, warnings: walker.report())
    }

    /// Walks a collection's folders and requests into collection items.
    struct Walker {
        var warnings: [String] = []
        /// Requests with scripts (pre-request, post-request), which do not run here.
        var scripts: [String] = []
        /// Tests that do not map, by request.
        var unmappedTests: [String] = []
        /// Requests skipped, each with why.
        var skipped: [String] = []

        /// The items of one container (the collection, `""`, or a folder's id), by `sortNum`.
        ///
        /// - Parameters:
        ///   - headers: the headers of the folders and collection around, written into each request.
        ///   - hasAuth: whether a folder or the collection around has auth (so "none" must say so).
        mutating func walk(
            _ collection: ThunderCollection, container: String, folderPath: [String], headers: [KeyValue],
            hasAuth: Bool, depth: Int = 0
        ) -> [CollectionItem] {
            // A folder that names itself (or a cycle) as its container is not walked for ever.
            guard depth < 64 else { return [] }
            func sortNumber(_ value: JSONValue) -> Double { Double(ThunderImporter.text(value["sortNum"]) ?? "") ?? 0 }
            func isHere(_ value: JSONValue) -> Bool {
                let parent = ThunderImporter.text(value["containerId"]) ?? ""
                if container.isEmpty {
                    // A container that is no folder of the collection puts the item at its top.
                    return parent.isEmpty || !collection.folders.contains { ThunderImporter.text($0["_id"]) == parent }
                }
                return parent == container
            }
            let folders = collection.folders.filter(isHere).map { (value: $0, isFolder: true) }
            let requests = collection.requests.filter(isHere).map { (value: $0, isFolder: false) }
            let ordered = (folders + requests).enumerated().sorted {
                (sortNumber($0.element.value), $0.offset) < (sortNumber($1.element.value), $1.offset)
            }.map(\.element)
            var items: [CollectionItem] = []
            var used: Set<String> = []
            for (value, isFolder) in ordered {
                let base = ThunderImporter.text(value["name"]).flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
                var name = base
                var counter = 2
                while !used.insert(name).inserted {
                    name = "\(base) (\(counter))"
                    counter += 1
                }
                let address = (folderPath + [name]).joined(separator: "/")
                if isFolder {
                    let id = ThunderImporter.text(value["_id"]) ?? ""
                    guard !id.isEmpty, id != container else { continue }
                    let auth = authentication(value["settings"]?["auth"], owner: "the folder \"\(address)\"")
                    let own = rows(value["settings"]?["headers"]).filter(\.enabled).map(\.row)
                    let inner = walk(
                        collection, container: id, folderPath: folderPath + [name], headers: headers + own,
                        hasAuth: hasAuth || (auth.map { $0.scheme != .none } ?? false), depth: depth + 1)
                    let description = ThunderImporter.text(value["docs"]).flatMap { $0.isEmpty ? nil : $0 }
                    items.append(.folder(Folder(name: name, items: inner, description: description, auth: auth)))
                } else if let endpoint = endpoint(
                    value, name: name, address: address, headers: headers, hasAuth: hasAuth)
                {
                    var endpoint = endpoint
                    endpoint.folderPath = folderPath
                    items.append(.endpoint(endpoint))
                }
            }
            return items
        }

        /// One request as an endpoint, or `nil` (said) when it has no URL.
        private mutating func endpoint(
            _ request: JSONValue, name: String, address: String, headers inherited: [KeyValue], hasAuth: Bool
        ) -> Endpoint? {
            guard case .object = request,
                var url = ThunderImporter.text(request["url"]).map(ThunderImporter.converted),
                !url.trimmingCharacters(in: .whitespaces).isEmpty
            else {
                skipped.append("\"\(address)\" (it has no URL)")
                return nil
            }
            let method = (ThunderImporter.text(request["method"]) ?? "GET").uppercased()
            guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                skipped.append("\"\(address)\" (its method \"\(method)\" is not an HTTP method)")
                return nil
            }
            let params = rows(request["params"])
            for parameter in params where parameter.isPath {
                url = url.replacingOccurrences(of: "{\(parameter.row.name)}", with: parameter.row.value)
                    .replacingOccurrences(of: ":\(parameter.row.name)", with: parameter.row.value)
            }
            // The URL holds the enabled parameters as Thunder sends them; ones it lacks are added.
            var parts = URLParts(url.trimmingCharacters(in: .whitespaces))
            let query = params.filter { !$0.isPath }
            if parts.query.isEmpty && !parts.path.contains("?") {
                parts.query = query.filter(\.enabled).map(\.row)
            }
            var headers = rows(request["headers"])
            for header in inherited.reversed()
            where !headers.contains(where: { $0.row.name.lowercased() == header.name.lowercased() }) {
                headers.insert((header, true, false), at: 0)
            }
            var endpoint = Endpoint(
                name: name, method: HTTPMethod(exactly: method), path: parts.origin + parts.path, query: parts.query,
                headers: headers.filter(\.enabled).map(\.row))
            endpoint.disabled.query = query.filter { !$0.enabled }.map(\.row)
            endpoint.disabled.headers = headers.filter { !$0.enabled }.map(\.row)
            if let docs = ThunderImporter.text(request["docs"]), !docs.isEmpty { endpoint.description = docs }
            body(request["body"], into: &endpoint, address: address)
            let hasAuthorization = endpoint.headers.contains { $0.name.lowercased() == "authorization" }
            if !hasAuthorization {
                let auth = authentication(request["auth"], owner: "\"\(address)\"")
                endpoint.auth = auth?.scheme == Authentication.Scheme.none && !hasAuth ? nil : auth
            }
            tests(request["tests"], into: &endpoint, address: address)
            if let preReq = request["preReq"], preReq != .null, preReq != .object([]) { scripts.append(address) }
            if let script = ThunderImporter.text(request["preRequestScript"])
                ?? ThunderImporter.text(request["postReq"]),
                !script.isEmpty
            {
                scripts.append(address)
            }
            return endpoint
        }

        /// A list of `name`/`value` rows, with `isDisabled` and `isPath`.
        func rows(_ value: JSONValue?) -> [(row: KeyValue, enabled: Bool, isPath: Bool)] {
            (value?.arrayValue ?? []).compactMap { item in
                guard let name = ThunderImporter.text(item["name"]), !name.isEmpty else { return nil }
                return (
                    KeyValue(
                        ThunderImporter.converted(name),
                        ThunderImporter.converted(ThunderImporter.text(item["value"]) ?? "")),
                    item["isDisabled"]?.boolValue != true, item["isPath"]?.boolValue == true
                )
            }
        }

        /// `body:` by its `type`.
        private mutating func body(_ value: JSONValue?, into endpoint: inout Endpoint, address: String) {
            guard let value, case .object = value else { return }
            let type = ThunderImporter.text(value["type"]) ?? "none"
            let raw = ThunderImporter.converted(ThunderImporter.text(value["raw"]) ?? "")
            func contentType(_ type: String) {
                if !endpoint.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                    endpoint.headers.append(KeyValue("Content-Type", type))
                }
            }
            switch type {
            case "json":
                guard !raw.isEmpty else { return }
                endpoint.body = .raw(raw)
                contentType("application/json")
            case "text":
                guard !raw.isEmpty else { return }
                endpoint.body = .raw(raw)
                contentType("text/plain")
            case "xml":
                guard !raw.isEmpty else { return }
                endpoint.body = .raw(raw)
                contentType("application/xml")
            case "formencoded":
                let form = rows(value["form"])
                endpoint.body = .form(form.filter(\.enabled).map(\.row))
                endpoint.disabled.form = form.filter { !$0.enabled }.map(\.row)
            case "formdata":
                let fields = rows(value["form"]).map {
                    (MultipartField(name: $0.row.name, value: $0.row.value), $0.enabled)
                }
                let files = rows(value["files"]).map {
                    (MultipartField(name: $0.row.name, value: $0.row.value, isFile: true), $0.enabled)
                }
                endpoint.body = .multipart((fields + files).filter(\.1).map(\.0))
                endpoint.disabled.multipart = (fields + files).filter { !$0.1 }.map(\.0)
                endpoint.headers.removeAll { $0.name.lowercased() == "content-type" }
            case "graphql":
                let graphql = value["graphql"]
                let query = ThunderImporter.converted(ThunderImporter.text(graphql?["query"]) ?? "")
                guard !query.isEmpty else { return }
                let variablesText = ThunderImporter.text(graphql?["variables"]) ?? ""
                var variables: JSONValue?
                if !variablesText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    variables = JSONValue.container(parsing: ThunderImporter.converted(variablesText))
                    if variables == nil {
                        warnings.append("\"\(address)\": its GraphQL variables are not JSON; they were left out.")
                    }
                }
                endpoint.graphql = GraphQLOperation(document: .inline(query), variables: variables)
                endpoint.headers.removeAll { $0.name.lowercased() == "content-type" }
            case "binary":
                if let file = ThunderImporter.text(value["binary"]), !file.isEmpty { endpoint.body = .file(file) }
            case "none", "":
                return
            default:
                warnings.append("\"\(address)\" has a body of type \"\(type)\", which is not imported.")
            }
        }

        /// An `auth` block, or `nil` to inherit (`inherit`, nothing, or a kind that cannot be
        /// sent as it is, said).
        mutating func authentication(_ auth: JSONValue?, owner: String) -> Authentication? {
            guard let auth, case .object = auth, let type = ThunderImporter.text(auth["type"]) else { return nil }
            func field(_ path: String...) -> String {
                var value: JSONValue? = auth
                for key in path { value = value?[key] }
                return ThunderImporter.converted(ThunderImporter.text(value) ?? "")
            }
            switch type {
            case "inherit", "": return nil
            case "none": return Authentication(.none)
            case "basic":
                return Authentication(
                    .basic(username: field("basic", "username"), password: field("basic", "password")))
            case "bearer":
                let prefix = field("bearerPrefix")
                if !prefix.isEmpty && prefix.lowercased() != "bearer" {
                    warnings.append(
                        "\(owner) sends its token with the prefix \"\(prefix)\"; it is imported as a Bearer token: "
                            + "add an Authorization header if the server needs that prefix.")
                }
                return Authentication(.bearer(token: field("bearer")))
            case "oauth2":
                return oauth2(auth, owner: owner)
            case "ntlm":
                warnings.append(
                    "\(owner) uses NTLM authentication, which explorer has not; it was imported as no auth "
                        + "(nothing weaker is sent in its place).")
                return nil
            case "aws":
                // Thunder's fields by the format's keys; empty ones left out (region and
                // service are then guessed from an *.amazonaws.com host, as curl does).
                let keys = [
                    "access_key_id": "accessKeyId", "secret_access_key": "secretAccessKey",
                    "session_token": "sessionToken", "region": "region", "service": "service",
                ]
                var values: [String: String] = [:]
                for (key, thunderKey) in keys where !field("aws", thunderKey).isEmpty {
                    values[key] = field("aws", thunderKey)
                }
                guard (values["access_key_id"] == nil) == (values["secret_access_key"] == nil) else {
                    warnings.append(
                        "\(owner) signs with AWS Signature Version 4 without its "
                            + (values["access_key_id"] == nil ? "access key id" : "secret access key")
                            + "; it was imported as no auth: write its auth: by hand.")
                    return nil
                }
                return Authentication(.awsSigV4(AWSSigV4Settings(values)))
            default:
                warnings.append("\(owner) uses \(type) authentication, which is not imported; add it by hand.")
                return nil
            }
        }

        /// Thunder's OAuth 2 block as an `oauth2` auth, when its grant is one explorer has.
        private mutating func oauth2(_ auth: JSONValue, owner: String) -> Authentication? {
            let block = auth["oauth2"] ?? .object([])
            func field(_ key: String) -> String { ThunderImporter.converted(ThunderImporter.text(block[key]) ?? "") }
            let grants = [
                "client_credentials": "client_credentials", "password": "password",
                "authorization_code": "authorization_code", "refresh_token": "refresh_token",
            ]
            guard let grant = grants[field("grantType")] else {
                warnings.append(
                    "\(owner) uses OAuth 2 with the \(field("grantType").isEmpty ? "unnamed" : field("grantType")) "
                        + "grant, which explorer has not; add its token by hand.")
                return nil
            }
            var values = ["grant": grant]
            let keys = [
                "token_url": "tokenUrl", "client_id": "clientId", "client_secret": "clientSecret", "scope": "scope",
                "authorization_url": "authUrl", "username": "username", "password": "password",
                "refresh_token": "refreshToken", "audience": "audience",
            ]
            for (key, thunderKey) in keys where !field(thunderKey).isEmpty { values[key] = field(thunderKey) }
            if field("clientAuth") == "in-body" { values["client_auth"] = "body" }
            let missing = (["token_url", "client_id"] + (OAuth2Settings.requiredKeys[grant] ?? [])).filter {
                values[$0] == nil
            }
            guard missing.isEmpty else {
                warnings.append(
                    "\(owner) uses OAuth 2 (\(grant)) without its \(missing.joined(separator: ", ")); "
                        + "it was imported as no auth: write its auth: by hand.")
                return nil
            }
            return Authentication(.oauth2(OAuth2Settings(values)))
        }

        /// Every warning: what was said on the way, then one sentence per kind.
        func report() -> [String] {
            var out = warnings
            if !unmappedTests.isEmpty {
                out.append(
                    "tests that have no explorer assertion were left out: " + unmappedTests.joined(separator: "; ")
                        + ".")
            }
            if !scripts.isEmpty {
                out.append(
                    scripts.map { "\"\($0)\"" }.joined(separator: ", ")
                        + " \(scripts.count == 1 ? "has" : "have") scripts or pre-request runs, which explorer does not "
                        + "run (no scripts, by design); they were left out.")
            }
            if !skipped.isEmpty {
                out.append(
                    "\(skipped.count) request\(skipped.count == 1 ? " was" : "s were") skipped: "
                        + skipped.joined(separator: ", ") + ".")
            }
            return out
        }
    }
}
