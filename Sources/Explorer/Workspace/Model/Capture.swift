import Foundation
import NetworkingCore

/// One entry of an endpoint's `capture:`: a variable set from the response, kept for later
/// requests in the same environment.
///
/// ```yaml
/// capture:
///   token: $.token                                 # shorthand for { jsonpath: $.token }
///   request_id: { header: X-Request-Id }
///   order: { regex: "order-(\\d+)", from: body }   # the first group
///   code: { status: true }
///   session: { cookie: session, secret: true }     # masked wherever it is shown
/// ```
package struct Capture: Sendable, Codable, Hashable {
    /// Where the value is read.
    package enum Source: Sendable, Codable, Hashable {
        /// What a JSONPath selects in a JSON body (a string as is, anything else as JSON).
        case jsonpath(String)
        /// The text of the first node an XPath (the subset of `XPath`) selects in an XML or
        /// HTML body, or the number `count(…)` gives.
        case xpath(String)
        /// A response header.
        case header(String)
        /// The first group of a regular expression in the body, or in the headers (one
        /// `Name: value` line each).
        case regex(String, inHeaders: Bool)
        /// The status code.
        case status
        /// A cookie the response sets.
        case cookie(String)
        /// The whole body as text.
        case body
    }

    /// The variable's name.
    package var name: String
    /// Where its value is read.
    package var source: Source
    /// Whether the value is masked on screen and in history (`secret: true`).
    package var isSecret: Bool
    /// Where it is written, when it came from a file. Not part of equality.
    var location: FileLocation?

    /// Creates a capture.
    package init(name: String, source: Source, isSecret: Bool = false) {
        self.name = name
        self.source = source
        self.isSecret = isSecret
    }

    package static func == (lhs: Capture, rhs: Capture) -> Bool {
        lhs.name == rhs.name && lhs.source == rhs.source && lhs.isSecret == rhs.isSecret
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(source)
    }

    /// The keys a capture's mapping may have.
    static let keys = ["jsonpath", "xpath", "header", "regex", "from", "status", "cookie", "body", "secret"]

    /// The source as the shorthand or mapping it is written as, for messages.
    package var sourceText: String {
        switch source {
        case .jsonpath(let expression): "jsonpath \(expression)"
        case .xpath(let expression): "xpath \(expression)"
        case .header(let name): "header \(name)"
        case .regex(let pattern, let inHeaders): "regex \(pattern) in the \(inHeaders ? "headers" : "body")"
        case .status: "status"
        case .cookie(let name): "cookie \(name)"
        case .body: "body"
        }
    }
}
