import Foundation
import NetworkingCore
import Query
import Workspace

/// Hurl's captures, asserts and templates in a collection's words.
enum HurlCheckText {
    /// Hurl's built-in values as explorer's: `{{newUuid}}` → `{{uuid}}`, `{{newDate}}` →
    /// `{{now}}`, `{{getEnv "X"}}` → `{{env.X}}`.
    static func converted(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        return Template.rewritingVariables(in: text) { name in
            switch name {
            case "newUuid": return "{{uuid}}"
            case "newDate": return "{{now}}"
            default:
                let words = name.split(separator: " ", maxSplits: 1)
                if words.first == "getEnv", words.count == 2 {
                    return "{{env.\(words[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))}}"
                }
                return "{{\(name)}}"
            }
        }
    }

    /// The variables an endpoint's request uses.
    static func variables(of endpoint: Endpoint) -> Set<String> {
        var texts = [endpoint.path] + endpoint.query.flatMap { [$0.name, $0.value] } + endpoint.headers.map(\.value)
        switch endpoint.body {
        case .raw(let text)?: texts.append(text)
        case .json(let value)?: texts.append(value.serialized(pretty: false))
        case .form(let fields)?: texts += fields.map(\.value)
        case .multipart(let fields)?: texts += fields.map(\.value)
        case .file?, nil: break
        }
        if case .basic(let user, let password)? = endpoint.auth?.scheme { texts += [user, password] }
        if case .digest(let user, let password)? = endpoint.auth?.scheme { texts += [user, password] }
        return Set(texts.flatMap { Template($0).variableNames })
    }

    // MARK: - Tokens

    /// One word of a capture or assert line.
    enum Token: Equatable {
        /// A `"quoted"` string, its escapes read.
        case quoted(String)
        /// A `/regex/`.
        case regex(String)
        /// Anything else, as written.
        case word(String)

        var text: String {
            switch self {
            case .quoted(let text), .regex(let text), .word(let text): text
            }
        }
    }

    /// The words of a line; `nil` when a string does not end.
    static func tokens(_ line: String) -> [Token]? {
        var tokens: [Token] = []
        var rest = Substring(line)
        while let first = rest.first {
            if first == " " || first == "\t" {
                rest = rest.dropFirst()
                continue
            }
            if first == "\"" || (first == "/" && tokens.last.map(isRegexPosition) == true) {
                let close: Character = first
                var value = ""
                var index = rest.index(after: rest.startIndex)
                var closed = false
                while index < rest.endIndex {
                    let character = rest[index]
                    if character == "\\" {
                        let next = rest.index(after: index)
                        guard next < rest.endIndex else { return nil }
                        let escaped = rest[next]
                        if close == "/" {
                            value += escaped == "/" ? "/" : "\\\(escaped)"
                        } else {
                            switch escaped {
                            case "n": value += "\n"
                            case "t": value += "\t"
                            case "r": value += "\r"
                            case "u":
                                guard let brace = rest[next...].firstIndex(of: "}"),
                                    let code = UInt32(rest[rest.index(next, offsetBy: 2)..<brace], radix: 16),
                                    let scalar = Unicode.Scalar(code)
                                else { return nil }
                                value.append(Character(scalar))
                                index = rest.index(after: brace)
                                continue
                            default: value.append(escaped)
                            }
                        }
                        index = rest.index(after: next)
                        continue
                    }
                    if character == close {
                        closed = true
                        break
                    }
                    value.append(character)
                    index = rest.index(after: index)
                }
                guard closed else { return nil }
                tokens.append(close == "/" ? .regex(value) : .quoted(value))
                rest = rest[rest.index(after: index)...]
                continue
            }
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            tokens.append(.word(String(word)))
            rest = rest.dropFirst(word.count)
        }
        return tokens
    }

    /// A `/` starts a regex after a query word that takes one, or a predicate.
    private static func isRegexPosition(_ previous: Token) -> Bool {
        ["regex", "matches"].contains(previous.text)
    }

