import Foundation

/// What Hurl's parser checks in a line beyond its shape: the names and values of `[Options]`,
/// the query, filters and predicate value of an assert, the content type of a multipart file,
/// the arguments of `{{randomInt}}`. Each refusal has the line, column, title and words of
/// Hurl's own error (its `tests_error_parser` files).
extension HurlParser {
    /// The option names Hurl reads in `[Options]`.
    static let optionNames: Set<String> = [
        "aws-sigv4", "cacert", "cert", "compressed", "connect-timeout", "connect-to", "delay", "digest", "header",
        "http1.0", "http1.1", "http2", "http3", "insecure", "ipv4", "ipv6", "key", "limit-rate", "location",
        "location-trusted", "max-filesize", "max-redirs", "max-time", "negotiate", "netrc", "netrc-file",
        "netrc-optional", "noproxy", "ntlm", "output", "path-as-is", "pinnedpubkey", "proxy", "repeat", "resolve",
        "retry", "retry-interval", "skip", "unix-socket", "user", "variable", "verbose", "verbosity", "very-verbose",
    ]

    /// The options whose value is a duration (a number, then `ms`, `s` or `m`).
    static let durationOptions: Set<String> = ["delay", "retry-interval", "connect-timeout", "max-time"]

    /// Hurl's functions, which no variable may be named after.
    static let functionNames: Set<String> = ["newDate", "newUuid", "getEnv"]

    /// The queries whose argument is a quoted string.
    static let quotedQueries: Set<String> = ["header", "cookie", "xpath", "variable", "certificate"]

    /// The filters and how many quoted strings follow each.
    static let filterArguments: [String: Int] = [
        "base64Decode": 0, "base64Encode": 0, "base64UrlSafeDecode": 0, "base64UrlSafeEncode": 0, "count": 0,
        "daysAfterNow": 0, "daysBeforeNow": 0, "decode": 1, "first": 0, "format": 1, "htmlEscape": 0,
        "htmlUnescape": 0, "jsonpath": 1, "last": 0, "location": 0, "regex": 1, "replace": 2, "replaceRegex": 2,
        "split": 1, "toDate": 1, "toFloat": 0, "toHex": 0, "toInt": 0, "toString": 0, "urlDecode": 0,
        "urlEncode": 0, "urlQueryParam": 1, "utf8Decode": 0, "utf8Encode": 0, "xpath": 1, "nth": 0,
    ]

    /// The predicates that compare with a value.
    static let valuePredicates: Set<String> = [
        "==", "!=", ">", ">=", "<", "<=", "equals", "notEquals", "greaterThan", "greaterThanOrEquals", "lessThan",
        "lessThanOrEquals", "startsWith", "endsWith", "contains", "includes", "matches",
    ]

    // MARK: - Options

