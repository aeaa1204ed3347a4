import Checks
import Foundation
import NetworkingCore
import Workspace

/// Writes endpoints as a Hurl file (hurl.dev), captures and assertions included, so a
/// collection's checks run in CI without the explorer.
///
/// Hurl has no environments: the environment's base URL is written into each request line
/// (its templates kept), and its variables become the `--variable` flags a comment at the top
/// lists; secrets are never written (the comment names them, to pass at run time). Templates
/// stay `{{name}}`, which Hurl reads the same way; `{{uuid}}` becomes Hurl's `{{newUuid}}` and
/// `{{env.NAME}}` becomes `{{NAME}}`. What Hurl cannot say is written as a comment where it
/// would go, never dropped silently: template functions (`{{base64 …}}`), a regex capture
/// from the headers, digest auth. No control character is written raw: a JSON body's are JSON
/// escapes, a raw body holding one is a oneline string with Hurl's escapes (`\u{1B}`), and
/// values use the same escapes; Hurl sends each as the character it stands for.
package enum HurlExporter {
    /// The Hurl text for endpoints of a collection in one environment.
    ///
    /// - Parameters:
    ///   - endpoints: the endpoints, in the order asked; the endpoints they `requires:` are
    ///     written before them (Hurl runs a file in order), each once.
    ///   - collection: the collection.
    ///   - environment: the environment whose base URL and headers are written.
    /// - Returns: the file's text.
    package static func text(for endpoints: [Endpoint], in collection: APICollection, environment: Environment?)
        -> String
    {
        var ordered: [Endpoint] = []
        var seen: Set<String> = []
        for endpoint in endpoints {
            for (required, _) in collection.prerequisites(of: endpoint, captured: [:])
            where seen.insert(required.id).inserted {
                ordered.append(required)
            }
            if seen.insert(endpoint.id).inserted { ordered.append(endpoint) }
        }
        var out = "# \(ExportText.line(collection.name)) — exported by explorer"
        if let environment { out += " for the environment \"\(ExportText.line(environment.name))\"" }
        out += "\n"
        let captured = Set(ordered.flatMap { $0.captures.map(\.name) })
        let variables = (environment?.variables ?? []) + collection.variables
        let secretNames = collection.secretVariableNames(in: environment)
        var flags: [String] = []
        var secrets: [String] = []
        var written: Set<String> = []
        for variable in variables where written.insert(variable.name).inserted && !captured.contains(variable.name) {
            if secretNames.contains(variable.name) {
                secrets.append(variable.name)
            } else {
                flags.append("--variable \(ExportText.line(shellWord("\(variable.name)=\(variable.value)")))")
            }
        }
        if !flags.isEmpty || !secrets.isEmpty {
            out += "# Run with: hurl --test \(flags.joined(separator: " "))"
            out += secrets.map { " --secret \(ExportText.line($0))=…" }.joined() + " FILE.hurl\n"
        }
        if !secrets.isEmpty {
            out +=
                "# Secrets are not written here: pass \(ExportText.line(secrets.joined(separator: ", "))) with "
                + "--secret (Hurl 6; --variable before it).\n"
        }
        for endpoint in ordered {
            out += "\n" + request(endpoint, in: collection, environment: environment)
        }
        return out
    }

    // MARK: - One entry

    private static func request(_ endpoint: Endpoint, in collection: APICollection, environment: Environment?) -> String
    {
        var out = "# \(ExportText.line(endpoint.id))\n"
        let wholeURL = RequestResolver.pathIsWholeURL(endpoint.path, in: collection, environment: environment)
        var path = convert(endpoint.path)
        if !wholeURL && !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        let base = wholeURL ? "" : convert(environment?.baseURLTemplate ?? "")
        out += ExportText.line("\(endpoint.method.rawValue) \(base)\(path)") + "\n"

        let ownNames = Set(endpoint.headers.map { $0.name.lowercased() })
        var headers =
            (wholeURL ? [] : environment?.headers ?? []).filter { !ownNames.contains($0.name.lowercased()) }
            + endpoint.headers
        var sections: [String] = []
        var query = endpoint.query
        var options: [String] = []
        // Credentials stay with their origin, as when explorer sends: the resolver's rule.
        switch RequestResolver.exportedAuthentication(for: endpoint, in: collection, environment: environment)?.scheme {
        case .basic(let username, let password)?:
            sections.append("[BasicAuth]\n" + ExportText.line("\(key(username)): \(value(password))") + "\n")
        case .bearer(let token)?:
            headers.append(KeyValue("Authorization", "Bearer \(token)"))
        case .apiKey(let name, let value, .header)?:
            headers.append(KeyValue(name, value))
        case .apiKey(let name, let value, .query)?:
            query.append(KeyValue(name, value))
        case .digest?:
            out += "# auth: digest is not exported (Hurl has no digest auth): pass --digest --user to hurl.\n"
        case .oauth2(let settings)?:
            out +=
                ExportText.line(
                    "# auth: oauth2 (\(settings.grant)) is not exported (Hurl has no OAuth2): capture a token from "
                        + "\(settings.values["token_url"] ?? "the token endpoint") first."
                ) + "\n"
        case .awsSigV4(let settings)?:
            // Hurl signs as curl does (`--aws-sigv4`); no profile, and the session token as a header.
            let scope = ["region", "service"].compactMap { settings.values[$0] }.filter { !$0.isEmpty }
            if let id = settings.values["access_key_id"], let secret = settings.values["secret_access_key"] {
                options += [
                    ExportText.line("aws-sigv4: " + (["aws", "amz"] + scope).joined(separator: ":")),
                    ExportText.line("user: \(value(id)):\(value(secret))"),
                ]
            } else {
                out +=
                    "# auth: aws_sigv4 with a profile or the AWS_* variables is not exported: set user: KEY:SECRET.\n"
            }
            if let token = settings.values["session_token"] { headers.append(KeyValue("X-Amz-Security-Token", token)) }
        case .oauth1?:
            out += "# auth: oauth1 is not exported (Hurl has no OAuth 1.0a signing).\n"
        case .none?, nil:
            break
        }
        if let retry = endpoint.retry {
            options.insert(
                contentsOf: ["retry: \(retry.count)", "retry-interval: \(Int((retry.interval * 1000).rounded()))"],
                at: 0)
        }
        if !options.isEmpty { sections.insert("[Options]\n" + options.map { $0 + "\n" }.joined(), at: 0) }
        if !query.isEmpty {
            sections.append(
                "[QueryStringParams]\n"
                    + query.map { ExportText.line("\(key($0.name)): \(value($0.value))") + "\n" }.joined())
        }
        var body: String?
        switch endpoint.body {
        case nil: break
        case .json(let json):
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(KeyValue("Content-Type", "application/json"))
            }
            body = JSONControlEscapes.escaping(convert(json.serialized(pretty: true)))
        case .raw(let text) where ExportText.hasControls(text) || !text.hasSuffix("\n"):
            // A multiline string ends with the newline of its last line: other text is one line.
            body = "`" + onelineEscaped(convert(text)) + "`"
        case .raw(let text):
            body = "```\n\(convert(text))```"
        case .file(let file):
            body = ExportText.line("file,\(file);")
        case .form(let fields):
            sections.append(
                "[FormParams]\n" + fields.map { ExportText.line("\(key($0.name)): \(value($0.value))") + "\n" }.joined()
            )
        case .multipart(let fields):
            sections.append(
                "[MultipartFormData]\n"
                    + fields.map { field in
                        field.isFile
                            ? ExportText.line(
                                "\(key(field.name)): file,\(field.value);\(field.contentType.map { " \($0)" } ?? "")")
                                + "\n"
                            : ExportText.line("\(key(field.name)): \(value(field.value))") + "\n"
                    }.joined())
        }
        out += headers.map { ExportText.line("\($0.name): \(value($0.value))") + "\n" }.joined()
        out += sections.joined()
        if let body { out += body + "\n" }

        let functions = templateFunctions(in: out)
        if !functions.isEmpty {
            out = out.replacingOccurrences(
                of: "# \(ExportText.line(endpoint.id))\n",
                with:
                    "# \(ExportText.line(endpoint.id))\n"
                    + "# uses template functions Hurl does not have (\(functions.joined(separator: ", "))): "
                    + "pass their values with --variable.\n"
            )
        }
        guard endpoint.hasChecks else { return out }
        out += "HTTP *\n"
        if !endpoint.captures.isEmpty {
            out += "[Captures]\n"
            for capture in endpoint.captures {
                guard let query = captureQuery(capture.source) else {
                    out += "# " + ExportText.line("\(capture.name): \(capture.sourceText) has no Hurl query") + "\n"
                    continue
                }
                let redacted =
                    capture.isSecret || environment?.secrets.contains(capture.name) == true
                    || APICollection.isCredentialName(capture.name)
                out += ExportText.line("\(capture.name): \(query)") + (redacted ? " redact" : "") + "\n"
            }
        }
        if !endpoint.assertions.isEmpty {
            out += "[Asserts]\n"
            for assertion in endpoint.assertions {
                // Hurl has no check against an OpenAPI document: it stays as a comment.
                guard assertion.query != .schema else {
                    out += "# schema (explorer: checked against the collection's openapi: document)\n"
                    continue
                }
                out += ExportText.line(assertionLine(assertion)) + "\n"
            }
        }
        return out
    }

    private static func captureQuery(_ source: Capture.Source) -> String? {
        switch source {
        case .jsonpath(let expression): "jsonpath \(quoted(expression))"
        case .xpath(let expression): "xpath \(quoted(expression))"
        case .header(let name): "header \(quoted(name))"
        case .regex(let pattern, inHeaders: false): "regex \(quoted(pattern))"
        case .regex(_, inHeaders: true): nil
        case .status: "status"
        case .cookie(let name): "cookie \(quoted(name))"
        case .body: "body"
        }
    }

    /// An assertion in Hurl's words: the same queries and predicates, arguments and string
    /// values quoted.
    static func assertionLine(_ assertion: Assertion) -> String {
        let query: String =
            switch assertion.query {
            case .status: "status"
            case .header(let name): "header \(quoted(name))"
            case .jsonpath(let expression): "jsonpath \(quoted(expression))"
            case .xpath(let expression): "xpath \(quoted(expression))"
            case .body: "body"
            case .regex(let pattern): "regex \(quoted(pattern))"
            case .duration: "duration"
            case .bytes: "bytes"
            case .cookie(let name): "cookie \(quoted(name))"
            case .grpcStatus: "grpc_status"
            case .schema: "schema"
            }
        var parts = [query]
        if assertion.isNegated { parts.append("not") }
        parts.append(assertion.predicate.rawValue)
        switch assertion.expected {
        case .string(let text)?: parts.append(quoted(convert(text)))
        case .number(_, let text)?: parts.append(text)
        case .bool(let value)?: parts.append(value ? "true" : "false")
        case .null?: parts.append("null")
        case nil: break
        }
        return parts.joined(separator: " ")
    }

    // MARK: - Text

    /// The names of the template functions (`{{base64 credentials}}`) a text calls, once each.
    private static func templateFunctions(in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s+[^}]*\}\}"#) else {
            return []
        }
        var names: [String] = []
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            if let range = Range(match.range(at: 1), in: text), !names.contains(String(text[range])) {
                names.append(String(text[range]))
            }
        }
        return names
    }

    /// A Hurl quoted string: `\` and `"` escaped, control characters as escapes.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, delimiter: "\"", as: "\\\"") + "\""
    }

    /// The content of a oneline string body (`` `…` ``): every control character, `\` and `` ` ``
    /// as Hurl's escapes, so that a body of several lines stays on one and none is written raw.
    static func onelineEscaped(_ text: String) -> String {
        escaped(text, delimiter: "`", as: "\\u{60}")
    }

    /// `text` with Hurl's escapes for `\`, the string's delimiter (written `escape`), line
    /// breaks, tabs and every other control character (`\u{1B}`), so that none is written raw.
    private static func escaped(_ text: String, delimiter: Unicode.Scalar, as escape: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case delimiter: out += escape
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A key of a `[QueryStringParams]`-like section: as is when Hurl reads it bare, else quoted.
    private static func key(_ name: String) -> String {
        name.allSatisfy { $0.isLetter || $0.isNumber || "-_.[]@$".contains($0) } && !name.isEmpty
            ? convert(name) : quoted(convert(name))
    }

    /// The value of a `key: value` line: `convert`ed, with `\` and `#` escaped outside
    /// templates (Hurl reads ` #` as a comment and refuses a `\` that starts no escape).
    static func value(_ text: String) -> String {
        let converted = convert(text)
        guard converted.contains(where: { $0 == "\\" || $0 == "#" }) else { return converted }
        var out = ""
        var depth = 0
        var previous: Character = " "
        for character in converted {
            if character == "{" && previous == "{" { depth += 1 }
            if character == "}" && previous == "}" && depth > 0 { depth -= 1 }
            if depth == 0 && (character == "\\" || character == "#") { out.append("\\") }
            out.append(character)
            previous = character
        }
        return out
    }

    /// Rewrites explorer's built-ins into Hurl's: `{{uuid}}` → `{{newUuid}}`, `{{now}}` →
    /// `{{newDate}}`, `{{env.NAME}}` → `{{NAME}}`; a template function stays, with its name, for
    /// the comment the caller cannot write inline (Hurl reports it when it runs).
    static func convert(_ text: String) -> String {
        Template.rewritingVariables(in: text) { name in
            switch name {
            case "uuid": return "{{newUuid}}"
            case "now": return "{{newDate}}"
            default: return name.hasPrefix("env.") ? "{{\(name.dropFirst(4))}}" : "{{\(name)}}"
            }
        }
    }

    /// A shell word for the `--variable` comment (single-quoted when it needs it).
    private static func shellWord(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "=_-./:@".contains($0) }
            ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
