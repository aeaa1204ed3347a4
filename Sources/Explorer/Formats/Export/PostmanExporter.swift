import Foundation
import NetworkingCore
import Workspace

/// Writes a collection as a Postman collection (format v2.1), which Postman, Insomnia and
/// newman import.
///
/// Folders stay folders; each request's URL is `{{baseUrl}}` + its path, with `baseUrl` (the
/// environment's `base_url`), the collection's variables and the environment's variables as
/// collection variables. What is written is the collection as the user wrote it: templates
/// stay templates (`{{env.NAME}}` becomes `{{NAME}}`, the built-ins Postman's dynamic
/// variables), and the values of secret variables are left empty, so no secret is exported.
package enum PostmanExporter {
    /// The schema address Postman writes in `info.schema` for v2.1.
    static let schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// The collection as Postman v2.1 JSON.
    ///
    /// - Parameter environment: whose base URL, variables and headers are written (the
    ///   collection's first when `nil`).
    package static func json(for collection: APICollection, environment: Environment? = nil) -> String {
        let environment = environment ?? collection.environments.first
        var info: [(key: String, value: JSONValue)] = [("name", .string(collection.name))]
        if let description = collection.description { info.append(("description", .string(description))) }
        info.append(("schema", .string(schema)))
        let secrets = collection.secretVariableNames(in: environment)
        var variables: [KeyValue] = [KeyValue("baseUrl", environment?.baseURLTemplate ?? "")] + collection.variables
        for variable in environment?.variables ?? [] {
            variables.removeAll { $0.name == variable.name }
            variables.append(variable)
        }
        variables = variables.map { APICollection.mayExport($0, secrets: secrets) ? $0 : KeyValue($0.name, "") }
        let root: JSONValue = .object([
            ("info", .object(info)),
            ("item", .array(collection.items.map { item($0, collection: collection, environment: environment) })),
            ("variable", .array(variables.map { pair(key: $0.name, value: convert($0.value)) })),
        ])
        // DEL and the C1 controls as JSON escapes too: the file reads back the same, and none is raw.
        return JSONControlEscapes.escaping(root.serialized(pretty: true)) + "\n"
    }

    private static func pair(key: String, value: String, extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object([("key", .string(key)), ("value", .string(value))] + extra)
    }

    private static func item(_ item: CollectionItem, collection: APICollection, environment: Environment?) -> JSONValue
    {
        switch item {
        case .folder(let folder):
            var pairs: [(key: String, value: JSONValue)] = [("name", .string(folder.name))]
            if let description = folder.description { pairs.append(("description", .string(description))) }
            pairs.append(
                ("item", .array(folder.items.map { self.item($0, collection: collection, environment: environment) })))
            return .object(pairs)
        case .endpoint(let endpoint):
            // A path that is a whole URL goes to its own server, without the environment's headers.
            let wholeURL = RequestResolver.pathIsWholeURL(endpoint.path, in: collection, environment: environment)
            let own = Set(endpoint.headers.map { $0.name.lowercased() })
            let headers =
                (wholeURL ? [] : environment?.headers ?? []).filter { !own.contains($0.name.lowercased()) }
                + endpoint.headers
            var path =
                wholeURL || endpoint.path.hasPrefix("/") || endpoint.path.isEmpty ? endpoint.path : "/" + endpoint.path
            var rawQuery = ""
            if let mark = path.firstIndex(of: "?") {
                rawQuery = String(path[path.index(after: mark)...])
                path = String(path[..<mark])
            }
            let query = endpoint.query.map { "\(convert($0.name))=\(convert($0.value))" }
            let queryText = ([rawQuery].filter { !$0.isEmpty } + query).joined(separator: "&")
            // Postman reads a URL from `raw`; host and path are what it shows.
            let leadingVariable = path.range(of: "}}").map { String(path[..<$0.upperBound]) } ?? ""
            let origin = wholeURL ? RequestResolver.server(ofAbsolute: path) ?? leadingVariable : "{{baseUrl}}"
            let rest = wholeURL ? String(path.dropFirst(origin.count)) : path
            var url: [(key: String, value: JSONValue)] = [
                (
                    "raw",
                    .string(
                        (wholeURL ? "" : "{{baseUrl}}") + convert(path) + (queryText.isEmpty ? "" : "?" + queryText))
                ),
                ("host", .array([.string(convert(origin))])),
                ("path", .array(rest.split(separator: "/").map { .string(convert(String($0))) })),
            ]
            if !endpoint.query.isEmpty {
                url.append(
                    ("query", .array(endpoint.query.map { pair(key: convert($0.name), value: convert($0.value)) })))
            }
            var request: [(key: String, value: JSONValue)] = [
                ("method", .string(endpoint.method.rawValue)),
                ("header", .array(headers.map { pair(key: $0.name, value: convert($0.value)) })),
            ]
            // Credentials stay with their origin, as when explorer sends (the resolver's rule);
            // `noauth` where an inherited one is left out, so that Postman does not inherit it either.
            let exported = RequestResolver.exportedAuthentication(
                for: endpoint, in: collection, environment: environment)
            let withheld = exported == nil && collection.authentication(for: endpoint, in: environment) != nil
            let written: JSONValue? = withheld ? .object([("type", .string("noauth"))]) : auth(exported)
            if let written { request.append(("auth", written)) }
            if let body = body(endpoint.body) { request.append(("body", body)) }
            request.append(("url", .object(url)))
            if let description = endpoint.description { request.append(("description", .string(description))) }
            return .object([("name", .string(endpoint.name)), ("request", .object(request)), ("response", .array([]))])
        }
    }

    /// An endpoint's `auth:` as Postman's request `auth` (templates stay templates; Postman
    /// answers digest challenges itself). `auth: none` is `noauth`, so Postman does not
    /// inherit a folder's.
    private static func auth(_ auth: Authentication?) -> JSONValue? {
        func scheme(_ type: String, _ pairs: [(String, String)]) -> JSONValue {
            .object([
                ("type", .string(type)),
                (
                    type,
                    .array(pairs.map { pair(key: $0.0, value: convert($0.1), extra: [("type", .string("string"))]) })
                ),
            ])
        }
        switch auth?.scheme {
        case nil: return nil
        case .none?: return .object([("type", .string("noauth"))])
        case .basic(let username, let password)?:
            return scheme("basic", [("username", username), ("password", password)])
        case .digest(let username, let password)?:
            return scheme("digest", [("username", username), ("password", password)])
        case .bearer(let token)?: return scheme("bearer", [("token", token)])
        case .apiKey(let name, let value, let placement)?:
            return scheme(
                "apikey", [("key", name), ("value", value), ("in", placement == .query ? "query" : "header")])
        case .oauth2(let settings)?:
            // Postman's names for the grants it has (it has no device code grant).
            let grants = [
                "client_credentials": "client_credentials", "password": "password_credentials",
                "authorization_code": "authorization_code_with_pkce",
            ]
            guard let grant = grants[settings.grant] else { return nil }
            let names = [
                ("token_url", "accessTokenUrl"), ("authorization_url", "authUrl"), ("client_id", "clientId"),
                ("client_secret", "clientSecret"), ("scope", "scope"), ("username", "username"),
                ("password", "password"),
            ]
            var pairs =
                [("grant_type", grant)] + names.compactMap { key, name in settings.values[key].map { (name, $0) } }
            if settings.grant == "authorization_code" { pairs.append(("challengeAlgorithm", "S256")) }
            pairs.append(("client_authentication", settings.values["client_auth"] == "body" ? "body" : "header"))
            return scheme("oauth2", pairs)
        case .awsSigV4(let settings)?:
            // Postman's awsv4 has no profile: a profile-only auth is left for the user to fill in.
            let names = [
                ("access_key_id", "accessKey"), ("secret_access_key", "secretKey"), ("region", "region"),
                ("service", "service"), ("session_token", "sessionToken"),
            ]
            return scheme("awsv4", names.compactMap { key, name in settings.values[key].map { (name, $0) } })
        case .oauth1(let settings)?:
            let names = [
                ("consumer_key", "consumerKey"), ("consumer_secret", "consumerSecret"), ("token", "token"),
                ("token_secret", "tokenSecret"), ("signature_method", "signatureMethod"), ("realm", "realm"),
                ("nonce", "nonce"), ("timestamp", "timestamp"), ("callback", "callback"), ("verifier", "verifier"),
                ("private_key", "privateKey"),
            ]
            var pairs = names.compactMap { key, name in settings.values[key].map { (name, $0) } }
            if settings.values["signature_method"] == nil { pairs.append(("signatureMethod", "HMAC-SHA1")) }
            pairs += [
                ("version", "1.0"),
                ("addParamsToHeader", settings.values["in", default: "header"] == "header" ? "true" : "false"),
            ]
            return scheme("oauth1", pairs)
        }
    }

    private static func body(_ body: EndpointBody?) -> JSONValue? {
        switch body {
        case nil: return nil
        case .json(let json):
            return .object([
                ("mode", .string("raw")), ("raw", .string(convert(json.serialized(pretty: true)))),
                ("options", .object([("raw", .object([("language", .string("json"))]))])),
            ])
        case .raw(let text):
            return .object([("mode", .string("raw")), ("raw", .string(convert(text)))])
        case .file(let path):
            return .object([("mode", .string("file")), ("file", .object([("src", .string(path))]))])
        case .form(let fields):
            return .object([
                ("mode", .string("urlencoded")),
                (
                    "urlencoded",
                    .array(
                        fields.map {
                            pair(key: convert($0.name), value: convert($0.value), extra: [("type", .string("text"))])
                        })
                ),
            ])
        case .multipart(let fields):
            return .object([
                ("mode", .string("formdata")),
                (
                    "formdata",
                    .array(
                        fields.map { field in
                            var pairs: [(key: String, value: JSONValue)] = [("key", .string(convert(field.name)))]
                            if field.isFile {
                                pairs += [("type", .string("file")), ("src", .string(field.value))]
                            } else {
                                pairs += [("value", .string(convert(field.value))), ("type", .string("text"))]
                            }
                            if let type = field.contentType { pairs.append(("contentType", .string(type))) }
                            return .object(pairs)
                        })
                ),
            ])
        }
    }

    /// Explorer's templates as Postman's: `{{env.NAME}}` → `{{NAME}}`, built-ins → dynamic variables.
    static func convert(_ text: String) -> String {
        Template.rewritingVariables(in: text) { name in
            switch name {
            case "uuid": return "{{$guid}}"
            case "timestamp": return "{{$timestamp}}"
            case "now": return "{{$isoTimestamp}}"
            default: return "{{\(name.hasPrefix("env.") ? String(name.dropFirst(4)) : name)}}"
            }
        }
    }
}
