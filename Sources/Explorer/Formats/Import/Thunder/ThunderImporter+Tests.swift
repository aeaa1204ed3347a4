import Foundation
import NetworkingCore
import Query
import Workspace

extension ThunderImporter.Walker {
    /// A request's `tests` as assertions and captures: `res-code`, `res-body`, `json-query`,
    /// `Content-Type`, `Content-Length`, `res-time`, `header`/`custom-header` and `cookie`
    /// with the actions that have a predicate, and `set-env-var` (from `json.…`, `header.…`,
    /// `cookie.…` or the body) as captures. The others are named in the summary.
    mutating func tests(_ value: JSONValue?, into endpoint: inout Endpoint, address: String) {
        for test in value?.arrayValue ?? [] {
            guard case .object = test, test["isDisabled"]?.boolValue != true else { continue }
            let type = ThunderImporter.text(test["type"]) ?? ""
            let custom = ThunderImporter.text(test["custom"]) ?? ""
            let action = ThunderImporter.text(test["action"]) ?? ""
            let expected = ThunderImporter.text(test["value"]) ?? ""
            if type == "set-env-var" {
                if let capture = Self.capture(source: custom, into: expected) {
                    endpoint.captures.append(capture)
                } else {
                    unmappedTests.append("\"\(address)\": set-env-var \(custom) to \(expected)")
                }
                continue
            }
            let query: Assertion.Query?
            switch type {
            case "res-code": query = .status
            case "res-body": query = .body
            case "res-time": query = .duration
            case "Content-Type", "Content-Length", "Content-Encoding": query = .header(type)
            case "header", "custom-header": query = custom.isEmpty ? nil : .header(custom)
            case "cookie": query = custom.isEmpty ? nil : .cookie(custom)
            case "json-query": query = Self.jsonPath(custom).map { .jsonpath($0) }
            default: query = nil
            }
            guard let query, let assertion = Self.assertion(query, action: action, value: expected) else {
                unmappedTests.append(
                    "\"\(address)\": \([type, custom, action, expected].filter { !$0.isEmpty }.joined(separator: " "))")
                continue
            }
            endpoint.assertions.append(assertion)
        }
    }

    /// Thunder's `json.data.items[0].id` (or `json.` for the whole body) as a JSONPath, when valid.
    static func jsonPath(_ custom: String) -> String? {
        guard custom.hasPrefix("json") else { return nil }
        var rest = custom.dropFirst(4)
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        let expression = rest.isEmpty ? "$" : (rest.hasPrefix("[") ? "$" + rest : "$." + rest)
        return (try? JSONPath(expression)) != nil ? expression : nil
    }

    /// A `set-env-var` test as a capture: the variable is the `{{name}}` of its value.
    static func capture(source: String, into target: String) -> Capture? {
        let trimmed = target.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}") else { return nil }
        var name = String(trimmed.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("#") { return nil }
        // Thunder's {{name, local}} and {{name | filter}} keep the name first.
        if let end = name.firstIndex(where: { $0 == "," || $0 == "|" }) {
            name = name[..<end].trimmingCharacters(in: .whitespaces)
        }
        guard !name.isEmpty else { return nil }
        if source.hasPrefix("header.") { return Capture(name: name, source: .header(String(source.dropFirst(7)))) }
        if source.hasPrefix("cookie.") { return Capture(name: name, source: .cookie(String(source.dropFirst(7)))) }
        if source == "text" || source == "body" { return Capture(name: name, source: .body) }
        if let path = jsonPath(source) { return Capture(name: name, source: path == "$" ? .body : .jsonpath(path)) }
        return nil
    }

    /// One test as an assertion, when its action has a predicate.
    static func assertion(_ query: Assertion.Query, action: String, value: String) -> Assertion? {
        let predicates: [String: (Assertion.Predicate, Bool)] = [
            "equal": (.equal, false), "notequal": (.notEqual, false), "contains": (.contains, false),
            "notcontains": (.contains, true), "<": (.less, false), "<=": (.lessOrEqual, false),
            ">": (.greater, false), ">=": (.greaterOrEqual, false), "regex": (.matches, false),
            "startswith": (.startsWith, false), "endswith": (.endsWith, false),
        ]
        if action == "istype" || action == "type" {
            let types: [String: Assertion.Predicate] = [
                "string": .isString, "number": .isNumber, "boolean": .isBoolean, "array": .isCollection,
                "object": .isCollection, "integer": .isInteger,
            ]
            guard let predicate = types[value.lowercased()] else { return nil }
            return Assertion(query: query, predicate: predicate)
        }
        if action == "exists" { return Assertion(query: query, predicate: .exists) }
        guard let (predicate, negated) = predicates[action.lowercased()] else { return nil }
        return Assertion(query: query, isNegated: negated, predicate: predicate, expected: expected(value, for: query))
    }

    /// The expected value as what it reads as: a number, a boolean, null, else text (the
    /// status, a duration and a length always numbers).
    static func expected(_ text: String, for query: Assertion.Query) -> Assertion.Expected {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Double(trimmed), !trimmed.isEmpty, trimmed.allSatisfy({ $0.isNumber || "-.eE+".contains($0) }) {
            return .number(number, text: trimmed)
        }
        switch query {
        case .jsonpath:
            if trimmed == "true" || trimmed == "false" { return .bool(trimmed == "true") }
            if trimmed == "null" { return .null }
        default: break
        }
        return .string(text)
    }
}
