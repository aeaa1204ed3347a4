import Foundation
import Networking

/// Imports VS Code REST Client and JetBrains HTTP Client `.http` files.
///
/// Requests are separated by `###`; `@name = value` lines become collection variables;
/// `# @name X` (or the `### Title`) names a request; a request line is `METHOD URL [HTTP/1.1]`
/// or a bare URL (GET), with `?`/`&` continuation lines; headers follow until a blank line,
/// then the body. The client's system variables map to explorer's (`{{$guid}}` → `{{uuid}}`,
/// `{{$timestamp}}`, `{{$datetime}}` → `{{now}}`, `{{$processEnv X}}`/`{{$dotenv X}}` →
/// `{{env.X}}`); response handler scripts and request chaining are reported, not imported.
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
            for (number, raw) in block.lines {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if inScript {
                    if line.contains("%}") { inScript = false }
                    continue
                }
                if state < 2, line.hasPrefix("> {%") || line.hasPrefix(">{%") {
                    if !line.contains("%}") { inScript = true }
                    warnings.append("\(file):\(number): a response handler script is not imported.")
                    continue
                }
                if state == 2, line.hasPrefix("> {%") {
                    if !line.contains("%}") { inScript = true }
                    warnings.append("\(file):\(number): a response handler script is not imported.")
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
                            warnings.append("\(file):\(number): @\(variable) takes its value from an earlier response, which explorer does not chain; pass --var \(variable)=VALUE when sending.")
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
            endpoints.append(Endpoint(name: endpointName, method: method, path: parts.origin + parts.path, query: parts.query, headers: headers, body: body))
        }
        guard !endpoints.isEmpty else { throw ImportError.invalidHTTPFile(path: file, reason: "it has no request.") }

        // Variables used but defined nowhere (set by scripts or by the client's env files).
        let defined = Set(variables.map(\.name))
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
