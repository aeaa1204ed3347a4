import Foundation
import NetworkingCore
import Workspace
import Yams

extension PostingImporter {
    /// One request file, read.
    struct Request {
        /// The endpoint, its URL whole in `path` (made relative to the main origin later).
        var endpoint: Endpoint
        /// Posting's order within a folder: method rank, then name.
        var sortKey: SortKey
    }

    /// Posting's `request_sort_key`: GET, POST, PUT, PATCH, DELETE, then any other method, each by name.
    struct SortKey: Comparable {
        var rank: Int
        var name: String

        static func < (lhs: SortKey, rhs: SortKey) -> Bool { (lhs.rank, lhs.name) < (rhs.rank, rhs.name) }
    }

    /// What reading the files noticed, reported once at the end.
    struct Reading {
        /// Request files skipped, each with its reason.
        var skipped: [String] = []
        /// Requests with `scripts:` (not run here).
        var scripts: [String] = []
        /// Requests that turn off TLS verification.
        var insecure: [String] = []
        /// Requests with their own timeout (seconds).
        var timeouts: [(request: String, seconds: String)] = []
        /// Requests sent through their own proxy.
        var proxies: [String] = []
        /// Requests that do not send the cookie jar.
        var noCookies: [String] = []
        /// Other notes, one per request and field.
        var notes: [String] = []
        /// Variables the environment files define.
        var defined: Set<String> = []

        // MARK: - A request file

        /// Reads one `*.posting.yaml` file.
        ///
        /// - Throws: `ImportError.invalidFile` naming the file and line when it is not a
        ///   Posting request.
        mutating func request(at file: URL) throws -> Request {
            let path = file.path
            let format = "a Posting request"
            let text: String
            do {
                guard let read = try DocumentLimits.current.readText(at: file) else {
                    throw ImportError.invalidFile(path: path, format: format, reason: "it is not UTF-8 text.")
                }
                text = read
            } catch let error as DocumentLimitError {
                throw ImportError.invalidFile(
                    path: path, format: format, reason: "line \(error.line): \(error.problem). \(error.advice)")
            }
            return try request(text: text, path: path)
        }