    /// A query with its argument, from the start of the tokens; `nil` when the collection has none like it.
    private static func query(_ tokens: [Token]) -> (Assertion.Query, taken: Int)? {
        guard case .word(let word)? = tokens.first else { return nil }
        let argument = tokens.count > 1 ? tokens[1] : nil
        switch word {
        case "status": return (.status, 1)
        case "body": return (.body, 1)
        case "duration": return (.duration, 1)
        case "bytes": return (.bytes, 1)
        case "header": if case .quoted(let name)? = argument { return (.header(name), 2) }
        // An expression the collection cannot read as written (`$.errors[{{index}}]`: Hurl expands
        // variables in it first) is no query here: the line is kept, not a file that does not load.
        case "jsonpath":
            if case .quoted(let path)? = argument, (try? JSONPath(path)) != nil { return (.jsonpath(path), 2) }
        case "xpath": if case .quoted(let path)? = argument, (try? XPath(path)) != nil { return (.xpath(path), 2) }
        case "regex":
            switch argument {
            case .quoted(let pattern)?, .regex(let pattern)?:
                // Rust's syntax (`(?P<name>…)`) is not always ICU's.
                if (try? NSRegularExpression(pattern: pattern)) != nil { return (.regex(pattern), 2) }
            default: break
            }
        case "cookie":
            // A cookie's attributes (`name[Path]`) are not a query of the collection.
            if case .quoted(let name)? = argument, !name.contains("[") { return (.cookie(name), 2) }
        default: break
        }
        return nil
    }

    // MARK: - Captures and asserts

    /// A `[Captures]` line's value as a capture; `nil` when it uses a filter or a query the
    /// collection has not.
    static func capture(name: String, _ value: String) -> Capture? {
        guard var tokens = tokens(value) else { return nil }
        var secret = false
        if tokens.last == .word("redact") {
            secret = true
            tokens.removeLast()
        }
        guard let (query, taken) = query(tokens), taken == tokens.count else { return nil }
        let source: Capture.Source
        switch query {
        case .status: source = .status
        case .body: source = .body
        case .header(let header): source = .header(header)
        case .jsonpath(let path): source = .jsonpath(path)
        case .xpath(let path): source = .xpath(path)
        case .regex(let pattern): source = .regex(pattern, inHeaders: false)
        case .cookie(let cookie): source = .cookie(cookie)
        case .duration, .bytes, .schema, .grpcStatus: return nil
        }
        return Capture(name: name, source: source, isSecret: secret)
    }

    /// An `[Asserts]` line as an assertion; `nil` when it uses a filter, a query or a predicate
    /// the collection has not.
    static func assertion(_ line: String) -> Assertion? {
        guard let tokens = tokens(line), let (query, taken) = query(tokens) else { return nil }
        var rest = tokens.dropFirst(taken)
        var negated = false
        if rest.first == .word("not") {
            negated = true
            rest = rest.dropFirst()
        }
        guard case .word(let word)? = rest.first, let predicate = Assertion.Predicate(rawValue: word) else {
            return nil
        }
        rest = rest.dropFirst()
        var expected: Assertion.Expected?
        if predicate.takesValue {
            guard rest.count == 1, let value = rest.first else { return nil }
            switch value {
            case .quoted(let text): expected = .string(text)
            case .regex(let pattern): expected = predicate == .matches ? .string(pattern) : nil
            case .word("true"): expected = .bool(true)
            case .word("false"): expected = .bool(false)
            case .word("null"): expected = .null
            case .word(let text) where text.hasPrefix("{{") && text.hasSuffix("}}"): expected = .string(text)
            case .word(let text):
                guard let number = Double(text) else { return nil }
                expected = .number(number, text: text)
            }
            guard expected != nil else { return nil }
        } else if !rest.isEmpty {
            return nil
        }
        let assertion = written(query, isNegated: negated, predicate: predicate, expected: expected)
        // What the collection file cannot read back (a `matches` pattern in Rust's syntax) stays a line.
        return Assertion.reads(assertion.text) ? assertion : nil
    }

    /// An assertion with the text the collection file writes for it: an argument quoted
    /// unless it is one plain word, a string value always quoted, so the loader reads the
    /// text back as the same parts.
    static func written(
        _ query: Assertion.Query, isNegated: Bool = false, predicate: Assertion.Predicate, expected: Assertion.Expected?
    ) -> Assertion {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        func argument(_ text: String) -> String {
            !text.isEmpty && text.allSatisfy({ $0.isLetter || $0.isNumber || "-_.$@*".contains($0) })
                ? text : quoted(text)
        }
        let subject: String =
            switch query {
            case .header(let name): "header \(argument(name))"
            case .jsonpath(let path): "jsonpath \(argument(path))"
            case .xpath(let path): "xpath \(argument(path))"
            case .regex(let pattern): "regex \(argument(pattern))"
            case .cookie(let name): "cookie \(argument(name))"
            default: query.text
            }
        var words = [subject]
        if isNegated { words.append("not") }
        words.append(predicate.rawValue)
        switch expected {
        case .string(let text)?: words.append(quoted(text))
        case let other?: words.append(other.text)
        case nil: break
        }
        return Assertion(
            query: query, isNegated: isNegated, predicate: predicate, expected: expected,
            text: words.joined(separator: " "))
    }
}
