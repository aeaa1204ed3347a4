import Foundation
import NetworkingCore
import Query
import Workspace

/// The outcome of one assertion on one response.
package struct AssertionResult: Sendable, Hashable {
    /// The assertion as written.
    package var text: String
    /// Whether it held.
    package var passed: Bool
    /// The value the query found, as JSON text (strings quoted), cut to 200 characters;
    /// `nil` when the query found nothing.
    package var actual: String?
    /// Why it failed (`nil` when it passed).
    package var reason: String?
    /// What was expected: the predicate and its value, variables expanded (`== 200`,
    /// `not contains "error"`); `nil` when not known (a schema check).
    package var expected: String?

    /// Creates a result.
    package init(text: String, passed: Bool, actual: String?, reason: String?, expected: String? = nil) {
        self.text = text
        self.passed = passed
        self.actual = actual
        self.reason = reason
        self.expected = expected
    }

    /// One line for a terminal: `✓ status == 200` or `✗ status == 200: expected 200, got 404`.
    package var line: String {
        passed ? "✓ \(text)" : "✗ \(text): \(reason ?? "failed")"
    }
}

extension Assertion {
    /// Checks the assertion against a response.
    ///
    /// - Parameters:
    ///   - response: what came back.
    ///   - expand: expands `{{variables}}` in a string value (identity when not given).
    ///   - limits: how long a regular expression may search (`matches`, `regex`) and how much a
    ///     JSONPath may select; past a limit the assertion fails with a sentence naming it,
    ///     whether or not it is negated.
    /// - Returns: the result, with the actual value and why it failed.
    package func check(
        _ response: CheckedResponse, expand: (String) throws -> String = { $0 },
        limits: EvaluationLimits = .current
    ) -> AssertionResult {
        var result = evaluate(response, expand: expand, limits: limits)
        var expected = self.expected
        if case .string(let template)? = expected { expected = (try? expand(template)).map(Expected.string) }
        result.expected =
            (isNegated ? "not " : "") + predicate.rawValue + (expected.map { " " + Self.render($0) } ?? "")
        return result
    }

    /// The check without its expected value (`check` adds it).
    private func evaluate(
        _ response: CheckedResponse, expand: (String) throws -> String, limits: EvaluationLimits
    ) -> AssertionResult {
        let actual: JSONValue?
        do {
            actual = try value(in: response, limits: limits)
        } catch {
            return AssertionResult(text: text, passed: false, actual: nil, reason: error.description)
        }
        let shown = actual.map(Self.render)
        var expected = self.expected
        if case .string(let template)? = expected {
            do {
                expected = .string(try expand(template))
            } catch {
                return AssertionResult(
                    text: text, passed: false, actual: shown, reason: "its value cannot be resolved: \(error)")
            }
        }
        let outcome: (holds: Bool, detail: String?)
        do {
            outcome = try Self.judge(actual, predicate, expected, limits: limits)
        } catch {
            // The judgement could not be made (a regular expression that ran out of time):
            // the assertion fails, negated or not.
            return AssertionResult(text: text, passed: false, actual: shown, reason: error.description)
        }
        let passed = isNegated ? !outcome.holds : outcome.holds
        guard !passed else { return AssertionResult(text: text, passed: true, actual: shown, reason: nil) }
        return AssertionResult(
            text: text, passed: false, actual: shown,
            reason: failureReason(actual: actual, shown: shown, expected: expected, detail: outcome.detail))
    }

    /// The value the query reads, as JSON (a header or the body as a string, the status as a
    /// number): `nil` when there is none (a missing header, no match).
    ///
    /// - Throws: `CheckFailure` when the response cannot be read that way (a body that is
    ///   not JSON for `jsonpath`, a binary body for `body`).
    func value(in response: CheckedResponse, limits: EvaluationLimits = .current) throws(CheckFailure) -> JSONValue? {
        switch query {
        case .schema:
            // Endpoint.check judges it with the collection's document (`SchemaCheck`).
            throw CheckFailure("the collection names no openapi: document to check the response against")
        case .status:
            return JSONValue(response.status)
        case .header(let name):
            let values = response.headers.values(for: name)
            return values.isEmpty ? nil : .string(values.joined(separator: ", "))
        case .jsonpath(let expression):
            return try response.select(expression, limits: limits)
        case .xpath(let expression):
            return try response.selectXPath(expression)
        case .body:
            guard let text = response.text else {
                throw CheckFailure("the body is binary (\(response.body.count) bytes), not text")
            }
            return .string(text)
        case .regex(let pattern):
            guard let text = response.text else {
                throw CheckFailure("the body is binary (\(response.body.count) bytes), not text")
            }
            return try CheckedResponse.firstMatch(of: pattern, in: text, limits: limits).map(JSONValue.string)
        case .duration:
            return JSONValue((response.durationMilliseconds * 10).rounded() / 10)
        case .bytes:
            return JSONValue(response.body.count)
        case .cookie(let name):
            return response.cookie(named: name).map(JSONValue.string)
        case .grpcStatus:
            guard let status = response.grpcStatus else {
                throw CheckFailure("grpc_status is for gRPC calls; this response is HTTP")
            }
            return .string(status)
        }
    }

    private func failureReason(actual: JSONValue?, shown: String?, expected: Expected?, detail: String?) -> String {
        if let detail { return detail }
        guard let shown else {
            return isNegated
                ? "expected nothing, and nothing was found" : "\(Self.subject(query)) \(Self.missing(query))"
        }
        let want = expected.map { " \(Self.render($0))" } ?? ""
        let verb = isNegated ? "not \(predicate.rawValue)" : predicate.rawValue
        return "expected \(verb)\(want), got \(shown)"
    }

