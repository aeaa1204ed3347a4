import Foundation
import NetworkingCore
import Workspace

extension BrunoRequestMapper {
    /// Bruno's operators as explorer's predicates (`not` first when negated).
    static let predicates: [String: String] = [
        "eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "contains": "contains",
        "notContains": "not contains", "startsWith": "startsWith", "endsWith": "endsWith", "matches": "matches",
        "notMatches": "not matches", "isEmpty": "isEmpty", "isNotEmpty": "not isEmpty", "isDefined": "exists",
        "isUndefined": "not exists", "isNull": "== null", "isNumber": "isNumber", "isString": "isString",
        "isBoolean": "isBoolean",
    ]

    /// Every operator Bruno knows (those without a predicate above are reported).
    static let operators: Set<String> = Set(predicates.keys).union([
        "in", "notIn", "length", "between", "isJson", "isTruthy", "isFalsy", "isArray", "isNotNull",
    ])

    /// The request's post-response variables (and those of the folders and collection around,
    /// which Bruno runs after every request) as captures, and its assertions as assertions.
    mutating func checks(
        _ request: LooseObject, scope: BrunoCollection.Scope, id: String, into endpoint: inout Endpoint
    ) {
        for variable in scope.captures + enabled(request.object("vars")?.objects("res") ?? []) {
            guard let name = variable.text("name"), !name.isEmpty else { continue }
            let expression = variable.text("value") ?? ""
            guard let query = Self.query(expression), let source = Self.captureSource(query) else {
                report.checks.append("\"\(id)\" \(name): \(expression)")
                continue
            }
            endpoint.captures.removeAll { $0.name == name }
            endpoint.captures.append(Capture(name: name, source: source))
        }
        for assertion in enabled(request.objects("assertions")) {
            let name = assertion.text("name") ?? ""
            let value = (assertion.text("value") ?? "").trimmingCharacters(in: .whitespaces)
            if let mapped = Self.assertion(name: name, value: value) {
                endpoint.assertions.append(mapped)
            } else {
                report.checks.append("\"\(id)\" \(name): \(value)")
            }
        }
    }

    /// Bruno's `res.…` expression as an explorer query, or `nil` when it has none.
    static func query(_ expression: String) -> Assertion.Query? {
        var text = expression.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("$") { text.removeFirst() }
        if text.hasPrefix("res.") {
            text = String(text.dropFirst(4))
        } else if text.hasPrefix("res[") {
            text = String(text.dropFirst(3))
        } else {
            return nil
        }
        switch text {
        case "status": return .status
        case "body": return .body
        case "responseTime": return .duration
        default: break
        }
        if text.hasPrefix("body.") || text.hasPrefix("body[") {
            let path = "$" + text.dropFirst(4)
            return path.contains(" ") || path.contains("(") ? nil : .jsonpath(path)
        }
        if text.hasPrefix("headers.") {
            let name = String(text.dropFirst(8))
            return name.isEmpty || name.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" })
                ? nil : .header(name)
        }
        if text.hasPrefix("headers["), text.hasSuffix("]") {
            var name = text.dropFirst(8).dropLast()
            if let quote = name.first, quote == "'" || quote == "\"", name.last == quote, name.count >= 2 {
                name = name.dropFirst().dropLast()
            }
            return name.isEmpty ? nil : .header(String(name))
        }
        return nil
    }

    /// The capture that reads what a query reads.
    static func captureSource(_ query: Assertion.Query) -> Capture.Source? {
        switch query {
        case .status: return .status
        case .body: return .body
        case .jsonpath(let path): return .jsonpath(path)
        case .header(let name): return .header(name)
        default: return nil
        }
    }

    /// `res.status: eq 200` as `status == 200`, or `nil` when it has no explorer equivalent.
    static func assertion(name: String, value: String) -> Assertion? {
        guard let query = query(name) else { return nil }
        var operatorName = "eq"
        var operand = value
        let firstWord = value.prefix { !$0.isWhitespace }
        if operators.contains(String(firstWord)) {
            operatorName = String(firstWord)
            operand = value.dropFirst(firstWord.count).trimmingCharacters(in: .whitespaces)
        }
        guard let words = predicates[operatorName] else { return nil }
        let isNegated = words.hasPrefix("not ")
        let parts = words.split(separator: " ").map(String.init)
        guard let predicate = Assertion.Predicate(rawValue: isNegated ? parts[1] : parts[0]) else { return nil }
        var expected: Assertion.Expected?
        var expectedText: String?
        if parts.last == "null" {
            expected = .null
            expectedText = "null"
        } else if predicate.takesValue {
            guard !operand.isEmpty else { return nil }
            guard let (value, text) = Self.expected(operand) else { return nil }
            (expected, expectedText) = (value, text)
        }
        let text = ([query.text, isNegated ? "not" : nil, predicate.rawValue, expectedText].compactMap { $0 })
            .joined(separator: " ")
        let assertion = Assertion(
            query: query, isNegated: isNegated, predicate: predicate, expected: expected, text: text)
        return Assertion.reads(text) ? assertion : nil
    }

    /// A Bruno operand as an expected value and the text that reads back as it: a number,
    /// `true`, `false`, `null`, a quoted string, or else the text as it is.
    static func expected(_ operand: String) -> (Assertion.Expected, String)? {
        if let number = Double(operand), operand.first.map({ $0.isNumber || $0 == "-" }) == true {
            return (.number(number, text: operand), operand)
        }
        switch operand {
        case "true": return (.bool(true), operand)
        case "false": return (.bool(false), operand)
        case "null": return (.null, operand)
        default: break
        }
        var string = operand
        if operand.count >= 2, let quote = operand.first, quote == "\"" || quote == "'", operand.last == quote {
            // A JavaScript string literal, its escapes read.
            var unescaped = ""
            var escaping = false
            let escapes: [Character: Character] = ["n": "\n", "t": "\t", "r": "\r"]
            for character in operand.dropFirst().dropLast() {
                if escaping {
                    unescaped.append(escapes[character] ?? character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else {
                    unescaped.append(character)
                }
            }
            // A line break or tab cannot be written in an assertion's one line.
            if unescaped.contains(where: { $0.isNewline || $0 == "\t" }) { return nil }
            string = unescaped
        }
        let plain =
            Double(string) == nil && !["true", "false", "null"].contains(string) && !string.isEmpty
            && string.first.map({ $0 != "\"" && $0 != "'" && !$0.isWhitespace }) == true
            && string.last.map({ !$0.isWhitespace }) == true && !string.contains("\\")
        if plain { return (.string(string), string) }
        let escaped = string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return (.string(string), "\"" + escaped + "\"")
    }
}
