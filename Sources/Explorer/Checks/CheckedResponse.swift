import Foundation
import NetworkingCore
import Query

/// What captures and assertions read from one exchange: the status, the headers, the body and
/// how long it took. Built by whoever sent the request (the CLI, the TUI, the runner).
package struct CheckedResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The response headers.
    package var headers: HTTPHeaders
    /// The body, decompressed.
    package var body: Data
    /// The time from sending to the last byte, in milliseconds.
    package var durationMilliseconds: Double
    /// A gRPC call's status name (`OK`, `NOT_FOUND`); `nil` for HTTP.
    package var grpcStatus: String?

    /// Creates the facts of one exchange.
    package init(status: Int, headers: HTTPHeaders, body: Data, durationMilliseconds: Double) {
        self.status = status
        self.headers = headers
        self.body = body
        self.durationMilliseconds = durationMilliseconds
    }

    /// The body as text, in its charset (UTF-8 when it names none), or `nil` when it is binary.
    var text: String? {
        TextDecoding.text(body, contentType: headers["Content-Type"])
    }

    /// The value of a cookie set by the response, from its `Set-Cookie` fields (the last wins).
    func cookie(named name: String) -> String? {
        var found: String?
        for field in headers.values(for: "Set-Cookie") {
            let pair = field.split(separator: ";", maxSplits: 1).first.map(String.init) ?? field
            guard let equals = pair.firstIndex(of: "=") else { continue }
            if pair[..<equals].trimmingCharacters(in: .whitespaces) == name {
                found = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return found
    }

    /// The body read as JSON, members in order and numbers as written.
    ///
    /// - Throws: `CheckFailure` when it is not JSON.
    func json() throws(CheckFailure) -> JSONValue {
        guard let value = try? JSONValue(parsing: body) else {
            let type = headers["Content-Type"].map { " (\($0))" } ?? ""
            throw CheckFailure("the body\(type) is not JSON")
        }
        return value
    }

    /// What a JSONPath expression selects: the one value of a definite path, `nil` when it
    /// selects nothing, and the list of matches for a path with a wildcard, slice, filter or
    /// descent.
    ///
    /// - Throws: `CheckFailure` when the body is not JSON, the expression is invalid, or the
    ///   query passed its node or time limit (`EvaluationLimits`).
    func select(_ expression: String, limits: EvaluationLimits = .current) throws(CheckFailure) -> JSONValue? {
        let path: JSONPath
        do {
            path = try JSONPath(expression)
        } catch {
            throw CheckFailure("the JSONPath \(expression) is not valid: \(error)")
        }
        let document = try json()
        let matches: [JSONValue]
        do {
            matches = try path.evaluate(document, limits: limits)
        } catch {
            // A query stopped at its node or time limit: an error naming it, never no match.
            throw CheckFailure(error.limit?.description ?? error.description)
        }
        if path.isIndefinite { return .array(matches) }
        return matches.first
    }

    /// What an expression of the XPath subset selects in an XML or HTML body: `count(…)` as a
    /// number, one node as its text, several as a list of texts, none as `nil`.
    ///
    /// - Throws: `CheckFailure` for an expression outside the subset, a binary body, or one
    ///   with no element.
    func selectXPath(_ expression: String) throws(CheckFailure) -> JSONValue? {
        let path: XPath
        do {
            path = try XPath(expression)
        } catch {
            throw CheckFailure("the XPath \(expression) is not valid: \(error)")
        }
        guard let text else { throw CheckFailure("the body is binary (\(body.count) bytes), not XML or HTML") }
        let document: MarkupDocument
        do {
            let contentType = headers["Content-Type"]?.lowercased() ?? ""
            document = try MarkupDocument(
                text, html: contentType.contains("html") ? true : contentType.contains("xml") ? false : nil)
        } catch {
            throw CheckFailure("\(error)")
        }
        switch path.evaluate(document) {
        case .count(let count): return JSONValue(count)
        case .values(let values):
            return values.count > 1 ? .array(values.map(JSONValue.string)) : values.first.map(JSONValue.string)
        }
    }

    /// The first group of a regular expression's first match in `text` (the whole match
    /// when it has no group), or `nil` when it does not match.
    ///
    /// - Throws: `CheckFailure` for an invalid pattern, or one that ran past
    ///   `EvaluationLimits.regexSeconds` or that the engine gave up on (never taken as no match).
    static func firstMatch(of pattern: String, in text: String, limits: EvaluationLimits = .current)
        throws(CheckFailure) -> String?
    {
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw CheckFailure("\"\(pattern)\" is not a valid regular expression")
        }
        let found: NSTextCheckingResult?
        do {
            found = try regex.firstMatch(in: text, within: limits.regexSeconds)
        } catch {
            throw CheckFailure(error.description)
        }
        guard let match = found else { return nil }
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard let found = Range(group, in: text) else { return "" }
        return String(text[found])
    }
}

/// Why a query, a capture or an assertion could not be evaluated on a response.
package struct CheckFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, a phrase starting in lower case (it follows the check's text).
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
