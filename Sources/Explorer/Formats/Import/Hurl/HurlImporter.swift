import Foundation
import NetworkingCore
import Workspace

/// Imports a Hurl file (hurl.dev): its entries become endpoints, in order.
///
/// A request's URL, headers and sections are kept: `[QueryStringParams]` as query items,
/// `[FormParams]` as a form, `[MultipartFormData]` as parts (files by path, with their content
/// type), `[Cookies]` as a `Cookie` header, `[BasicAuth]` (or the `user` option) as Basic
/// `auth:`. Bodies: JSON as `json:` (or text, when templates stand for values), XML and
/// multiline strings as text, a ```` ```graphql ```` body as the JSON Hurl sends, `file,…;` as
/// a file. Options explorer has: `retry`, `retry-interval`, `user`, `digest`, `variable`
/// (collection variables); the others are reported. The response part becomes checks: the
/// status, response headers, `[Captures]` and `[Asserts]` in the queries and predicates a
/// collection has; any other line (filters such as `count` or `nth`, queries such as
/// `variable` or `sha256`) is kept in the endpoint's description and reported. A request that
/// uses a value an earlier entry captures `requires:` that entry. `{{name}}` stays a variable;
/// Hurl's `{{newUuid}}` is `{{uuid}}`, `{{newDate}}` is `{{now}}`.
///
/// A file Hurl refuses is refused here with the same `file:line:column` (`HurlParser`).
package struct HurlImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// The largest file read: Hurl files are text a person writes.
    static let maximumBytes = 16 << 20

    /// Imports a Hurl file.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL) throws -> ImportResult {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw ImportError.unreadableFile(url.path)
        }
        if let size = attributes[.size] as? Int, size > Self.maximumBytes {
            throw ImportError.invalidFile(
                path: url.path, format: "a Hurl file",
                reason: "it has \(size) bytes; a Hurl file of more than \(Self.maximumBytes >> 20) MB is not read.")
        }
        guard let data = try DocumentLimits.current.readFile(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError.invalidFile(path: url.path, format: "a Hurl file", reason: "it is not UTF-8 text.")
        }
        return try importText(text, path: url.path, name: url.deletingPathExtension().lastPathComponent)
    }

    /// Imports a Hurl file's text.
    ///
    /// - Throws: `ImportError.invalidFile` with Hurl's `path:line:column` when Hurl would refuse it.
    func importText(_ text: String, path: String = "<hurl>", name: String = "Imported from Hurl") throws -> ImportResult
    {
        let entries: [HurlParser.Entry]
        do {
            entries = try HurlParser.entries(of: text)
        } catch let failure as HurlParser.Failure {
            throw ImportError.invalidFile(
                path: "\(path):\(failure.line):\(failure.column)", format: "a Hurl file",
                reason: "\(failure.title.lowercased()): \(failure.message).")
        }
        guard !entries.isEmpty else {
            throw ImportError.invalidFile(path: path, format: "a Hurl file", reason: "it has no request.")
        }
        var reading = Reading(path: path)
        var endpoints = entries.map { reading.endpoint(for: $0) }
        var used: Set<String> = []
        for index in endpoints.indices {
            var candidate = endpoints[index].name
            var counter = 2
            while !used.insert(candidate).inserted {
                candidate = "\(endpoints[index].name) (\(counter))"
                counter += 1
            }
            endpoints[index].name = candidate
        }
        Self.chain(&endpoints)
        let captured = Set(endpoints.flatMap { $0.captures.map(\.name) })
        let defined = captured.union(reading.variables.map(\.name))
        let undefined = Set(endpoints.flatMap { HurlCheckText.variables(of: $0) }).subtracting(defined).subtracting([
            "uuid", "now", "timestamp",
        ])
        .filter { !$0.hasPrefix("env.") }
        if !undefined.isEmpty {
            reading.warnings.append(
                "The file uses variables it does not define (hurl --variable): "
                    + "\(undefined.sorted().joined(separator: ", ")); "
                    + "set them in an environment or pass --var NAME=VALUE."
            )
        }
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(endpoints.map { .endpoint($0) })
        let collection = APICollection(
            name: name, variables: reading.variables,
            environments: [Environment(name: "default", baseURLTemplate: baseURL ?? "http://localhost")], items: items)
        return ImportResult(collection: collection, warnings: reading.warnings + reading.summary())
    }

    /// Whoever uses a variable an earlier entry captures requires that entry.
    private static func chain(_ endpoints: inout [Endpoint]) {
        for (index, endpoint) in endpoints.enumerated() {
            for capture in endpoint.captures {
                for later in endpoints.indices
                where later > index && HurlCheckText.variables(of: endpoints[later]).contains(capture.name) {
                    if !endpoints[later].requirements.contains(where: { $0.endpoint == endpoint.id }) {
                        endpoints[later].requirements.append(Requirement(endpoint: endpoint.id))
                    }
                }
            }
        }
    }

    // MARK: - Reading entries

    /// What reading the entries collects besides them.
    struct Reading {
        let path: String
        var variables: [KeyValue] = []
        var warnings: [String] = []
        /// Options not applied, with how often.
        var ignoredOptions: [String: Int] = [:]
        /// Lines kept as comments, by kind.
        var uncheckedLines = 0

        init(path: String) {
            self.path = path
        }

        mutating func endpoint(for entry: HurlParser.Entry) -> Endpoint {
            var url = HurlCheckText.converted(entry.url)
            var auth: Authentication?
            // http://user:password@host: the user part is Basic auth, as curl sends it.
            if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
                !url[scheme.upperBound..<at].contains("/")
            {
                let credentials = url[scheme.upperBound..<at].split(separator: ":", maxSplits: 1).map {
                    String($0).removingPercentEncoding ?? String($0)
                }
                auth = Authentication(
                    .basic(username: credentials.first ?? "", password: credentials.count > 1 ? credentials[1] : ""))
                url.removeSubrange(scheme.upperBound...at)
            }
            let parts = URLParts(url)
            var query = parts.query
            var headers = entry.headers.map { KeyValue($0.key, HurlCheckText.converted($0.value)) }
            query += (entry.section("QueryStringParams") ?? []).map {
                KeyValue(HurlCheckText.converted($0.key), HurlCheckText.converted($0.value))
            }
            if let cookies = entry.section("Cookies"), !cookies.isEmpty {
                let text = cookies.map { "\($0.key)=\(HurlCheckText.converted($0.value))" }.joined(separator: "; ")
                if let index = headers.firstIndex(where: { $0.name.lowercased() == "cookie" }) {
                    headers[index].value += "; " + text
                } else {
                    headers.append(KeyValue("Cookie", text))
                }
            }
            if let basic = entry.section("BasicAuth")?.first {
                auth = Authentication(
                    .basic(username: HurlCheckText.converted(basic.key), password: HurlCheckText.converted(basic.value))
                )
            }
            var body: EndpointBody?
            // An empty section sends nothing (Hurl sends a form or parts only when there are some).
            if let form = entry.section("FormParams"), !form.isEmpty {
                body = .form(form.map { KeyValue(HurlCheckText.converted($0.key), HurlCheckText.converted($0.value)) })
            }
            if let parts = entry.section("MultipartFormData"), !parts.isEmpty {
                body = .multipart(parts.map(multipartField))
            }
            if let written = entry.body { body = self.body(written, headers: &headers, line: entry.line) }

            var endpoint = Endpoint(
                name: name(of: entry, path: parts.path), method: HTTPMethod(exactly: entry.method),
                path: parts.origin + parts.path, query: query, headers: headers, body: body)
            var notes: [String] = []
            options(entry.section("Options") ?? [], endpoint: &endpoint, auth: &auth, notes: &notes)
            endpoint.auth = auth
            if let response = entry.response { checks(response, endpoint: &endpoint, notes: &notes) }
            if !notes.isEmpty {
                endpoint.description =
                    "Hurl lines explorer does not run (kept from \(URL(fileURLWithPath: path).lastPathComponent)):\n"
                    + notes.joined(separator: "\n")
            }
            return endpoint
        }

        /// The comment just above the request, when it is short enough to be a name; else `METHOD /path`.
        private func name(of entry: HurlParser.Entry, path: String) -> String {
            if let comment = entry.comments.last, !comment.isEmpty, comment.count <= 80,
                !comment.contains("/") || comment.hasPrefix(entry.method)
            {
                return comment
            }
            let route = path.split(separator: "?").first.map(String.init) ?? path
            return "\(entry.method) \(route.isEmpty ? "/" : route)"
        }

        private func multipartField(_ pair: HurlParser.Pair) -> MultipartField {
            let value = pair.value
            guard value.hasPrefix("file,"), let end = value.firstIndex(of: ";") else {
                return MultipartField(name: HurlCheckText.converted(pair.key), value: HurlCheckText.converted(value))
            }
            let file = value[value.index(value.startIndex, offsetBy: 5)..<end].trimmingCharacters(in: .whitespaces)
            let type = value[value.index(after: end)...].trimmingCharacters(in: .whitespaces)
            return MultipartField(
                name: HurlCheckText.converted(pair.key), value: file, isFile: true,
                contentType: type.isEmpty ? nil : type)
        }

        /// A request body; Hurl's implicit `Content-Type` for JSON (and GraphQL) is written out.
        private mutating func body(_ body: HurlParser.Body, headers: inout [KeyValue], line: Int) -> EndpointBody? {
            func contentType(_ type: String) {
                if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                    headers.append(KeyValue("Content-Type", type))
                }
            }
            func json(_ text: String) -> EndpointBody {
                let converted = HurlCheckText.converted(text)
                if !converted.contains("{{"), let value = JSONValue.container(parsing: converted) {
                    // A json: body is sent as application/json: the header would say it twice.
                    headers.removeAll {
                        $0.name.lowercased() == "content-type" && $0.value.lowercased() == "application/json"
                    }
                    return .json(value)
                }
                contentType("application/json")
                return .raw(converted)
            }
            func decoded(_ data: Data?, _ kind: String) -> EndpointBody? {
                guard let data, let text = String(data: data, encoding: .utf8) else {
                    warnings.append(
                        "\(path):\(line): a \(kind) body that is not UTF-8 text is not imported; "
                            + "keep it in a file and use body: { file: … }."
                    )
                    return nil
                }
                return .raw(text)
            }
            switch body {
            case .json(let text):
                return json(text)
            case .xml(let text), .oneline(let text):
                return .raw(HurlCheckText.converted(text))
            case .multiline(let text, let language):
                switch language {
                case "json": return json(text)
                case "graphql":
                    contentType("application/json")
                    return .raw(HurlCheckText.converted(Self.graphQLBody(text).serialized(pretty: false)))
                case "base64": return decoded(Data(base64Encoded: text.filter { !$0.isWhitespace }), "base64")
                case "hex": return decoded(Self.hexData(text), "hex")
                default: return .raw(HurlCheckText.converted(text))
                }
            case .base64(let text):
                return decoded(Data(base64Encoded: text.filter { !$0.isWhitespace }), "base64")
            case .hex(let text):
                return decoded(Self.hexData(text), "hex")
            case .file(let file):
                return .file(file)
            }
        }

        /// The JSON Hurl sends for a GraphQL body: the query, and the `variables { … }` after it.
        static func graphQLBody(_ text: String) -> JSONValue {
            var query = text
            var pairs: [(key: String, value: JSONValue)] = []
            if let range = text.range(of: #"\n\s*variables\s*\{"#, options: .regularExpression) {
                query = String(text[..<range.lowerBound])
                let start = text.index(before: range.upperBound)
                if let variables = JSONValue.container(parsing: String(text[start...])) {
                    pairs.append(("variables", variables))
                } else {
                    query = text
                }
            }
            pairs.insert(("query", .string(query.trimmingCharacters(in: .newlines))), at: 0)
            return .object(pairs)
        }

        static func hexData(_ text: String) -> Data? {
            let digits = text.filter { !$0.isWhitespace }
            guard digits.count.isMultiple(of: 2) else { return nil }
            var data = Data()
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2)
                guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
                data.append(byte)
                index = next
            }
            return data
        }

        /// The `[Options]` explorer has; the others reported.
        /// Hurl's flag options that are off unless given: `NAME: false` says what no option says.
        static let offByDefault: Set<String> = [
            "insecure", "compressed", "location", "location-trusted", "verbose", "very-verbose", "skip", "netrc",
            "netrc-optional",
            "path-as-is", "ipv4", "ipv6", "http1.0", "http1.1", "http2", "http3", "ntlm", "negotiate",
        ]

        private mutating func options(
            _ options: [HurlParser.Pair], endpoint: inout Endpoint, auth: inout Authentication?, notes: inout [String]
        ) {
            var retryCount: Int?
            var retryInterval: Double?
            var digest = false
            for option in options {
                let value = HurlCheckText.converted(option.value)
                switch option.key {
                case "retry":
                    retryCount = Int(value).map { $0 < 0 ? CheckRetry.maximumCount : min($0, CheckRetry.maximumCount) }
                case "retry-interval":
                    retryInterval = Self.seconds(value)
                case "user":
                    let credentials = value.split(separator: ":", maxSplits: 1).map(String.init)
                    if auth == nil || digest {
                        auth = Authentication(
                            .basic(
                                username: credentials.first ?? "", password: credentials.count > 1 ? credentials[1] : ""
                            ))
                    }
                case "digest":
                    digest = value == "true"
                case "basic":
                    break
                case "variable":
                    let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                    guard let name = parts.first, !name.isEmpty else { continue }
                    let assigned = parts.count > 1 ? parts[1] : ""
                    if let existing = variables[named: name], existing != assigned {
                        warnings.append(
                            "\(path):\(option.line): the variable \(name) is set again (\(assigned)); "
                                + "the collection keeps its first value, \(existing)."
                        )
                    } else if variables[named: name] == nil {
                        variables.append(KeyValue(name, assigned))
                    }
                case _ where value == "false" && Self.offByDefault.contains(option.key):
                    // What Hurl does without the option: nothing to keep or to say.
                    break
                default:
                    ignoredOptions[option.key, default: 0] += 1
                    notes.append("[Options] \(option.key): \(option.value)")
                }
            }
            if digest, case .basic(let user, let password)? = auth?.scheme {
                auth = Authentication(.digest(username: user, password: password))
            }
            if let retryCount, retryCount > 0 {
                endpoint.retry = CheckRetry(count: retryCount, interval: retryInterval ?? 1)
            }
        }

        /// The response part as checks.
        private mutating func checks(_ response: HurlParser.Response, endpoint: inout Endpoint, notes: inout [String]) {
            if let code = Int(response.status) {
                endpoint.assertions.append(
                    HurlCheckText.written(
                        .status, predicate: .equal, expected: .number(Double(code), text: String(code))))
            }
            // Hurl passes a header line when one field of that name has the value; the collection's
            // `header` query joins every field of a name with ", ", so a name that may come several
            // times (written more than once, or Set-Cookie) is checked with contains.
            let names = response.headers.map { $0.key.lowercased() }
            for header in response.headers {
                let name = header.key.lowercased()
                let repeated = name == "set-cookie" || names.filter { $0 == name }.count > 1
                endpoint.assertions.append(
                    HurlCheckText.written(
                        .header(header.key), predicate: repeated ? .contains : .equal,
                        expected: .string(HurlCheckText.converted(header.value))))
            }
            for capture in response.captures {
                if let converted = HurlCheckText.capture(name: capture.key, HurlCheckText.converted(capture.value)) {
                    endpoint.captures.append(converted)
                } else {
                    uncheckedLines += 1
                    notes.append("[Captures] \(capture.key): \(capture.value)")
                }
            }
            for line in response.asserts {
                if let assertion = HurlCheckText.assertion(HurlCheckText.converted(line.text)) {
                    endpoint.assertions.append(assertion)
                } else {
                    uncheckedLines += 1
                    notes.append("[Asserts] \(line.text)")
                }
            }
            switch response.body {
            case .oneline(let text)?:
                endpoint.assertions.append(
                    HurlCheckText.written(.body, predicate: .equal, expected: .string(HurlCheckText.converted(text))))
            case .multiline(let text, let language)? where ["", "json", "xml", "graphql"].contains(language):
                // Hurl compares the body with the text (for graphql, with the JSON it would send).
                let expected = language == "graphql" ? Self.graphQLBody(text).serialized(pretty: false) : text
                endpoint.assertions.append(
                    HurlCheckText.written(
                        .body, predicate: .equal, expected: .string(HurlCheckText.converted(expected))))
            case let body?:
                uncheckedLines += 1
                notes.append("response body:\n\(body.written)")
            case nil:
                break
            }
        }

        /// A Hurl duration (`500`, `500ms`, `2s`, `1m`; milliseconds when bare) in seconds.
        static func seconds(_ text: String) -> Double? {
            let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
            for (suffix, scale) in units where text.hasSuffix(suffix) {
                return Double(text.dropLast(suffix.count)).map { $0 * scale }
            }
            return Double(text).map { $0 / 1000 }
        }

        /// The reported summary.
        func summary() -> [String] {
            var out: [String] = []
            if uncheckedLines > 0 {
                out.append(
                    "\(uncheckedLines) capture or assert line(s) use queries, filters or predicates a collection does "
                        + "not have; they are kept in the endpoints' descriptions, not checked."
                )
            }
            if !ignoredOptions.isEmpty {
                out.append(
                    "Hurl options explorer does not apply: "
                        + ignoredOptions.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(
                            separator: ", ")
                        + "; they are kept in the endpoints' descriptions.")
            }
            return out
        }
    }
}
