import Foundation

/// Reads a Hurl file (hurl.dev) into its entries, refusing what Hurl refuses with the same
/// `line:column` Hurl gives.
///
/// Hurl's grammar is line-oriented: an entry is a request line (`METHOD URL`), headers,
/// sections (`[QueryStringParams]`, `[FormParams]`, `[MultipartFormData]`, `[Cookies]`,
/// `[BasicAuth]`, `[Options]`, with their short names), an optional body, then an optional
/// response (`HTTP 200`, headers, `[Captures]`, `[Asserts]`, a body). Bodies are JSON or XML
/// as written, a multiline string (```` ``` ````, with `json`, `xml`, `graphql`, `hex` or
/// `base64`), a one-line string (`` `…` ``), `base64,…;`, `hex,…;` or `file,PATH;`.
struct HurlParser {
    /// Why a file is refused, where Hurl refuses it.
    struct Failure: Error, Equatable {
        var line: Int
        var column: Int
        /// Hurl's title of the error ("Parsing section").
        var title: String
        /// What is wrong there.
        var message: String
    }

    /// One key-value line of a section (or a header).
    struct Pair: Equatable {
        var key: String
        var value: String
        var line: Int
    }

    /// A request or response body as written.
    enum Body: Equatable {
        case json(String)
        case xml(String)
        /// A multiline string with its language (empty for none).
        case multiline(String, language: String)
        case oneline(String)
        case base64(String)
        case hex(String)
        case file(String)

        /// The body as the file writes it.
        var written: String {
            switch self {
            case .json(let text), .xml(let text): text
            case .multiline(let text, let language):
                "```\(language)\n\(text)\(text.isEmpty || text.hasSuffix("\n") ? "" : "\n")```"
            case .oneline(let text): "`\(text)`"
            case .base64(let text): "base64,\(text);"
            case .hex(let text): "hex,\(text);"
            case .file(let path): "file,\(path);"
            }
        }
    }

    /// The response part of an entry.
    struct Response: Equatable {
        var status: String
        var line: Int
        var headers: [Pair] = []
        var captures: [Pair] = []
        /// Assert lines, trimmed, with their line numbers.
        var asserts: [(text: String, line: Int)] = []
        var body: Body?

        static func == (lhs: Response, rhs: Response) -> Bool {
            lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.captures == rhs.captures
                && lhs.asserts.map(\.text) == rhs.asserts.map(\.text) && lhs.body == rhs.body
        }
    }

    /// One entry: a request and what its response must be.
    struct Entry {
        var method: String
        var url: String
        var line: Int
        /// The comment lines just above the request line, in order.
        var comments: [String] = []
        var headers: [Pair] = []
        /// Sections by their long name (`QueryStringParams` for `[Query]` too), in order.
        var sections: [(name: String, pairs: [Pair])] = []
        var body: Body?
        var response: Response?

        func section(_ name: String) -> [Pair]? { sections.first { $0.name == name }?.pairs }
    }

    /// Sections of a request, long name first, and their short names.
    static let requestSections = [
        "QueryStringParams": "QueryStringParams", "Query": "QueryStringParams", "FormParams": "FormParams",
        "Form": "FormParams", "MultipartFormData": "MultipartFormData", "Multipart": "MultipartFormData",
        "Cookies": "Cookies", "BasicAuth": "BasicAuth", "Options": "Options",
    ]
    static let responseSections = ["Captures": "Captures", "Asserts": "Asserts"]

    private let lines: [Substring]
    private var index = 0
    /// The comment lines read just before the current line, for the next entry's name.
    private var comments: [String] = []

