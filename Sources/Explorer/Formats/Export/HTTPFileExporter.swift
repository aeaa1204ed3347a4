import Foundation
import NetworkingCore
import Workspace

/// Writes a collection as a `.http` file for the VS Code REST Client / JetBrains HTTP Client.
///
/// Templates stay templates (`{{name}}`; explorer's built-ins become the clients' system
/// variables), so no secret is expanded into the file; the values of secret variables are
/// left out, with a comment saying where to set them.
///
/// No control character is written raw (the file is read with `cat` too): a JSON body's are
/// JSON escapes, which the clients send as the same characters; a `.http` body has no escapes
/// of its own, so a raw body's are written as visible `\u{1B}` escapes under a comment
/// saying so, to be put back by hand (the clients would otherwise send them as written).
package enum HTTPFileExporter {
    /// The `.http` text for a collection in one environment.
    ///
    /// - Parameters:
    ///   - collection: the collection.
    ///   - environment: the environment whose base URL and variables are written (the first when `nil`).
    package static func text(for collection: APICollection, environment: Environment?) -> String {
        var out = "# \(ExportText.line(collection.name)) — exported by explorer"
        let environment = environment ?? collection.environments.first
        if let environment { out += " for the environment \"\(ExportText.line(environment.name))\"" }
        out += "\n\n"
        var written: Set<String> = []
        if let environment {
            out += "@baseUrl = \(ExportText.line(convert(environment.baseURLTemplate)))\n"
            written.insert("baseUrl")
        }
        let secrets = collection.secretVariableNames(in: environment)
        for variable in (environment?.variables ?? []) + collection.variables
        where written.insert(variable.name).inserted {
            if !APICollection.mayExport(variable, secrets: secrets) {
                out +=
                    "# @\(ExportText.line(variable.name)) is a secret and is not written here: define it in "
                    + "http-client.env.json or your client's environment.\n"
            } else {
                out += "@\(ExportText.line(variable.name)) = \(ExportText.line(convert(variable.value)))\n"
            }
        }
        for endpoint in collection.endpoints {
            out += "\n### \(ExportText.line(endpoint.id))\n"
            out += "# @name \(ExportText.line(endpoint.name.replacingOccurrences(of: " ", with: "_")))\n"
            if case .raw(let text)? = endpoint.body, ExportText.hasControls(text) {
                out +=
                    "# The body holds control characters, "
                    + "written here as \\u{…}: a .http body has no escapes, so put them back before sending.\n"
            }
            // A path that is a whole URL goes to its own server, without the environment's headers.
            let wholeURL = RequestResolver.pathIsWholeURL(endpoint.path, in: collection, environment: environment)
            var path = convert(endpoint.path)
            if !wholeURL && !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
            var line = "\(endpoint.method.rawValue) \(environment == nil || wholeURL ? "" : "{{baseUrl}}")\(path)"
            let ownNames = Set(endpoint.headers.map { $0.name.lowercased() })
            var headers =
                (wholeURL ? [] : environment?.headers ?? []).filter { !ownNames.contains($0.name.lowercased()) }
                + endpoint.headers
            var query = endpoint.query
            // Credentials stay with their origin, as when explorer sends: the resolver's rule.
            let auth = RequestResolver.exportedAuthentication(for: endpoint, in: collection, environment: environment)
            applyAuth(auth, own: ownNames, headers: &headers, query: &query)
            if let auth, case .awsSigV4 = auth.scheme {
                out += "# auth: aws_sigv4 is not exported (a .http request has no AWS signing): sign it by hand.\n"
            } else if let auth, case .oauth1 = auth.scheme {
                out += "# auth: oauth1 is not exported (a .http request has no OAuth 1.0a signing): sign it by hand.\n"
            }
            if !query.isEmpty {
                line +=
                    (path.contains("?") ? "&" : "?")
                    + query.map { "\(convert($0.name))=\(convert($0.value))" }.joined(separator: "&")
            }
            out += ExportText.line(line) + "\n"
            func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }
            var body: String?
            switch endpoint.body {
            case nil: break
            case .json(let json):
                if !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", "application/json")) }
                body = JSONControlEscapes.escaping(convert(json.serialized(pretty: true)))
            case .raw(let text):
                body = ExportText.visibleControls(convert(text))
            case .file(let path):
                body = ExportText.line("< \(path)")
            case .form(let fields):
                if !hasHeader("Content-Type") {
                    headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
                }
                body = fields.map { ExportText.line("\(convert($0.name))=\(convert($0.value))") }.joined(
                    separator: "\n&")
            case .multipart(let fields):
                let boundary = "ExplorerBoundary"
                headers.removeAll { $0.name.lowercased() == "content-type" }
                headers.append(KeyValue("Content-Type", "multipart/form-data; boundary=\(boundary)"))
                var text = ""
                for field in fields {
                    text += "--\(boundary)\n"
                    var disposition = "Content-Disposition: form-data; name=\"\(field.name)\""
                    if let filename = field.filename
                        ?? (field.isFile ? (field.value as NSString).lastPathComponent : nil)
                    {
                        disposition += "; filename=\"\(filename)\""
                    }
                    text += disposition + "\n"
                    if let type = field.contentType { text += "Content-Type: \(type)\n" }
                    text +=
                        field.isFile
                        ? "\n< \(ExportText.line(field.value))\n"
                        : "\n\(ExportText.visibleControls(convert(field.value)))\n"
                }
                body = text + "--\(boundary)--"
            }
            for header in headers { out += ExportText.line("\(convert(header.name)): \(convert(header.value))") + "\n" }
            if let body { out += "\n" + body + "\n" }
        }
        return out
    }

    /// Writes an endpoint's `auth:` as the clients read it: `Authorization: Basic user password`
    /// and `Digest user password` (both clients compute these), `Bearer token`, an API key as
    /// its header or query item. Templates stay templates; a header the endpoint writes
    /// itself wins, as when explorer sends it.
    static func applyAuth(_ auth: Authentication?, own: Set<String>, headers: inout [KeyValue], query: inout [KeyValue])
    {
        func setHeader(_ name: String, _ value: String) {
            guard !own.contains(name.lowercased()) else { return }
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append(KeyValue(name, value))
        }
        switch auth?.scheme {
        case .basic(let username, let password)?: setHeader("Authorization", "Basic \(username) \(password)")
        case .digest(let username, let password)?: setHeader("Authorization", "Digest \(username) \(password)")
        case .bearer(let token)?: setHeader("Authorization", "Bearer \(token)")
        case .apiKey(let name, let value, .header)?: setHeader(name, value)
        case .apiKey(let name, let value, .query)?: query.append(KeyValue(name, value))
        // Neither client reads OAuth2 settings from a request: the token is the user's to get.
        // Nor do they sign (AWS SigV4, OAuth 1.0a): the export says so in a comment.
        case .oauth2?, .awsSigV4?, .oauth1?, .none?, nil: break
        }
    }

    /// Rewrites explorer's built-in variables into the clients' system variables.
    static func convert(_ text: String) -> String {
        Template.rewritingVariables(in: text) { name in
            switch name {
            case "uuid": return "{{$guid}}"
            case "timestamp": return "{{$timestamp}}"
            case "now": return "{{$datetime iso8601}}"
            default: return name.hasPrefix("env.") ? "{{$processEnv \(name.dropFirst(4))}}" : "{{\(name)}}"
            }
        }
    }
}
