import NetworkingCore
import Query
import Workspace

extension Capture {
    /// Reads the value from a response.
    ///
    /// - Returns: the value as text.
    /// - Throws: `CheckFailure` when the response has no such value.
    package func value(in response: CheckedResponse) throws(CheckFailure) -> String {
        switch source {
        case .status:
            return String(response.status)
        case .header(let name):
            let values = response.headers.values(for: name)
            guard !values.isEmpty else { throw CheckFailure("the response has no header \(name)") }
            return values.joined(separator: ", ")
        case .cookie(let name):
            guard let value = response.cookie(named: name) else {
                throw CheckFailure("the response sets no cookie \(name)")
            }
            return value
        case .body:
            guard let text = response.text else { throw CheckFailure("the body is binary, not text") }
            return text
        case .regex(let pattern, let inHeaders):
            let subject: String
            if inHeaders {
                subject = response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            } else {
                guard let text = response.text else { throw CheckFailure("the body is binary, not text") }
                subject = text
            }
            guard let found = try CheckedResponse.firstMatch(of: pattern, in: subject) else {
                throw CheckFailure("the regex \(pattern) does not match the \(inHeaders ? "headers" : "body")")
            }
            return found
        case .xpath(let expression):
            switch try response.selectXPath(expression) {
            case .number(let count)?: return count
            case .string(let text)?: return text
            case .array(let texts)? where !texts.isEmpty: return texts[0].stringValue ?? ""
            default: throw CheckFailure("the XPath \(expression) selects nothing")
            }
        case .jsonpath(let expression):
            switch try response.select(expression) {
            case nil, .array([])?: throw CheckFailure("the JSONPath \(expression) selects nothing")
            case .string(let string)?: return string
            case .null?: return ""
            case let selected?: return selected.serialized()
            }
        }
    }
}