    /// Reads a file's text.
    ///
    /// - Throws: `Failure` where Hurl refuses the file.
    static func entries(of text: String) throws -> [Entry] {
        var parser = HurlParser(
            lines: text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasSuffix("\r") ? $0.dropLast() : $0
            })
        return try parser.entries()
    }

    private init(lines: [Substring]) {
        self.lines = lines
    }

    // MARK: - Entries

    private mutating func entries() throws -> [Entry] {
        var entries: [Entry] = []
        while index < lines.count {
            if skipsBlankOrComment() { continue }
            var entry = try request(comments: comments)
            comments = []
            try requestParts(&entry)
            entries.append(entry)
        }
        return entries
    }

    /// Moves past a blank or comment line, keeping the comments just above what follows.
    private mutating func skipsBlankOrComment() -> Bool {
        let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            comments = []
        } else if trimmed.hasPrefix("#") {
            comments.append(String(trimmed.dropFirst().trimmingCharacters(in: .whitespaces)))
        } else {
            return false
        }
        index += 1
        return true
    }

    /// The request line.
    private mutating func request(comments: [String]) throws -> Entry {
        let line = lines[index]
        let number = index + 1
        let indent = line.prefix { $0 == " " || $0 == "\t" }.count
        let rest = line.dropFirst(indent)
        let method = rest.prefix { $0.isLetter && $0.isASCII }
        guard !method.isEmpty, method.allSatisfy(\.isUppercase) else {
            throw Failure(
                line: number, column: indent + 1, title: "Parsing method",
                message:
                    "the HTTP method is not valid. Valid values are GET, "
                    + "HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH"
            )
        }
        let afterMethod = rest.dropFirst(method.count)
        let spaces = afterMethod.prefix { $0 == " " || $0 == "\t" }.count
        guard spaces > 0 else {
            throw Failure(
                line: number, column: indent + method.count + 1, title: "Parsing space", message: "expecting a space")
        }
        let urlColumn = indent + method.count + spaces + 1
        let url = Self.withoutComment(afterMethod.dropFirst(spaces))
        guard url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("{{") else {
            throw Failure(
                line: number, column: urlColumn, title: "Parsing URL", message: "expecting http://, https:// or {{")
        }
        try Self.checkTemplates(in: line, number: number)
        index += 1
        return Entry(method: String(method), url: url, line: number, comments: comments)
    }

    /// Headers, sections and body of a request, then its response.
    private mutating func requestParts(_ entry: inout Entry) throws {
        var inSection: String?
        while index < lines.count {
            if skipsBlankOrComment() { continue }
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if Self.isStatusLine(trimmed) {
                entry.response = try response()
                return
            }
            if let name = Self.sectionName(line) {
                guard let long = Self.requestSections[name] else {
                    throw Failure(
                        line: index + 1, column: column(of: line) + 2, title: "Parsing request section name",
                        message:
                            "the section is not valid. Valid values are QueryStringParams, "
                            + "FormParams, MultipartFormData, Cookies, Options"
                    )
                }
                if entry.sections.contains(where: { $0.name == long }) {
                    throw Failure(
                        line: index + 1, column: column(of: line) + 1, title: "Parsing section",
                        message: "the section is already defined")
                }
                entry.sections.append((long, []))
                inSection = long
                index += 1
                continue
            }
            if Self.startsBody(trimmed) {
                entry.body = try body()
                continue
            }
            if Self.isRequestLine(trimmed) && entry.body == nil && !Self.looksLikePair(trimmed) { return }
            if entry.body != nil { return }
            try Self.checkTemplates(in: line, number: index + 1)
            if inSection == "Options" { try Self.checkOption(line, number: index + 1) }
            if inSection == "MultipartFormData" { try Self.checkMultipartPart(line, number: index + 1) }
            let pair = try self.pair(line, emptyHeader: inSection == nil)
            if inSection != nil {
                entry.sections[entry.sections.count - 1].pairs.append(pair)
            } else {
                entry.headers.append(pair)
            }
            index += 1
        }
    }

    /// The response: the status line, headers, captures, asserts and body.
    private mutating func response() throws -> Response {
        let line = lines[index]
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let status =
            trimmed.split(separator: " ", maxSplits: 1).dropFirst().first.map { Self.withoutComment($0) } ?? "*"
        try Self.checkStatusLine(line, number: index + 1)
        var response = Response(status: status, line: index + 1)
        index += 1
        var inSection: String?
        var seen: Set<String> = []
        while index < lines.count {
            if skipsBlankOrComment() { continue }
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let name = Self.sectionName(line) {
                guard let long = Self.responseSections[name] else {
                    throw Failure(
                        line: index + 1, column: column(of: line) + 2, title: "Parsing response section name",
                        message: "the section is not valid. Valid values are Captures or Asserts")
                }
                guard seen.insert(long).inserted else {
                    throw Failure(
                        line: index + 1, column: column(of: line) + 1, title: "Parsing section",
                        message: "the section is already defined")
                }
                inSection = long
                index += 1
                continue
            }
            if Self.startsBody(trimmed) {
                response.body = try body()
                continue
            }
            if response.body != nil || (Self.isRequestLine(trimmed) && !Self.looksLikePair(trimmed)) { return response }
            switch inSection {
            case "Asserts":
                try checkEscapes(in: line)
                try Self.checkQuery(line, number: index + 1, isAssert: true)
                let number = index + 1
                var text = Self.withoutComment(Substring(trimmed))
                if let opening = text.range(of: "```"), !text[opening.upperBound...].contains("`") {
                    // `body == ```…` with the value on the lines below, up to a line of ```.
                    let language = text[opening.upperBound...].trimmingCharacters(in: .whitespaces)
                    var content: [Substring] = []
                    index += 1
                    while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                        content.append(lines[index])
                        index += 1
                    }
                    guard index < lines.count else {
                        throw Failure(
                            line: number, column: column(of: line) + 1, title: "Parsing multiline",
                            message: "expecting '```'")
                    }
                    text =
                        String(text[..<opening.lowerBound])
                        + Self.quotedLiteral(Self.multilineValue(content, language: language))
                }
                response.asserts.append((text, number))
            case "Captures":
                try Self.checkQuery(line, number: index + 1, isAssert: false)
                response.captures.append(try pair(line))
            default:
                response.headers.append(try pair(line))
            }
            index += 1
        }
        return response
    }

    // MARK: - Lines

    /// A `key: value` line: the key bare (letters, digits, `-_.[]@$`, escapes) or quoted, the
    /// value the rest of the line without a trailing comment.
    ///
    /// - Parameter emptyHeader: whether `Name;` is read too: a request header sent with an
    ///   empty value (curl's spelling, which Hurl reads since `Name:` removes a header).
    private func pair(_ line: Substring, emptyHeader: Bool = false) throws -> Pair {
        let start = column(of: line)
        var key = ""
        var rest = line.dropFirst(start)
        if rest.first == "\"" {
            let (text, length) = try quoted(rest, line: index + 1, column: start + 1)
            key = text
            rest = rest.dropFirst(length)
        } else {
            var position = start
            while let character = rest.first,
                character != ":" && !(character == " " || character == "\t") && !(emptyHeader && character == ";")
            {
                if character == "\\" {
                    let (text, length) = try escape(rest, line: index + 1, column: position + 1)
                    key += text
                    rest = rest.dropFirst(length)
                    position += length
                    continue
                }
                guard
                    character.isLetter || character.isNumber || "-_.[]@$".contains(character) || character == "{"
                        || character == "}"
                else {
                    throw Failure(
                        line: index + 1, column: position + 1, title: "Parsing key string", message: "expecting a key")
                }
                key.append(character)
                rest = rest.dropFirst()
                position += 1
            }
        }
        let beforeColon = rest.prefix { $0 == " " || $0 == "\t" }
        rest = rest.dropFirst(beforeColon.count)
        if emptyHeader, rest.first == ";", !key.isEmpty, Self.withoutComment(rest.dropFirst()).isEmpty {
            return Pair(key: key, value: "", line: index + 1)
        }
        guard rest.first == ":" else {
            throw Failure(
                line: index + 1, column: line.count - rest.count + 1, title: "Parsing section",
                message: "expecting ':'")
        }
        rest = rest.dropFirst()
        guard !key.isEmpty else {
            throw Failure(line: index + 1, column: start + 1, title: "Parsing key string", message: "expecting a key")
        }
        return Pair(
            key: key,
            value: try Self.unescaped(Self.withoutComment(rest), line: index + 1, column: line.count - rest.count + 1),
            line: index + 1)
    }

    /// A quoted string at the start of `text`: its value and how many characters it takes.
    private func quoted(_ text: Substring, line: Int, column: Int) throws -> (String, Int) {
        var value = ""
        var rest = text.dropFirst()
        var length = 1
        while let character = rest.first {
            if character == "\"" { return (value, length + 1) }
            if character == "\\" {
                let (escaped, taken) = try escape(rest, line: line, column: column + length)
                value += escaped
                rest = rest.dropFirst(taken)
                length += taken
                continue
            }
            value.append(character)
            rest = rest.dropFirst()
            length += 1
        }
        throw Failure(line: line, column: column + length, title: "Parsing quoted string", message: "expecting '\"'")
    }

    /// An escape at the start of `text` (`\"`, `\\`, `\n`, `\u{…}` …).
    private func escape(_ text: Substring, line: Int, column: Int) throws -> (String, Int) {
        let rest = text.dropFirst()
        switch rest.first {
        case "\""?: return ("\"", 2)
        case "\\"?: return ("\\", 2)
        case "b"?: return ("\u{8}", 2)
        case "f"?: return ("\u{c}", 2)
        case "n"?: return ("\n", 2)
        case "r"?: return ("\r", 2)
        case "t"?: return ("\t", 2)
        case "#"?: return ("#", 2)
        case ":"?: return (":", 2)
        case "`"?: return ("`", 2)
        case "u"?:
            let afterU = rest.dropFirst()
            guard afterU.first == "{", let close = afterU.firstIndex(of: "}"),
                let code = UInt32(afterU[afterU.index(after: afterU.startIndex)..<close], radix: 16),
                let scalar = Unicode.Scalar(code)
            else {
                throw Failure(
                    line: line, column: column + 2, title: "Parsing unicode literal",
                    message: "the unicode literal is not valid")
            }
            return (String(Character(scalar)), 2 + afterU.distance(from: afterU.startIndex, to: close) + 1)
        default:
            throw Failure(
                line: line, column: column + 1, title: "Parsing escape character",
                message: "the escaping sequence is not valid")
        }
    }

    /// A value with its escapes read (a value is not quoted: a `"` is part of it).
    private static func unescaped(_ text: String, line: Int, column: Int) throws -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var rest = Substring(text)
        let parser = HurlParser(lines: [])
        while let character = rest.first {
            if character == "\\" {
                let (value, length) = try parser.escape(rest, line: line, column: column + text.count - rest.count)
                out += value
                rest = rest.dropFirst(length)
            } else {
                out.append(character)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// The escapes of every quoted string on an assert line are valid (Hurl checks them when it reads).
    private func checkEscapes(in line: Substring) throws {
        var rest = line
        var inString = false
        while let character = rest.first {
            let column = line.count - rest.count + 1
            if inString && character == "\\" {
                rest = rest.dropFirst(try escape(rest, line: index + 1, column: column).1)
                continue
            }
            if character == "\"" { inString.toggle() }
            if character == "#" && !inString { return }
            rest = rest.dropFirst()
        }
    }

    // MARK: - Bodies

    /// A body, starting at the current line; the index moves past it.
    private mutating func body() throws -> Body {
        let line = lines[index]
        let start = column(of: line)
        let trimmed = line.dropFirst(start)
        if trimmed.hasPrefix("```") {
            let header = trimmed.dropFirst(3)
            if let close = header.range(of: "```") {
                // ```text``` on one line.
                index += 1
                return .multiline(String(header[..<close.lowerBound]), language: "")
            }
            let language = header.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            var content: [Substring] = []
            let opening = index + 1
            index += 1
            while index < lines.count {
                if lines[index].trimmingCharacters(in: .whitespaces) == "```" {
                    index += 1
                    // Each line of a multiline string ends with its newline, the last one too.
                    return .multiline(content.map { $0 + "\n" }.joined(), language: language)
                }
                content.append(lines[index])
                index += 1
            }
            throw Failure(line: opening, column: start + 1, title: "Parsing multiline", message: "expecting '```'")
        }
        if trimmed.hasPrefix("`") {
            let inner = trimmed.dropFirst()
            guard let close = inner.firstIndex(of: "`") else {
                throw Failure(
                    line: index + 1, column: line.count + 1, title: "Parsing oneline string", message: "expecting '`'")
            }
            index += 1
            return .oneline(try Self.unescaped(String(inner[..<close]), line: index, column: start + 2))
        }
        for (prefix, make) in [("base64,", Body.base64), ("hex,", Body.hex), ("file,", Body.file)]
            as [(String, (String) -> Body)]
        where trimmed.hasPrefix(prefix) {
            let inner = trimmed.dropFirst(prefix.count)
            guard let end = inner.firstIndex(of: ";") else {
                throw Failure(
                    line: index + 1, column: line.count + 1, title: "Parsing \(prefix.dropLast())",
                    message: "expecting ';'")
            }
            index += 1
            return make(inner[..<end].trimmingCharacters(in: .whitespaces))
        }
        if trimmed.hasPrefix("<") {
            var content: [Substring] = [lines[index]]
            index += 1
            while index < lines.count {
                let next = lines[index].trimmingCharacters(in: .whitespaces)
                if next.isEmpty || Self.isStatusLine(next) || (Self.isRequestLine(next) && !next.hasPrefix("<")) {
                    break
                }
                content.append(lines[index])
                index += 1
            }
            return .xml(content.joined(separator: "\n"))
        }
        return .json(try json())
    }

    /// A JSON body: from the current line to its closing bracket, checked as Hurl checks it
    /// (`{{templates}}` allowed as values).
    private mutating func json() throws -> String {
        var reader = HurlJSONReader(lines: lines, line: index, column: column(of: lines[index]))
        try reader.value(depth: 0)
        let text = lines[index...reader.line].enumerated().map { offset, line in
            offset == reader.line - index ? line.prefix(reader.column + 1) : line
        }.joined(separator: "\n")
        index = reader.line + 1
        return text.trimmingCharacters(in: .whitespaces)
    }

    // MARK: - Kinds of lines

    private func column(of line: Substring) -> Int { line.prefix { $0 == " " || $0 == "\t" }.count }

    static func withoutComment(_ text: Substring) -> String {
        // A ` #` outside a template or a quoted string starts a comment.
        var inString = false
        var previous: Character = " "
        var depth = 0
        for position in text.indices {
            let character = text[position]
            if character == "\"" && previous != "\\" { inString.toggle() }
            if character == "{" && previous == "{" { depth += 1 }
            if character == "}" && previous == "}" && depth > 0 { depth -= 1 }
            if character == "#" && !inString && depth == 0 && (previous == " " || previous == "\t") {
                return text[..<position].trimmingCharacters(in: .whitespaces)
            }
            previous = character
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The value a multiline string stands for in an assert: its text (each line with its
    /// newline), or for `graphql` the JSON Hurl would send.
    static func multilineValue(_ content: [Substring], language: String) -> String {
        let text = content.map { $0 + "\n" }.joined()
        guard language.split(separator: ",").first == "graphql" else { return text }
        return HurlImporter.Reading.graphQLBody(text).serialized(pretty: false)
    }

    /// A text as a Hurl quoted string.
    static func quotedLiteral(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// `HTTP[/VERSION] STATUS`: a version Hurl knows and a status of three digits (or `*`).
    static func checkStatusLine(_ line: Substring, number: Int) throws {
        let start = line.prefix { $0 == " " || $0 == "\t" }.count
        let rest = line.dropFirst(start)
        let version = rest.prefix { $0 != " " && $0 != "\t" }
        guard ["HTTP", "HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3"].contains(version) else {
            throw Failure(
                line: number, column: start + 1, title: "Parsing version",
                message: "HTTP version must be HTTP, HTTP/1.0, HTTP/1.1 or HTTP/2")
        }
        let afterVersion = rest.dropFirst(version.count)
        let spaces = afterVersion.prefix { $0 == " " || $0 == "\t" }.count
        let status = withoutComment(afterVersion.dropFirst(spaces))
        guard status == "*" || (!status.isEmpty && status.allSatisfy { $0.isASCII && $0.isNumber }) else {
            throw Failure(
                line: number, column: start + version.count + spaces + 1, title: "Parsing status code",
                message: "HTTP status code is not valid")
        }
    }

    static func isStatusLine(_ trimmed: String) -> Bool {
        trimmed == "HTTP" || trimmed.hasPrefix("HTTP ") || trimmed.hasPrefix("HTTP/") || trimmed.hasPrefix("HTTP\t")
    }

    static func isRequestLine(_ trimmed: String) -> Bool {
        let method = trimmed.prefix { $0.isLetter && $0.isASCII }
        guard !method.isEmpty, method.allSatisfy(\.isUppercase) else { return false }
        let rest = trimmed.dropFirst(method.count)
        return rest.first == " " || rest.first == "\t"
    }

    /// A `key: value` line whose key has no space (so `GET http://…` is not one).
    static func looksLikePair(_ trimmed: String) -> Bool {
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        return !trimmed[..<colon].contains(" ") && !trimmed[..<colon].contains("\t")
    }

    /// `[Name]` alone on its line (a comment may follow).
    static func sectionName(_ line: Substring) -> String? {
        let trimmed = withoutComment(line)
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]"), trimmed.count > 2 else { return nil }
        let name = trimmed.dropFirst().dropLast()
        return name.allSatisfy({ $0.isLetter }) ? String(name) : nil
    }

    static func startsBody(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("{") && !trimmed.hasPrefix("{{")
            || (trimmed.hasPrefix("[") && sectionName(Substring(trimmed)) == nil)
            || trimmed.hasPrefix("<") || trimmed.hasPrefix("`") || trimmed.hasPrefix("base64,")
            || trimmed.hasPrefix("hex,")
            || trimmed.hasPrefix("file,")
    }
}
