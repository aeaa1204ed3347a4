import Foundation
import NetworkingCore
import Query
import Workspace

/// One side of a comparison: what one environment answered for an endpoint.
package struct ComparedExchange: Sendable, Hashable {
    /// The environment's name.
    package var environment: String
    /// The request method.
    package var method: String
    /// The URL sent to, secrets masked.
    package var url: String
    /// The status, or `nil` when no response came.
    package var status: Int?
    /// The reason phrase.
    package var reason: String?
    /// The response header fields.
    package var headers: HTTPHeaders
    /// The response body.
    package var body: Data
    /// From the request's start to the body's last byte, in milliseconds.
    package var milliseconds: Double
    /// Why no response came, when none did.
    package var failure: String?

    /// One side.
    package init(
        environment: String, method: String, url: String, status: Int?, reason: String? = nil,
        headers: HTTPHeaders = [:], body: Data = Data(), milliseconds: Double = 0, failure: String? = nil
    ) {
        self.environment = environment
        self.method = method
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.milliseconds = milliseconds
        self.failure = failure
    }

    /// `200 OK`, or why no response came.
    package var statusLine: String {
        guard let status else { return failure ?? "no response" }
        return "\(status) \(reason ?? "")".trimmingCharacters(in: .whitespaces)
    }
}

/// A response header that differs between the two sides.
package struct HeaderDifference: Sendable, Hashable {
    /// The name, as the first side spells it (else the second).
    package var name: String
    /// The first side's value (repeated fields joined with `, `), or `nil` when it has none.
    package var first: String?
    /// The second side's value, or `nil`.
    package var second: String?
}

/// How two bodies differ.
package enum BodyDifference: Sendable, Hashable {
    /// The same bytes, or the same JSON document once the ignored nodes are left out.
    case same
    /// Two JSON documents, compared structurally.
    case json(JSONDiff.Result)
    /// Two texts (at least one not JSON) that differ first at a line (1-based).
    case text(line: Int, first: String?, second: String?)
    /// Bodies compared as bytes only (binary, or past the structural limit).
    case bytes(firstSize: Int, secondSize: Int)

    /// Whether the bodies count as the same.
    package var isSame: Bool {
        switch self {
        case .same: true
        case .json(let result): result.isSame
        case .text, .bytes: false
        }
    }
}

/// Two environments' responses to one endpoint, compared: status, headers (minus those the
/// rules ignore), body (structurally when both are JSON) and timing (shown, never a
/// difference: two servers never answer in the same time).
package struct ResponseComparison: Sendable, Hashable {
    /// The first environment's exchange.
    package var first: ComparedExchange
    /// The second environment's exchange.
    package var second: ComparedExchange
    /// Whether the statuses differ (or one side got no response).
    package var statusDiffers: Bool
    /// The headers that differ, by name in the first side's order, then those only the second has.
    package var headers: [HeaderDifference]
    /// How the bodies differ.
    package var body: BodyDifference

    /// The largest body compared structurally, in bytes; larger bodies are compared as bytes.
    package static let structuralLimit = 16 * 1024 * 1024

    /// Whether the two responses match: same status, same headers, same body, rules applied.
    package var matches: Bool { !statusDiffers && headers.isEmpty && body.isSame }

    /// Compares two exchanges under a collection's rules.
    ///
    /// - Parameters:
    ///   - first: the first environment's exchange.
    ///   - second: the second's.
    ///   - rules: what to leave out (`compare: { ignore: [...] }`).
    ///   - limit: the most body differences listed.
    package init(
        _ first: ComparedExchange, _ second: ComparedExchange, rules: CompareRules = CompareRules(),
        limit: Int = JSONDiff.defaultLimit
    ) {
        self.first = first
        self.second = second
        statusDiffers = first.status == nil || second.status == nil || first.status != second.status
        headers = Self.headerDifferences(first.headers, second.headers, ignoring: rules.ignoredHeaders)
        if first.status == nil || second.status == nil {
            body = .same
        } else {
            body = Self.bodyDifference(
                first.body, second.body, diff: JSONDiff(ignoring: rules.ignoredPaths, limit: limit))
        }
    }

    /// The header fields that differ, names compared without case, repeated fields joined.
    static func headerDifferences(_ first: HTTPHeaders, _ second: HTTPHeaders, ignoring ignored: Set<String>)
        -> [HeaderDifference]
    {
        func grouped(_ headers: HTTPHeaders) -> (names: [String], values: [String: (name: String, value: String)]) {
            var names: [String] = []
            var values: [String: (name: String, value: String)] = [:]
            for field in headers {
                let key = field.name.lowercased()
                guard !ignored.contains(key) else { continue }
                if let existing = values[key] {
                    values[key] = (existing.name, existing.value + ", " + field.value)
                } else {
                    names.append(key)
                    values[key] = (field.name, field.value)
                }
            }
            return (names, values)
        }
        let (firstNames, firstValues) = grouped(first)
        let (secondNames, secondValues) = grouped(second)
        var differences: [HeaderDifference] = []
        for key in firstNames {
            let mine = firstValues[key]!
            let theirs = secondValues[key]
            if theirs?.value != mine.value {
                differences.append(HeaderDifference(name: mine.name, first: mine.value, second: theirs?.value))
            }
        }
        for key in secondNames where firstValues[key] == nil {
            let theirs = secondValues[key]!
            differences.append(HeaderDifference(name: theirs.name, first: nil, second: theirs.value))
        }
        return differences
    }

    /// How two bodies differ: structurally when both are JSON (and within the limit), else by
    /// their first differing line when both are text, else by bytes.
    static func bodyDifference(_ first: Data, _ second: Data, diff: JSONDiff) -> BodyDifference {
        let bothSmall = first.count <= structuralLimit && second.count <= structuralLimit
        if bothSmall, !first.isEmpty, !second.isEmpty,
            let a = try? JSONValue(parsing: first), let b = try? JSONValue(parsing: second)
        {
            let result = diff.compare(a, b)
            return result.isSame ? .same : .json(result)
        }
        if first == second { return .same }
        guard bothSmall, let a = String(data: first, encoding: .utf8), let b = String(data: second, encoding: .utf8)
        else {
            return .bytes(firstSize: first.count, secondSize: second.count)
        }
        let firstLines = a.split(separator: "\n", omittingEmptySubsequences: false)
        let secondLines = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(firstLines.count, secondLines.count) {
            let x = index < firstLines.count ? String(firstLines[index]) : nil
            let y = index < secondLines.count ? String(secondLines[index]) : nil
            if x != y { return .text(line: index + 1, first: x, second: y) }
        }
        return .bytes(firstSize: first.count, secondSize: second.count)
    }
}
