import Foundation
import NetworkingCore
import Workspace

extension HTTPFileImporter {
    /// One `###` block of a file: its title and its lines, numbered from the file's start.
    struct Block {
        /// The text after `###` (empty for the lines before the first `###`).
        var title: String
        /// The block's lines, each with its line number in the file.
        var lines: [(number: Int, text: String)]
    }

    /// The file's lines cut into blocks at each `###` line.
    static func blocks(of text: String) -> [Block] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var blocks = [Block(title: "", lines: [])]
        for (offset, line) in lines.enumerated() {
            if line.hasPrefix("###") {
                blocks.append(Block(title: line.dropFirst(3).trimmingCharacters(in: .whitespaces), lines: []))
            } else {
                blocks[blocks.count - 1].lines.append((offset + 1, line))
            }
        }
        return blocks
    }

    /// The request a block writes, as its lines are read: the request line, the headers after
    /// it, the body after the blank line, and a response handler script anywhere.
    struct RequestText {
        /// Which part of the request the next line belongs to.
        enum Part { case preamble, headers, body }

        /// The `# @name` above the request line.
        var name: String?
        /// The method; `nil` until the request line is read (a block without one is no request).
        var method: HTTPMethod?
        /// The URL with its `?`/`&` continuation lines, as written.
        var url = ""
        var headers: [KeyValue] = []
        var bodyLines: [String] = []
        /// The number of the request line, for the warnings about the request.
        var line = 0
        /// The lines of the response handler script (`> {% … %}`).
        var script: [(number: Int, text: String)] = []
        var part = Part.preamble
        var inScript = false
        /// Whether the block's request line is no request line: the block is left out.
        var isRefused = false

        /// Takes the line into `script` when it belongs to a response handler script.
        ///
        /// - Returns: whether it did.
        mutating func takesScriptLine(_ line: String, number: Int) -> Bool {
            if inScript {
                if line.contains("%}") { inScript = false }
            } else if line.hasPrefix("> {%") || line.hasPrefix(">{%"), part != .body || line.hasPrefix("> {%") {
                if !line.contains("%}") { inScript = true }
            } else {
                return false
            }
            script.append((number, line))
            return true
        }

        /// The methods a request line may start with: the JetBrains HTTP client's (its
        /// grammar, http-request-in-editor-spec, lists them) and the WebDAV ones VS Code's REST
        /// Client adds. Any other first word is no method to either tool.
        static let methods: Set<String> = [
            "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "PATCH", "OPTIONS", "TRACE", "LOCK", "UNLOCK",
            "PROPFIND",
            "PROPPATCH", "COPY", "MOVE", "MKCOL", "MKCALENDAR", "ACL", "SEARCH",
        ]

        /// Reads `METHOD URL [HTTP/1.1]`, or a URL alone (GET); headers follow.
        ///
        /// - Returns: `false` when the line is neither: two words or more whose first is no
        ///   method (`INVALIDMETHOD /test`), which both tools refuse (the JetBrains client as
        ///   a syntax error, REST Client as a URL with a space in it).
        mutating func startRequest(_ line: String, number: Int) -> Bool {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            self.line = number
            if words.count >= 2, Self.methods.contains(words[0].uppercased()) {
                method = HTTPMethod(rawValue: words[0])
                url = words[1]
            } else if words.count == 1 {
                method = .get
                url = words[0]
            } else {
                return false
            }
            part = .headers
            return true
        }
    }

    /// What a file gives as it is read block by block: its variables, its endpoints, what
    /// chaining needs, and the warnings, each naming the file and the line.
    struct Reading {
        /// The file's path, for the warnings.
        let file: String
        var warnings: [String] = []
        /// `@name = value` lines whose value is not chained.
        var variables: [KeyValue] = []
        /// The variables whose value uses another request's response.
        var chainedNames: Set<String> = []
        /// `@name = {{request.response...}}` lines: the variable and the reference.
        var requestVariables: [(name: String, reference: String, location: String)] = []
        var endpoints: [Endpoint] = []
        var usedNames: Set<String> = []
        /// Each endpoint's `# @name`, by index.
        var requestNames: [Int: String] = [:]
        /// The `client.global.set` lines of each endpoint's handler, by index.
        var handlerCaptures: [Int: [Capture]] = [:]

        /// Reads a block's lines; a variable defined before the request line is kept for the
        /// whole file.
        ///
        /// - Returns: the request, or `nil` when the block has no request line.
        mutating func request(in block: Block) -> RequestText? {
            var request = RequestText()
            for (number, raw) in block.lines {
                if request.isRefused { return nil }
                let line = raw.trimmingCharacters(in: .whitespaces)
                if request.takesScriptLine(line, number: number) { continue }
                switch request.part {
                case .preamble: readPreamble(line, number: number, into: &request)
                case .headers: readHeader(line, number: number, into: &request)
                case .body:
                    // A response reference (`<> file`) or a handler file (`> handler.js`) is not body.
                    if line.hasPrefix("<> ") || (line.hasPrefix("> ") && line.hasSuffix(".js")) { continue }
                    request.bodyLines.append(raw)
                }
            }
            return request.method == nil || request.isRefused ? nil : request
        }

        /// A line before the request line: a comment (perhaps `# @name`), a variable, or the
        /// request line itself.
        private mutating func readPreamble(_ line: String, number: Int, into request: inout RequestText) {
            if line.isEmpty { return }
            if line.hasPrefix("#") || line.hasPrefix("//") {
                let comment = line.drop { $0 == "#" || $0 == "/" }.trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("@name") {
                    let value = comment.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: " =\t"))
                    if !value.isEmpty { request.name = value }
                }
                return
            }
            if line.hasPrefix("@"), let equals = line.firstIndex(of: "=") {
                define(
                    String(line[line.index(after: line.startIndex)..<equals]),
                    as: String(line[line.index(after: equals)...]), number: number)
                return
            }
            if !request.startRequest(line, number: number) {
                let word = line.split(separator: " ").first.map(String.init) ?? line
                if ["WEBSOCKET", "GRPC", "GRAPHQL"].contains(word) {
                    // The JetBrains client's own kinds of request, not HTTP methods.
                    let kind = ["GRPC": "gRPC", "GRAPHQL": "GraphQL"][word] ?? "WebSocket"
                    warnings.append(
                        "\(file):\(number): a JetBrains \(word) request is not read from .http files, so it is "
                            + "left out; add it to the collection as a \(kind) endpoint.")
                } else {
                    warnings.append(
                        "\(file):\(number): \"\(line)\" is not a request line (\(word) is not a method the "
                            + "JetBrains HTTP client or REST Client sends), so this request is left out; "
                            + "write the method in capitals (GET, POST, PUT, PATCH, DELETE …) before the URL.")
                }
                request.isRefused = true
            }
        }

        /// `@name = value`: a collection variable, or a chained one when the value uses
        /// another request's response.
        private mutating func define(_ name: String, as text: String, number: Int) {
            let variable = name.trimmingCharacters(in: .whitespaces)
            let value = text.trimmingCharacters(in: .whitespaces)
            let converted = convert(value, at: number)
            if converted.chained {
                chainedNames.insert(variable)
                requestVariables.append((variable, value, "\(file):\(number)"))
            } else {
                variables.set(variable, converted.text)
            }
        }

        /// A line after the request line: a continuation of the URL's query, a comment, a
        /// header, or the blank line before the body.
        private mutating func readHeader(_ line: String, number: Int, into request: inout RequestText) {
            if line.isEmpty {
                request.part = .body
                return
            }
            if line.hasPrefix("?") || line.hasPrefix("&") {
                request.url += line
                return
            }
            if line.hasPrefix("#") || line.hasPrefix("//") { return }
            guard let colon = line.firstIndex(of: ":") else {
                warnings.append("\(file):\(number): \"\(line)\" is not a header and was ignored.")
                return
            }
            let headerName = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            request.headers.append(KeyValue(headerName, convert(value, at: number).text))
        }

        /// Adds a block's request as an endpoint named by its `# @name`, else the block's title,
        /// else `METHOD /path`, made unique with a number.
        mutating func add(_ request: RequestText, title: String) {
            guard let method = request.method else { return }
            let body = body(of: request)
            let parts = URLParts(convert(request.url, at: request.line).text)
            if !parts.hasUsableOrigin {
                warnings.append(
                    "\(file):\(request.line): \(parts.origin) is not an absolute http(s) URL yet; "
                        + "edit the environment's base_url before sending."
                )
            }
            let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
            var endpointName = request.name ?? (title.isEmpty ? "\(method.rawValue) \(pathName)" : title)
            if usedNames.contains(endpointName) {
                var counter = 2
                while usedNames.contains("\(endpointName) \(counter)") { counter += 1 }
                endpointName = "\(endpointName) \(counter)"
            }
            usedNames.insert(endpointName)
            if let name = request.name { requestNames[endpoints.count] = name }
            if !request.script.isEmpty {
                handlerCaptures[endpoints.count] = HTTPFileImporter.handlerCaptures(
                    request.script, warnings: &warnings, file: file)
            }
            endpoints.append(
                Endpoint(
                    name: endpointName, method: method, path: parts.origin + parts.path, query: parts.query,
                    headers: request.headers, body: body))
        }

        /// The body lines without the blank ones at the end; a form body's lines are joined
        /// without line breaks.
        private mutating func body(of request: RequestText) -> EndpointBody? {
            var lines = request.bodyLines
            while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
            guard !lines.isEmpty else { return nil }
            let isForm = request.headers.contains {
                $0.name.lowercased() == "content-type" && $0.value.lowercased().contains("x-www-form-urlencoded")
            }
            let text =
                isForm ? lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined() : lines.joined(separator: "\n")
            if text.hasPrefix("< ") {
                warnings.append("\(file):\(request.line): a body read from a file (\(text)) is imported as that text.")
            }
            return .raw(convert(text, at: request.line).text)
        }

        /// Warns about each variable the endpoints use that the file defines nowhere (a script
        /// or the client's environment file sets it), unless chaining captures it.
        mutating func warnAboutUndefinedVariables(defined: Set<String>) {
            var undefined: [String] = []
            for endpoint in endpoints {
                for name in HTTPFileImporter.texts(of: endpoint).flatMap({ Template($0).variableNames })
                where !defined.contains(name) && !undefined.contains(name) && !name.hasPrefix("env.")
                    && !["uuid", "timestamp", "now"].contains(name)
                {
                    undefined.append(name)
                }
            }
            for name in undefined where !chainedNames.contains(name) {
                warnings.append(
                    "{{\(name)}} is not defined in the file (a script or the client's environment file sets it); "
                        + "pass --var \(name)=VALUE or add it to the collection."
                )
            }
        }

        /// Rewrites the client's template syntax into explorer's, warning about a system
        /// variable explorer does not have.
        ///
        /// - Returns: the text, and whether it uses a response of another request (`{{req.response...}}`).
        private mutating func convert(_ text: String, at line: Int) -> (text: String, chained: Bool) {
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
                        if words.count > 1 {
                            out += "{{env.\(words[1].trimmingCharacters(in: CharacterSet(charactersIn: "%")))}}"
                        } else {
                            out += "{{\(name)}}"
                        }
                    default:
                        if name.contains(".response.") || name.contains(".request.") {
                            chained = true
                        } else if name.hasPrefix("$") {
                            warnings.append(
                                "\(file):\(line): the system variable {{\(name)}} "
                                    + "has no equivalent in explorer and is kept as written."
                            )
                        }
                        out += "{{\(name)}}"
                    }
                }
            }
            return (out, chained)
        }
    }
}
