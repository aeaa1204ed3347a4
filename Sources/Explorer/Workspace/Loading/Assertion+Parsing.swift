import Foundation
import Query

extension Assertion {
    /// Whether a line of an `assert:` list reads as an assertion (what an importer checks
    /// before writing one, so the file it writes loads).
    package static func reads(_ text: String) -> Bool {
        (try? Assertion(parsing: text)) != nil
    }

    /// Reads one assertion as written in `assert:`: `QUERY [ARG] [not] PREDICATE [VALUE]`.
    ///
    /// An argument or a value may be quoted (`"…"` or `'…'`, with `\` escapes); unquoted, an
    /// argument runs to the next space outside brackets, parentheses and quotes, so
    /// `jsonpath $.items[?(@.name == "a b")] exists` reads as one expression. A value left
    /// unquoted is a number, `true`, `false`, `null`, or else the rest of the line as text.
    ///
    /// - Throws: `CheckSyntaxError` naming the word at fault, with a did-you-mean.
    init(parsing text: String) throws(CheckSyntaxError) {
        if text.trimmingCharacters(in: .whitespaces) == "schema" {
            self.init(query: .schema, predicate: .exists, text: "schema")
            return
        }
        var tokens = CheckTokens(text)
        guard let first = tokens.next() else {
            throw CheckSyntaxError("an assertion is empty; write a query and a predicate, as in: status == 200")
        }
        if first.text == "schema" && !first.quoted {
            throw CheckSyntaxError(
                "schema is written alone (- schema): it checks the response against its operation in the collection's openapi: document.",
                at: first.offset)
        }
        let queryWords = Query.words.map(\.word) + ["schema"]
        guard let word = Query.words.first(where: { $0.word == first.text }) else {
            throw CheckSyntaxError(
                "\"\(first.text)\" is not a query (\(Self.queryList))."
                    + CheckSyntaxError.didYouMean(first.text, in: queryWords), at: first.offset)
        }
        var argument: CheckTokens.Token?
        if let name = word.argument {
            guard let token = tokens.next() else {
                throw CheckSyntaxError(
                    "\(word.word) needs \(name == "EXPR" ? "an" : "a") \(name), as in: \(Self.example(for: word.word))",
                    at: text.count)
            }
            argument = token
        }
        let query: Query
        switch (word.word, argument) {
        case ("status", _): query = .status
        case ("body", _): query = .body
        case ("duration", _): query = .duration
        case ("bytes", _): query = .bytes
        case ("grpc_status", _): query = .grpcStatus
        case ("header", let argument?): query = .header(argument.text)
        case ("cookie", let argument?): query = .cookie(argument.text)
        case ("jsonpath", let argument?):
            do {
                _ = try JSONPath(argument.text)
            } catch {
                throw CheckSyntaxError("the JSONPath \"\(argument.text)\" is not valid: \(error)", at: argument.offset)
            }
            query = .jsonpath(argument.text)
        case ("xpath", let argument?):
            do {
                _ = try XPath(argument.text)
            } catch {
                throw CheckSyntaxError(
                    "the XPath \"\(argument.text)\" is not valid: \(error.message)", at: argument.offset + error.offset)
            }
            query = .xpath(argument.text)
        case ("regex", let argument?):
            try Self.validateRegex(argument.text, at: argument.offset)
            query = .regex(argument.text)
        default:
            throw CheckSyntaxError("\"\(first.text)\" is not a query (\(Self.queryList)).", at: first.offset)
        }
        guard var predicateToken = tokens.next() else {
            throw CheckSyntaxError(
                "the assertion has no predicate after \"\(text.trimmingCharacters(in: .whitespaces))\" (\(Self.predicateList)).",
                at: text.count)
        }
        var negated = false
        if predicateToken.text == "not" && !predicateToken.quoted {
            negated = true
            guard let next = tokens.next() else {
                throw CheckSyntaxError(
                    "\"not\" must be followed by a predicate (\(Self.predicateList)).", at: text.count)
            }
            predicateToken = next
        }
        let names = Predicate.allCases.map(\.rawValue)
        guard let predicate = Predicate(rawValue: predicateToken.text), !predicateToken.quoted else {
            throw CheckSyntaxError(
                "\"\(predicateToken.text)\" is not a predicate (\(Self.predicateList))."
                    + CheckSyntaxError.didYouMean(predicateToken.text, in: names), at: predicateToken.offset)
        }
        let rest = tokens.rest
        var expected: Expected?
        if predicate.takesValue {
            guard let value = rest else {
                throw CheckSyntaxError(
                    "\(predicate.rawValue) needs a value after it, as in: \(Self.example(for: word.word, predicate: predicate))",
                    at: text.count)
            }
            expected = try Self.expected(value.text, at: value.offset)
        } else if let extra = rest {
            throw CheckSyntaxError("\(predicate.rawValue) takes no value; remove \"\(extra.text)\".", at: extra.offset)
        }

        if predicate == .matches, case .string(let pattern)? = expected, let value = rest {
            try Self.validateRegex(pattern, at: value.offset)
        }
        let comparisons: [Predicate] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        if [.status, .duration, .bytes].contains(query), comparisons.contains(predicate), let value = rest {
            guard case .number? = expected else {
                throw CheckSyntaxError(
                    "\(query.text) is a number: compare it with a number, not \"\(value.text)\".", at: value.offset)
            }
        }
        self.init(
            query: query, isNegated: negated, predicate: predicate, expected: expected,
            text: text.trimmingCharacters(in: .whitespaces))
    }