    /// An `[Options]` line: a name Hurl knows and a value of the kind it takes.
    static func checkOption(_ line: Substring, number: Int) throws {
        let start = line.prefix { $0 == " " || $0 == "\t" }.count
        let rest = line.dropFirst(start)
        guard let colon = rest.firstIndex(of: ":") else { return }
        let name = rest[..<colon].trimmingCharacters(in: .whitespaces)
        guard optionNames.contains(name) else {
            let dashed = name.replacingOccurrences(of: "_", with: "-")
            let advice =
                optionNames.contains(dashed)
                ? "Did you mean \(dashed)?"
                : "Valid values are " + optionNames.sorted().joined(separator: ", ")
            throw Failure(
                line: number, column: start + 1, title: "Parsing option",
                message: "the option name is not valid. \(advice)")
        }
        let afterColon = rest[rest.index(after: colon)...]
        let valueColumn =
            start + rest.distance(from: rest.startIndex, to: colon) + 2
            + afterColon.prefix { $0 == " " || $0 == "\t" }.count
        let value = withoutComment(afterColon)
        guard !value.hasPrefix("{{") else { return }
        if durationOptions.contains(name) {
            let digits = value.prefix { $0.isASCII && $0.isNumber }
            let unit = value.dropFirst(digits.count)
            guard !digits.isEmpty else {
                throw Failure(
                    line: number, column: valueColumn, title: "Parsing literal", message: "expecting 'duration'")
            }
            if !unit.isEmpty, !["ms", "s", "m"].contains(String(unit)) {
                let guess = ["ms", "s", "m"].first { unit.hasPrefix($0) }.map { " Did you mean \($0)?" } ?? ""
                throw Failure(
                    line: number, column: valueColumn + digits.count, title: "Parsing duration",
                    message: "the duration unit is not valid.\(guess)")
            }
        }
        switch name {
        case "retry", "repeat":
            guard let count = Int(value), count >= -1 else {
                throw Failure(
                    line: number, column: valueColumn, title: "Parsing literal", message: "expecting 'integer >= -1'")
            }
        case "verbosity":
            guard ["brief", "verbose", "debug"].contains(value) else {
                throw Failure(
                    line: number, column: valueColumn, title: "Parsing literal",
                    message: "expecting 'brief|verbose|debug'")
            }
        case "variable":
            let variable = value.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces)
            if functionNames.contains(variable) {
                throw Failure(
                    line: number, column: valueColumn, title: "Parsing variable",
                    message: "conflicts with the \(variable) function, use a different name")
            }
        default:
            break
        }
    }

    // MARK: - Templates

    /// `{{randomInt MIN MAX}}`: MAX is at least MIN.
    static func checkTemplates(in line: Substring, number: Int) throws {
        var rest = line[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { return }
            let inner = rest[open.upperBound..<close.lowerBound]
            let words = inner.split(separator: " ", omittingEmptySubsequences: true)
            if words.first == "randomInt", words.count == 3, let low = Int(words[1]), let high = Int(words[2]),
                high < low
            {
                let column = line.distance(from: line.startIndex, to: words[2].startIndex) + 1
                throw Failure(
                    line: number, column: column, title: "Parsing literal",
                    message: "expecting 'an integer greater than or equal to \(low)'")
            }
            rest = rest[close.upperBound...]
        }
    }

    // MARK: - Multipart

    /// A `[MultipartFormData]` file part (`file,PATH;` and an optional content type).
    static func checkMultipartPart(_ line: Substring, number: Int) throws {
        guard let colon = line.firstIndex(of: ":") else { return }
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        guard value.hasPrefix("file,"), let semicolon = value.firstIndex(of: ";") else { return }
        let after = value[value.index(after: semicolon)...]
        let type = after.drop { $0 == " " || $0 == "\t" }
        guard let first = type.first, first != "#" else { return }
        guard first.isASCII, first.isLetter || first.isNumber else {
            throw Failure(
                line: number, column: line.distance(from: line.startIndex, to: type.startIndex) + 1,
                title: "Parsing file content type", message: "expecting a content type")
        }
    }

    // MARK: - Asserts and captures

    /// One word of an assert or capture and the column it starts at (1-based).
    private struct Word {
        var text: Substring
        var column: Int
    }

    /// The words of a line: quoted strings, `{{templates}}`, `` `strings` `` and `/regexes/`
    /// whole, up to a comment.
    private static func words(of line: Substring) -> [Word] {
        var words: [Word] = []
        var index = line.startIndex
        func column(_ at: Substring.Index) -> Int { line.distance(from: line.startIndex, to: at) + 1 }
        while index < line.endIndex {
            let character = line[index]
            if character == " " || character == "\t" {
                index = line.index(after: index)
                continue
            }
            if character == "#" { break }
            let start = index
            var end = line.index(after: index)
            if character == "\"" || character == "`" || (character == "/" && !words.isEmpty) {
                while end < line.endIndex, line[end] != character {
                    if line[end] == "\\" { end = line.index(after: end) }
                    if end < line.endIndex { end = line.index(after: end) }
                }
                if end < line.endIndex { end = line.index(after: end) }
            } else if line[start...].hasPrefix("{{"), let close = line[start...].range(of: "}}") {
                end = close.upperBound
            } else {
                while end < line.endIndex, line[end] != " ", line[end] != "\t" { end = line.index(after: end) }
            }
            words.append(Word(text: line[start..<end], column: column(start)))
            index = end
        }
        return words
    }

    /// An assert line (`query filters* predicate`) or the query of a capture line, as Hurl
    /// reads them: a query that takes a quoted string has one, and so has each filter that
    /// takes one; a predicate that compares has a value.
    static func checkQuery(_ line: Substring, number: Int, isAssert: Bool) throws {
        var words = words(of: line)
        if !isAssert {
            // `name: query …`
            guard let colon = words.firstIndex(where: { $0.text.hasSuffix(":") }) else { return }
            words.removeFirst(colon + 1)
        }
        guard let query = words.first else { return }
        var position = 1
        func needsQuoted(_ title: String, _ message: String) throws {
            let word = position < words.count ? words[position] : nil
            guard let word, word.text.hasPrefix("\"") else {
                let column = word?.column ?? (line.count + 1)
                throw Failure(line: number, column: column, title: title, message: message)
            }
            position += 1
        }
        switch query.text {
        case "jsonpath":
            try needsQuoted("Parsing jsonpath expression", "expecting a jsonpath expression")
        case "regex":
            if position < words.count, words[position].text.hasPrefix("/") {
                position += 1
            } else {
                try needsQuoted("Parsing literal", "expecting '\"'")
            }
        case let name where quotedQueries.contains(String(name)):
            try needsQuoted("Parsing literal", "expecting '\"'")
        case "status", "version", "url", "ip", "redirects", "body", "bytes", "sha256", "md5", "duration":
            break
        default:
            return
        }
        while position < words.count, let arguments = filterArguments[String(words[position].text)] {
            let filter = words[position].text
            position += 1
            if filter == "nth" {
                position += 1
                continue
            }
            for _ in 0..<arguments {
                if filter == "regex" || filter == "replace" || filter == "replaceRegex",
                    position < words.count, words[position].text.hasPrefix("/")
                {
                    position += 1
                    continue
                }
                try needsQuoted("Parsing literal", "expecting '\"'")
            }
        }
        guard isAssert, position < words.count else { return }
        if words[position].text == "not" { position += 1 }
        guard position < words.count, valuePredicates.contains(String(words[position].text)) else { return }
        position += 1
        guard position < words.count else { return }
        let value = words[position]
        guard isPredicateValue(value.text) else {
            throw Failure(
                line: number, column: value.column, title: "Parsing predicate value",
                message: "invalid predicate value")
        }
    }

    /// Whether a word is a value Hurl compares with: a string, a number, a Boolean, `null`, a
    /// template, a regex, or bytes (`base64,…;`, `hex,…;`, `file,…;`).
    private static func isPredicateValue(_ text: Substring) -> Bool {
        guard let first = text.first else { return false }
        if "\"`/".contains(first) || text.hasPrefix("{{") || text.hasPrefix("```") { return true }
        if ["true", "false", "null"].contains(text) { return true }
        if text.hasPrefix("base64,") || text.hasPrefix("hex,") || text.hasPrefix("file,") { return true }
        return Double(text) != nil || Int(text) != nil
    }
}