        /// Reads one request file's text.
        ///
        /// - Parameter path: the file's path, for errors; its name without `.posting.yaml` is
        ///   the request's name when it has none.
        /// - Throws: `ImportError.invalidFile` naming the file and line.
        mutating func request(text: String, path: String) throws -> Request {
            let format = "a Posting request"
            let file = URL(fileURLWithPath: path)
            let root: JSONValue
            do {
                try DocumentLimits.current.checkSize(text.utf8.count, file: path)
                guard let node = try BoundedYAML.compose(text, file: path, resolver: .explorerFiles, limits: .current)
                else {
                    throw ImportError.invalidFile(path: path, format: format, reason: "line 1: the file is empty.")
                }
                root = JSONValue(coreYAML: node)
            } catch let error as DocumentLimitError {
                throw ImportError.invalidFile(
                    path: path, format: format, reason: "line \(error.line): \(error.problem). \(error.advice)")
            } catch let error as YamlError {
                throw ImportError.invalidFile(
                    path: path, format: format,
                    reason: "it is not valid YAML: line \(error.line), column \(error.column): \(error.problem).")
            }
            guard case .object = root else {
                throw ImportError.invalidFile(path: path, format: format, reason: "line 1: it is not a mapping.")
            }
            func fail(_ key: String, _ problem: String) -> ImportError {
                ImportError.invalidFile(
                    path: path, format: format, reason: "line \(Self.line(of: key, in: text)): \(problem)")
            }
            let fileName = file.lastPathComponent
            let stem =
                fileName.hasSuffix(".posting.yaml") ? String(fileName.dropLast(".posting.yaml".count)) : fileName
            let name = PostingImporter.text(root["name"]).flatMap { $0.isEmpty ? nil : $0 } ?? stem
            let method = (PostingImporter.text(root["method"]) ?? "GET").uppercased()
            guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw fail("method", "the method \"\(method)\" is not an HTTP method.")
            }
            guard var url = PostingImporter.text(root["url"]), !url.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail("url", "the request has no url.")
            }
            url = PostingImporter.converted(url.trimmingCharacters(in: .whitespaces))
            for (key, expected) in [("headers", "a list"), ("params", "a list"), ("path_params", "a list")] {
                if let value = root[key], value != .null, value.arrayValue == nil {
                    throw fail(key, "\(key) is not \(expected) of name and value.")
                }
            }
            let pathParams = try rows(root["path_params"], key: "path_params", fail: fail)
            url = PostingImporter.substitutingPathParameters(in: url, pathParams.map { ($0.row.name, $0.row.value) })
            if url.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*://"#, options: .regularExpression) == nil,
                !url.hasPrefix("{{")
            {
                url = "http://" + url
            }
            let parts = URLParts(url)
            let params = try rows(root["params"], key: "params", fail: fail)
            let headers = try rows(root["headers"], key: "headers", fail: fail)
            var endpoint = Endpoint(
                name: name, method: HTTPMethod(exactly: method), path: parts.origin + parts.path,
                query: parts.query + params.filter(\.enabled).map(\.row),
                headers: headers.filter(\.enabled).map(\.row))
            endpoint.disabled.query = params.filter { !$0.enabled }.map(\.row)
            endpoint.disabled.headers = headers.filter { !$0.enabled }.map(\.row)
            if let description = PostingImporter.text(root["description"]), !description.isEmpty {
                endpoint.description = PostingImporter.converted(description)
            }
            try body(root["body"], into: &endpoint, fail: fail)
            endpoint.auth = try auth(root["auth"], request: name, fail: fail)
            options(root["options"], endpoint: &endpoint)
            if let scripts = root["scripts"]?.objectValue,
                scripts.values.contains(where: { !(PostingImporter.text($0) ?? "").isEmpty })
            {
                self.scripts.append(name)
            }
            let rank = ["GET": 0, "POST": 1, "PUT": 2, "PATCH": 3, "DELETE": 4][method] ?? 5
            return Request(endpoint: endpoint, sortKey: SortKey(rank: rank, name: name))
        }

        /// A list of `name`/`value`/`enabled` rows, templates converted.
        private func rows(_ value: JSONValue?, key: String, fail: (String, String) -> ImportError) throws
            -> [(row: KeyValue, enabled: Bool)]
        {
            guard let list = value?.arrayValue else { return [] }
            return try list.map { item in
                guard case .object = item, let name = PostingImporter.text(item["name"]) else {
                    throw fail(key, "an item of \(key) has no name.")
                }
                let value = PostingImporter.text(item["value"]) ?? ""
                let enabled = item["enabled"]?.boolValue ?? true
                return (KeyValue(PostingImporter.converted(name), PostingImporter.converted(value)), enabled)
            }
        }

        /// `body:`: `content` (with `content_type`, sent as its Content-Type when the request
        /// has none, as Posting's editor does) or `form_data` (sent as a form).
        private mutating func body(
            _ value: JSONValue?, into endpoint: inout Endpoint, fail: (String, String) -> ImportError
        )
            throws
        {
            guard let value, value != .null else { return }
            guard case .object = value else { throw fail("body", "body is not a mapping.") }
            let content = PostingImporter.text(value["content"]) ?? ""
            let form = try rows(value["form_data"], key: "form_data", fail: fail)
            if value["files"] != nil {
                notes.append(
                    "\"\(endpoint.name)\" has body.files, which Posting's request model does not have; "
                        + "it was left out: add a multipart: body by hand.")
            }
            if !content.isEmpty {
                endpoint.body = .raw(PostingImporter.converted(content))
                let hasType = endpoint.headers.contains { $0.name.lowercased() == "content-type" }
                if let type = PostingImporter.text(value["content_type"]), !type.isEmpty, !hasType {
                    endpoint.headers.append(KeyValue("Content-Type", type))
                }
                if form.contains(where: \.enabled) {
                    notes.append(
                        "\"\(endpoint.name)\" has both body.content and body.form_data; the content is sent, "
                            + "as Posting sends it, and the form is left out.")
                }
            } else if !form.isEmpty {
                endpoint.body = .form(form.filter(\.enabled).map(\.row))
                endpoint.disabled.form = form.filter { !$0.enabled }.map(\.row)
            }
        }

        /// `auth:` as Posting sends it: `basic`, `digest` or `bearer_token`, by its `type`.
        private func auth(_ value: JSONValue?, request: String, fail: (String, String) -> ImportError) throws
            -> Authentication?
        {
            guard let value, value != .null else { return nil }
            guard case .object = value else { throw fail("auth", "auth is not a mapping.") }
            func field(_ block: String, _ key: String) -> String {
                PostingImporter.converted(PostingImporter.text(value[block]?[key]) ?? "")
            }
            switch PostingImporter.text(value["type"]) {
            case nil: return nil
            case "basic":
                return Authentication(
                    .basic(username: field("basic", "username"), password: field("basic", "password")))
            case "digest":
                return Authentication(
                    .digest(username: field("digest", "username"), password: field("digest", "password")))
            case "bearer_token":
                return Authentication(.bearer(token: field("bearer_token", "token")))
            case let other?:
                throw fail("auth", "the auth type \"\(other)\" is not one of Posting's (basic, digest, bearer_token).")
            }
        }

        /// `options:`: `follow_redirects` is the endpoint's; the others are reported.
        private mutating func options(_ value: JSONValue?, endpoint: inout Endpoint) {
            guard let value, case .object = value else { return }
            let name = endpoint.name
            if value["follow_redirects"]?.boolValue == false { endpoint.followRedirects = false }
            if value["verify_ssl"]?.boolValue == false { insecure.append(name) }
            if let timeout = PostingImporter.text(value["timeout"]), Double(timeout) != 5 {
                timeouts.append((name, timeout))
            }
            if let proxy = PostingImporter.text(value["proxy_url"]), !proxy.isEmpty { proxies.append(name) }
            if value["attach_cookies"]?.boolValue == false { noCookies.append(name) }
        }

        // MARK: - Texts

        /// The line where `key:` first starts a line (1 when it does not).
        static func line(of key: String, in text: String) -> Int {
            var number = 1
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(key + ":") { return number }
                number += 1
            }
            return 1
        }
    }

    /// A scalar as text (numbers and booleans as written).
    static func text(_ value: JSONValue?) -> String? { value?.scalarText }

    /// Posting's templates (Python's `string.Template`) as explorer's: `$name` and `${name}`
    /// are `{{name}}`, `$$` is `$`; any other `$` stays as written.
    static func converted(_ text: String) -> String {
        guard text.contains("$") else { return text }
        var out = ""
        var rest = Substring(text)
        func isStart(_ character: Character) -> Bool { character == "_" || (character.isASCII && character.isLetter) }
        func isPart(_ character: Character) -> Bool { isStart(character) || (character.isASCII && character.isNumber) }
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                out += "$"
                rest = after.dropFirst()
            } else if after.first == "{", let close = after.firstIndex(of: "}"),
                let first = after.dropFirst().first, isStart(first),
                after[after.index(after: after.startIndex)..<close].allSatisfy(isPart)
            {
                out += "{{" + after[after.index(after: after.startIndex)..<close] + "}}"
                rest = after[after.index(after: close)...]
            } else if let first = after.first, isStart(first) {
                let name = after.prefix(while: isPart)
                out += "{{" + name + "}}"
                rest = after.dropFirst(name.count)
            } else {
                out += "$"
                rest = after
            }
        }
        return out + rest
    }

    /// The URL with each `:name` of its path (not `::name`, Posting's escaped colon) replaced by
    /// its path parameter's value, and `::` made `:`, as Posting's `substitute_path_params` does.
    static func substitutingPathParameters(in url: String, _ parameters: [(name: String, value: String)]) -> String {
        guard !parameters.isEmpty else { return url }
        let values = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        // Only the path: after the origin, before the query.
        let schemeEnd = url.range(of: "://")?.upperBound ?? url.startIndex
        let pathStart = url[schemeEnd...].firstIndex(of: "/") ?? url.endIndex
        let pathEnd = url[pathStart...].firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[pathStart..<pathEnd]
        var out = ""
        var index = path.startIndex
        while index < path.endIndex {
            let character = path[index]
            let next = path.index(after: index)
            if character == ":", next < path.endIndex, path[next] == ":" {
                out += ":"
                index = path.index(after: next)
                continue
            }
            if character == ":", next < path.endIndex, path[next] == "_" || (path[next].isASCII && path[next].isLetter)
            {
                let name = path[next...].prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
                if let value = values[String(name)] {
                    out += value
                    index = path.index(next, offsetBy: name.count)
                    continue
                }
            }
            out.append(character)
            index = next
        }
        return url[..<pathStart] + out + url[pathEnd...]
    }
}
