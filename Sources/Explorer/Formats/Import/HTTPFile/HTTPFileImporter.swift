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
    func importText(_ text: String, name: String = "Imported from .http", file: String = "<http>") throws
        -> ImportResult
    {
        var reading = Reading(file: file)
        for block in Self.blocks(of: text) {
            guard let request = reading.request(in: block) else { continue }
            reading.add(request, title: block.title)
        }
        guard !reading.endpoints.isEmpty else {
            throw ImportError.invalidHTTPFile(path: file, reason: "it has no request.")
        }
        let chained = Self.chain(
            &reading.endpoints, requestNames: reading.requestNames, requestVariables: reading.requestVariables,
            handlerCaptures: reading.handlerCaptures, warnings: &reading.warnings)
        reading.warnAboutUndefinedVariables(defined: Set(reading.variables.map(\.name)).union(chained))
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(reading.endpoints.map { .endpoint($0) })
        let environment = Environment(name: "default", baseURLTemplate: baseURL ?? "http://localhost")
        let collection = APICollection(
            name: name, variables: reading.variables, environments: [environment], items: items)
        return ImportResult(collection: collection, warnings: reading.warnings)
    }

    /// Imports a `.http` file.
    ///
    /// - Throws: `ImportError`.
    package func importFile(at url: URL) throws -> ImportResult {
        guard let text = try DocumentLimits.current.readText(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        return try Self.addingEnvironments(
            to: importText(text, name: url.deletingPathExtension().lastPathComponent, file: url.path), beside: url)
    }

    // MARK: - Chaining

    /// Turns chained values into captures of the request they come from, and `requires:` on
    /// the requests that use them.
    ///
    /// - Returns: the variables now captured.
    private static func chain(
        _ endpoints: inout [Endpoint], requestNames: [Int: String],
        requestVariables: [(name: String, reference: String, location: String)],
        handlerCaptures: [Int: [Capture]], warnings: inout [String]
    ) -> Set<String> {
        var captured: [(variable: String, endpoint: Int)] = []
        func add(_ capture: Capture, to index: Int) {
            if !endpoints[index].captures.contains(where: { $0.name == capture.name }) {
                endpoints[index].captures.append(capture)
            }
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
                if !references.contains(where: { $0.name == variable }) {
                    references.append((variable, "{{\(name)}}", endpoint))
                }
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
                warnings.append(
                    "\(location): \(reference) names no request of the file (# @name); "
                        + "pass --var \(variable)=VALUE when sending."
                )
                continue
            }
            guard let source = source(of: parts[1]) else {
                warnings.append(
                    "\(location): \(reference) cannot be captured (only response.body.<JSONPath or XPath or *> and "
                        + "response.headers.<Name>); pass --var \(variable)=VALUE when sending."
                )
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
        let last =
            parts.last?.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).last.map(String.init)
            ?? "value"
        return "\(parts[0])_\(last)"
    }

    private static func uses(_ endpoint: Endpoint, _ variable: String) -> Bool {
        texts(of: endpoint).contains { Template($0).variableNames.contains(variable) }
    }

    /// The texts of an endpoint that may use variables: the path, the query values, the
    /// header values and a raw body.
    static func texts(of endpoint: Endpoint) -> [String] {
        var texts = [endpoint.path] + endpoint.query.map(\.value) + endpoint.headers.map(\.value)
        if case .raw(let text)? = endpoint.body { texts.append(text) }
        return texts
    }

    /// The captures a JetBrains response handler's `client.global.set(...)` lines make;
    /// whatever else the script does is reported.
    static func handlerCaptures(_ script: [(number: Int, text: String)], warnings: inout [String], file: String)
        -> [Capture]
    {
        let pattern =
            #"client\.global\.set\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*,\s*"#
            + #"response\.(body((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)|"#
            + #"headers\.valueOf\(\s*["']([^"']+)["']\s*\))\s*\)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        var captures: [Capture] = []
        var other = false
        for (_, line) in script {
            let code = line.replacingOccurrences(of: "> {%", with: "").replacingOccurrences(of: ">{%", with: "")
                .replacingOccurrences(of: "%}", with: "")
                .trimmingCharacters(in: .whitespaces)
            guard !code.isEmpty else { continue }
            let range = NSRange(code.startIndex..., in: code)
            guard let match = regex.firstMatch(in: code, range: range), let name = Range(match.range(at: 1), in: code)
            else {
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
            warnings.append(
                "\(file):\(first.number): "
                    + "a response handler script is imported only for its client.global.set lines (as captures); "
                    + "the rest is not."
            )
        }
        return captures
    }
}