    /// The queries, as the error messages list them.
    static var queryList: String {
        "one of "
            + Query.words.map { entry in entry.argument.map { "\(entry.word) \($0)" } ?? entry.word }.joined(
                separator: ", ")
            + ", or schema alone"
    }

    /// The predicates, as the error messages list them.
    static var predicateList: String {
        "one of " + Predicate.allCases.map(\.rawValue).joined(separator: " ")
    }

    private static func example(for query: String, predicate: Predicate? = nil) -> String {
        let subject =
            switch query {
            case "header": "header Content-Type"
            case "jsonpath": "jsonpath $.id"
            case "xpath": "xpath //title"
            case "regex": #"regex "id=(\d+)""#
            case "cookie": "cookie session"
            default: query
            }
        let shownPredicate = predicate ?? (query == "header" ? .contains : .equal)
        let value: String
        switch (query, shownPredicate) {
        case (_, .matches): value = #""^[a-z]+$""#
        case ("status", _): value = "200"
        case ("duration", _): value = "500"
        case ("bytes", _): value = "10000"
        case ("grpc_status", _): value = "OK"
        case ("header", _): value = "json"
        default: value = "\"expected\""
        }
        return "\(subject) \(shownPredicate.rawValue) \(value)"
    }

    /// Reads the value after a predicate.
    private static func expected(_ text: String, at offset: Int) throws(CheckSyntaxError) -> Expected {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let quote = trimmed.first, quote == "\"" || quote == "'" {
            var tokens = CheckTokens(trimmed)
            guard let token = tokens.next(), token.quoted, tokens.rest == nil else {
                throw CheckSyntaxError(
                    "the value \(trimmed) is not one quoted string; close the quote, or escape a quote inside with \\.",
                    at: offset)
            }
            return .string(token.text)
        }
        switch trimmed {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let number = Double(trimmed), number.isFinite { return .number(number, text: trimmed) }
        return .string(trimmed)
    }

    private static func validateRegex(_ pattern: String, at offset: Int) throws(CheckSyntaxError) {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw CheckSyntaxError("\"\(pattern)\" is not a valid regular expression.", at: offset)
        }
    }
}

/// Splits the text of a check into words: a quoted string is one word (escapes read), and an
/// unquoted word runs to a space outside brackets, parentheses and quotes.
struct CheckTokens {
    /// One word and where it starts.
    struct Token {
        var text: String
        var offset: Int
        var quoted: Bool
    }

    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        characters = Array(text)
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    /// The next word, or `nil` at the end.
    mutating func next() -> Token? {
        skipSpaces()
        guard position < characters.count else { return nil }
        let start = position
        let first = characters[position]
        if first == "\"" || first == "'" {
            var text = ""
            position += 1
            while position < characters.count, characters[position] != first {
                if characters[position] == "\\", position + 1 < characters.count {
                    position += 1
                    let escaped = characters[position]
                    // `\"` and `\\` are read; any other escape stays for a regular expression.
                    if escaped != first && escaped != "\\" { text.append("\\") }
                }
                text.append(characters[position])
                position += 1
            }
            position = min(position + 1, characters.count)
            return Token(text: text, offset: start, quoted: true)
        }
        var depth = 0
        var quote: Character?
        while position < characters.count {
            let character = characters[position]
            if let open = quote {
                if character == "\\" { position += 1 } else if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if "[({".contains(character) {
                depth += 1
            } else if "])}".contains(character) {
                depth = max(0, depth - 1)
            } else if character.isWhitespace && depth == 0 {
                break
            }
            position += 1
        }
        return Token(text: String(characters[start..<min(position, characters.count)]), offset: start, quoted: false)
    }

    /// What is left after the words read so far, trimmed, or `nil` when nothing is.
    var rest: Token? {
        var copy = self
        copy.skipSpaces()
        guard copy.position < characters.count else { return nil }
        let text = String(characters[copy.position...]).trimmingCharacters(in: .whitespaces)
        return Token(text: text, offset: copy.position, quoted: false)
    }
}