    private static func subject(_ query: Query) -> String {
        switch query {
        case .header(let name): "the header \(name)"
        case .cookie(let name): "the cookie \(name)"
        case .jsonpath(let expression): "the JSONPath \(expression)"
        case .xpath(let expression): "the XPath \(expression)"
        case .regex(let pattern): "the regex \(pattern)"
        default: query.text
        }
    }

    private static func missing(_ query: Query) -> String {
        switch query {
        case .header, .cookie: "is missing"
        case .jsonpath, .xpath: "selects nothing"
        case .regex: "does not match the body"
        default: "has no value"
        }
    }

    // MARK: - Judging

    /// Whether the predicate holds for the value, with a reason when it could not be applied.
    ///
    /// - Throws: `CheckFailure` when `matches` passed its time limit or the regular expression
    ///   engine gave up: neither is an answer, so a negated assertion must not pass on it.
    private static func judge(
        _ actual: JSONValue?, _ predicate: Predicate, _ expected: Expected?,
        limits: EvaluationLimits
    ) throws(CheckFailure) -> (holds: Bool, detail: String?) {
        if predicate == .exists { return (actual != nil, nil) }
        guard let actual else { return (false, nil) }
        switch predicate {
        case .exists:
            return (true, nil)
        case .isEmpty:
            switch actual {
            case .string(let string): return (string.isEmpty, nil)
            case .array(let elements): return (elements.isEmpty, nil)
            case .object(let members): return (members.isEmpty, nil)
            default: return (false, nil)
            }
        case .isInteger:
            guard case .number = actual, let number = number(actual) else { return (false, nil) }
            return (number.rounded() == number, nil)
        case .isNumber:
            if case .number = actual { return (true, nil) }
            return (false, nil)
        case .isString:
            return (actual.stringValue != nil, nil)
        case .isBoolean:
            return (actual.boolValue != nil, nil)
        case .isCollection:
            return (actual.arrayValue != nil || actual.members != nil, nil)
        case .equal, .notEqual:
            let same = equal(actual, expected ?? .null)
            return (predicate == .equal ? same : !same, nil)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let expected else { return (false, nil) }
            guard let order = compare(actual, expected) else {
                return (
                    false,
                    "\(render(actual)) and \(render(expected)) cannot be ordered (compare numbers with numbers, "
                        + "text with text)"
                )
            }
            switch predicate {
            case .less: return (order == .orderedAscending, nil)
            case .lessOrEqual: return (order != .orderedDescending, nil)
            case .greater: return (order == .orderedDescending, nil)
            default: return (order != .orderedAscending, nil)
            }
        case .contains, .includes:
            guard let expected else { return (false, nil) }
            if case .array(let elements) = actual { return (elements.contains { equal($0, expected) }, nil) }
            if case .string(let string) = actual { return (string.contains(expected.text), nil) }
            return (false, "\(render(actual)) is neither text nor a list")
        case .startsWith, .endsWith:
            guard let string = text(actual), let expected else { return (false, "\(render(actual)) is not text") }
            return (predicate == .startsWith ? string.hasPrefix(expected.text) : string.hasSuffix(expected.text), nil)
        case .matches:
            guard let string = text(actual), let expected else { return (false, "\(render(actual)) is not text") }
            guard let regex = try? NSRegularExpression(pattern: expected.text) else {
                return (false, "\"\(expected.text)\" is not a valid regular expression")
            }
            do {
                return (try regex.firstMatch(in: string, within: limits.regexSeconds) != nil, nil)
            } catch {
                throw CheckFailure(error.description)
            }
        }
    }

    /// A number, or text that reads as one.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let text): return Double(text)
        case .string(let string): return Double(string.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// Text from a string, or a number's or a boolean's spelling.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    private static func equal(_ actual: JSONValue, _ expected: Expected) -> Bool {
        switch expected {
        case .null:
            return actual == .null
        case .bool(let flag):
            if case .bool(let value) = actual { return value == flag }
            return actual.stringValue == (flag ? "true" : "false")
        case .number(let wanted, _):
            return number(actual) == wanted
        case .string(let wanted):
            if case .string(let string) = actual { return string == wanted }
            if let number = number(actual), let wantedNumber = Double(wanted) { return number == wantedNumber }
            return render(actual) == wanted
        }
    }

    private static func compare(_ actual: JSONValue, _ expected: Expected) -> ComparisonResult? {
        switch expected {
        case .number(let wanted, _):
            guard let number = number(actual) else { return nil }
            return number < wanted ? .orderedAscending : (number > wanted ? .orderedDescending : .orderedSame)
        case .string(let wanted):
            // A number against text that reads as one (a `{{variable}}` holding a count, as `==`
            // takes it): compared as numbers.
            if case .number = actual, let number = number(actual),
                let wantedNumber = Double(wanted.trimmingCharacters(in: .whitespaces))
            {
                return number < wantedNumber
                    ? .orderedAscending : (number > wantedNumber ? .orderedDescending : .orderedSame)
            }
            guard case .string(let string) = actual else { return nil }
            return string < wanted ? .orderedAscending : (string > wanted ? .orderedDescending : .orderedSame)
        case .bool, .null:
            return nil
        }
    }

    // MARK: - Showing values

    /// A value as compact JSON text (strings quoted, numbers as the body spells them), cut to
    /// 200 characters.
    static func render(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }

    private static func render(_ expected: Expected) -> String {
        switch expected {
        case .string(let string): JSONValue.quote(string)
        default: expected.text
        }
    }
}
