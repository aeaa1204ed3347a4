import Foundation
import NetworkingCore
import Query
import Workspace

/// Imports VS Code REST Client and JetBrains HTTP Client `.http` files.
///
/// Requests are separated by `###`; `@name = value` lines become collection variables;
/// `# @name X` (or the `### Title`) names a request; a request line is `METHOD URL [HTTP/1.1]`
/// or a bare URL (GET), with `?`/`&` continuation lines; headers follow until a blank line,
/// then the body. The client's system variables map to explorer's (`{{$guid}}` → `{{uuid}}`,
/// `{{$timestamp}}`, `{{$datetime}}` → `{{now}}`, `{{$processEnv X}}`/`{{$dotenv X}}` →
/// `{{env.X}}`). Chaining maps to captures and `requires:` where it can: a request variable
/// (`@id = {{create.response.body.$.id}}`, or the same reference written inline) and a
/// JetBrains handler's `client.global.set("id", response.body.id)` (or
/// `response.headers.valueOf("X")`) become a capture of the named request, and every request
/// that uses the variable requires it. Anything else in a handler script is reported.
package struct HTTPFileImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports the text of a `.http` file.
    ///
    /// - Parameters:
    ///   - text: the file's text.
    ///   - name: the collection's name.
    /// - Throws: `ImportError.invalidHTTPFile` when no request is found.
    func importText(_ text: String, name: String = "Imported from .http", file: String = "<http>") throws -> ImportResult {
        var warnings: [String] = []
        var variables: [KeyValue] = []
        var endpoints: [Endpoint] = []
        var usedNames: Set<String> = []
        var chainedNames: Set<String> = []
        /// `@name = {{request.response...}}` lines: the variable and the reference.
        var requestVariables: [(name: String, reference: String, location: String)] = []
        /// Each endpoint's `# @name`, by index.
        var requestNames: [Int: String] = [:]
        /// The `client.global.set` lines of each endpoint's handler, by index.
        var handlerCaptures: [Int: [Capture]] = [:]

        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var blocks: [(title: String, lines: [(number: Int, text: String)])] = [("", [])]
        for (offset, line) in lines.enumerated() {
            if line.hasPrefix("###") {
                blocks.append((line.dropFirst(3).trimmingCharacters(in: .whitespaces), []))
            } else {
                blocks[blocks.count - 1].lines.append((offset + 1, line))
            }
        }

        for block in blocks {
            var requestName: String?
            var method: HTTPMethod?
            var url = ""
            var headers: [KeyValue] = []
            var bodyLines: [String] = []
            var state = 0  // 0 before the request line, 1 headers, 2 body
            var inScript = false
            var requestLine = 0
            var script: [(number: Int, text: String)] = []
            for (number, raw) in block.lines {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if inScript {
                    if line.contains("%}") { inScript = false }
                    script.append((number, line))
                    continue
                }
                if line.hasPrefix("> {%") || line.hasPrefix(">{%"), state < 2 || line.hasPrefix("> {%") {
                    if !line.contains("%}") { inScript = true }
                    script.append((number, line))
                    continue
                }
                if state == 2, line.hasPrefix("<> ") || (line.hasPrefix("> ") && line.hasSuffix(".js")) { continue }
                switch state {
                case 0:
                    if line.isEmpty { continue }
                    if line.hasPrefix("#") || line.hasPrefix("//") {
                        let comment = line.drop { $0 == "#" || $0 == "/" }.trimmingCharacters(in: .whitespaces)
                        if comment.hasPrefix("@name") {
                            let value = comment.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: " =\t"))
                            if !value.isEmpty { requestName = value }
                        }
                        continue
                    }
                    if line.hasPrefix("@"), let equals = line.firstIndex(of: "=") {
                        let variable = line[line.index(after: line.startIndex)..<equals].trimmingCharacters(in: .whitespaces)
                        let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                        let converted = convert(value, warnings: &warnings, at: "\(file):\(number)")
                        if converted.chained {
                            chainedNames.insert(variable)
                            requestVariables.append((variable, value, "\(file):\(number)"))
                        } else {
                            variables.set(variable, converted.text)
                        }
                        continue
                    }
                    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"]
                    if words.count >= 2, methods.contains(words[0].uppercased()) {
                        method = HTTPMethod(rawValue: words[0])
                        url = words[1]
                    } else {
                        method = .get
                        url = words[0]
                    }
                    requestLine = number
                    state = 1
                case 1:
                    if line.isEmpty { state = 2; continue }
                    if line.hasPrefix("?") || line.hasPrefix("&") { url += line; continue }
                    if line.hasPrefix("#") || line.hasPrefix("//") { continue }
                    if let colon = line.firstIndex(of: ":") {
                        let headerName = line[..<colon].trimmingCharacters(in: .whitespaces)
                        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                        headers.append(KeyValue(headerName, convert(value, warnings: &warnings, at: "\(file):\(number)").text))
                    } else {
                        warnings.append("\(file):\(number): \"\(line)\" is not a header and was ignored.")
                    }
                default:
                    bodyLines.append(raw)
                }
            }
            guard let method else { continue }

            while let last = bodyLines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { bodyLines.removeLast() }
            var body: EndpointBody?
            if !bodyLines.isEmpty {
                let isForm = headers.contains { $0.name.lowercased() == "content-type" && $0.value.lowercased().contains("x-www-form-urlencoded") }
                var text: String
                if isForm {
                    text = bodyLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
                } else {
                    text = bodyLines.joined(separator: "\n")
                }
                if text.hasPrefix("< ") {
                    warnings.append("\(file):\(requestLine): a body read from a file (\(text)) is imported as that text.")
                }
                text = convert(text, warnings: &warnings, at: "\(file):\(requestLine)").text
                body = .raw(text)
            }
            let convertedURL = convert(url, warnings: &warnings, at: "\(file):\(requestLine)").text
            let parts = URLParts(convertedURL)
            if !parts.hasUsableOrigin {
                warnings.append("\(file):\(requestLine): \(parts.origin) is not an absolute http(s) URL yet; edit the environment's base_url before sending.")
            }
            let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
            var endpointName = requestName ?? (block.title.isEmpty ? "\(method.rawValue) \(pathName)" : block.title)
            if usedNames.contains(endpointName) {
                var counter = 2
                while usedNames.contains("\(endpointName) \(counter)") { counter += 1 }
                endpointName = "\(endpointName) \(counter)"
            }
            usedNames.insert(endpointName)
            if let requestName { requestNames[endpoints.count] = requestName }
            if !script.isEmpty { handlerCaptures[endpoints.count] = Self.handlerCaptures(script, warnings: &warnings, file: file) }
            endpoints.append(Endpoint(name: endpointName, method: method, path: parts.origin + parts.path, query: parts.query, headers: headers, body: body))
        }
        guard !endpoints.isEmpty else { throw ImportError.invalidHTTPFile(path: file, reason: "it has no request.") }

        let chained = Self.chain(&endpoints, requestNames: requestNames, requestVariables: requestVariables,
                                 handlerCaptures: handlerCaptures, warnings: &warnings)
        // Variables used but defined nowhere (set by scripts or by the client's env files).
        let defined = Set(variables.map(\.name)).union(chained)
        var undefined: [String] = []
        for endpoint in endpoints {
            var texts = [endpoint.path] + endpoint.query.map(\.value) + endpoint.headers.map(\.value)
            if case .raw(let text)? = endpoint.body { texts.append(text) }
            for name in texts.flatMap({ Template($0).variableNames }) where !defined.contains(name) && !undefined.contains(name)
                && !name.hasPrefix("env.") && !["uuid", "timestamp", "now"].contains(name) {
                undefined.append(name)
            }
        }
        for name in undefined where !chainedNames.contains(name) {
            warnings.append("{{\(name)}} is not defined in the file (a script or the client's environment file sets it); pass --var \(name)=VALUE or add it to the collection.")
        }
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(endpoints.map { .endpoint($0) })
        let environment = Environment(name: "default", baseURLTemplate: baseURL ?? "http://localhost")
        let collection = APICollection(name: name, variables: variables, environments: [environment], items: items)
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// Imports a `.http` file.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL) throws -> ImportResult {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw ImportError.unreadableFile(url.path) }
        return try importText(text, name: url.deletingPathExtension().lastPathComponent, file: url.path)
    }

    // MARK: - Chaining

    /// Turns chained values into captures of the request they come from, and `requires:` on
    /// the requests that use them.
    ///
    /// - Returns: the variables now captured.
    private static func chain(
        _ endpoints: inout [Endpoint], requestNames: [Int: String], requestVariables: [(name: String, reference: String, location: String)],
        handlerCaptures: [Int: [Capture]], warnings: inout [String]
    ) -> Set<String> {
        var captured: [(variable: String, endpoint: Int)] = []
        func add(_ capture: Capture, to index: Int) {
            if !endpoints[index].captures.contains(where: { $0.name == capture.name }) { endpoints[index].captures.append(capture) }
            captured.append((capture.name, index))
        }
        for (index, captures) in handlerCaptures {
            for capture in captures { add(capture, to: index) }
        }
        // References written inline get a variable of their own: {{login.response.body.$.token}} → {{login_token}}.
        var references = requestVariables
        func rewrite(_ text: String, in endpoint: String) -> String {
            Template.rewritingVariables(in: text) { name in
                guard name.contains(".response.") else { return "{{\(name)}}" }
                let variable = inlineName(for: name)
                if !references.contains(where: { $0.name == variable }) { references.append((variable, "{{\(name)}}", endpoint)) }
                return "{{\(variable)}}"
            }
        }
        for index in endpoints.indices {
            var endpoint = endpoints[index]
            endpoint.path = rewrite(endpoint.path, in: endpoint.name)
            endpoint.query = endpoint.query.map { KeyValue($0.name, rewrite($0.value, in: endpoint.name)) }
            endpoint.headers = endpoint.headers.map { KeyValue($0.name, rewrite($0.value, in: endpoint.name)) }
            if case .raw(let text)? = endpoint.body { endpoint.body = .raw(rewrite(text, in: endpoint.name)) }
            endpoints[index] = endpoint
        }
        for (variable, reference, location) in references {
            let inner = reference.trimmingCharacters(in: CharacterSet(charactersIn: "{} "))
            let parts = inner.components(separatedBy: ".response.")
            guard parts.count == 2, let index = requestNames.first(where: { $0.value == parts[0] })?.key else {
                warnings.append("\(location): \(reference) names no request of the file (# @name); pass --var \(variable)=VALUE when sending.")
                continue
            }
            guard let source = source(of: parts[1]) else {
                warnings.append("\(location): \(reference) cannot be captured (only response.body.<JSONPath or XPath or *> and response.headers.<Name>); pass --var \(variable)=VALUE when sending.")
                continue
            }
            add(Capture(name: variable, source: source), to: index)
        }
        // Whoever uses a captured variable requires the request that captures it.
        for (variable, capturing) in captured {
            let target = endpoints[capturing].name
            for index in endpoints.indices where index != capturing && uses(endpoints[index], variable) {
                if !endpoints[index].requirements.contains(where: { $0.endpoint == target }) {
                    endpoints[index].requirements.append(Requirement(endpoint: target))
                }
            }
        }
        return Set(captured.map(\.variable))
    }

    /// `body.$.id` → a JSONPath capture, `body.//id` → XPath, `body.*` → the body,
    /// `headers.X-Id` → a header.
    private static func source(of path: String) -> Capture.Source? {
        if path.hasPrefix("headers.") { return .header(String(path.dropFirst(8))) }
        guard path.hasPrefix("body.") else { return nil }
        let expression = String(path.dropFirst(5))
        if expression == "*" { return .body }
        if expression.hasPrefix("$") { return (try? JSONPath(expression)) != nil ? .jsonpath(expression) : nil }
        if expression.hasPrefix("/") { return (try? XPath(expression)) != nil ? .xpath(expression) : nil }
        return nil
    }

    /// The variable an inline reference becomes: the request and the last word of its path.
    private static func inlineName(for reference: String) -> String {
        let parts = reference.components(separatedBy: ".response.")
        let last = parts.last?.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).last.map(String.init) ?? "value"
        return "\(parts[0])_\(last)"
    }

    private static func uses(_ endpoint: Endpoint, _ variable: String) -> Bool {
        var texts = [endpoint.path] + endpoint.query.map(\.value) + endpoint.headers.map(\.value)
        if case .raw(let text)? = endpoint.body { texts.append(text) }
        return texts.contains { Template($0).variableNames.contains(variable) }
    }

    /// The captures a JetBrains response handler's `client.global.set(...)` lines make;
    /// whatever else the script does is reported.
    private static func handlerCaptures(_ script: [(number: Int, text: String)], warnings: inout [String], file: String) -> [Capture] {
        let pattern = #"client\.global\.set\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*,\s*response\.(body((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)|headers\.valueOf\(\s*["']([^"']+)["']\s*\))\s*\)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        var captures: [Capture] = []
        var other = false
        for (_, line) in script {
            let code = line.replacingOccurrences(of: "> {%", with: "").replacingOccurrences(of: ">{%", with: "").replacingOccurrences(of: "%}", with: "")
                .trimmingCharacters(in: .whitespaces)
            guard !code.isEmpty else { continue }
            let range = NSRange(code.startIndex..., in: code)
            guard let match = regex.firstMatch(in: code, range: range), let name = Range(match.range(at: 1), in: code) else {
                if !["});", "}", "{"].contains(code) { other = true }
                continue
            }
            if let header = Range(match.range(at: 4), in: code) {
                captures.append(Capture(name: String(code[name]), source: .header(String(code[header]))))
            } else if let path = Range(match.range(at: 3), in: code) {
                captures.append(Capture(name: String(code[name]), source: .jsonpath("$" + code[path])))
            }
        }
        if other, let first = script.first {
            warnings.append("\(file):\(first.number): a response handler script is imported only for its client.global.set lines (as captures); the rest is not.")
        }
        return captures
    }

    /// Rewrites the client's template syntax into explorer's.
    ///
    /// - Returns: the text, and whether it uses a response of another request (`{{req.response...}}`).
    private func convert(_ text: String, warnings: inout [String], at location: String) -> (text: String, chained: Bool) {
        var out = ""
        var chained = false
        for segment in Template(text).segments {
            switch segment {
            case .literal(let literal): out += literal
            case .variable(var name):
                if name.hasPrefix("%") { name.removeFirst() }
                let words = name.split(separator: " ").map(String.init)
                switch words.first ?? "" {
                case "$guid", "$uuid", "$random.uuid": out += "{{uuid}}"
                case "$timestamp": out += "{{timestamp}}"
                case "$datetime", "$isoTimestamp", "$localDatetime": out += "{{now}}"
                case "$processEnv", "$dotenv":
                    if words.count > 1 { out += "{{env.\(words[1].trimmingCharacters(in: CharacterSet(charactersIn: "%")))}}" } else { out += "{{\(name)}}" }
                default:
                    if name.contains(".response.") || name.contains(".request.") {
                        chained = true
                        out += "{{\(name)}}"
                    } else if name.hasPrefix("$") {
                        warnings.append("\(location): the system variable {{\(name)}} has no equivalent in explorer and is kept as written.")
                        out += "{{\(name)}}"
                    } else {
                        out += "{{\(name)}}"
                    }
                }
            }
        }
        return (out, chained)
    }
}
