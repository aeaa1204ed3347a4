import Foundation
import Query

/// A collection's `compare:`: what `explorer compare` leaves out when it puts the responses of
/// two environments side by side, because it differs on every exchange (an id of the request,
/// a date, a timing header).
///
/// ```yaml
/// compare:
///   ignore: [$.requestId, "$.items[*].updatedAt", header Date, header X-Request-Id]
/// ```
///
/// A rule is a JSONPath query (RFC 9535, starting with `$`), whose matches are left out of the
/// body's comparison with everything below them, or `header NAME`, a response header left out
/// (names compared without case).
package struct CompareRules: Sendable, Codable, Hashable {
    /// One rule of `ignore:`.
    package enum IgnoreRule: Sendable, Codable, Hashable, CustomStringConvertible {
        /// The body's nodes this query selects, and what they hold.
        case path(String)
        /// A response header, by name.
        case header(String)

        /// Reads a rule as the collection writes it: `$...` or `header NAME`.
        ///
        /// - Parameter text: the rule.
        /// - Throws: a sentence saying what is wrong (the loader adds the file and line).
        package init(parsing text: String) throws(Problem) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("$") {
                do {
                    _ = try JSONPath(strict: trimmed)
                } catch {
                    throw Problem(
                        description:
                            "\"\(trimmed)\" is not a JSONPath query (RFC 9535): \(JSONPath.failure(error).description)")
                }
                self = .path(trimmed)
                return
            }
            let words = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if words.count == 2, words[0].lowercased() == "header" {
                let name = words[1].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, !name.contains(where: { $0 == ":" || $0.isWhitespace }) {
                    self = .header(name)
                    return
                }
            }
            throw Problem(
                description:
                    "\"\(trimmed)\" is neither a JSONPath query starting with $ (such as $.requestId) nor \"header NAME\" (such as header Date)"
            )
        }

        /// The rule as the collection writes it.
        package var description: String {
            switch self {
            case .path(let query): query
            case .header(let name): "header \(name)"
            }
        }
    }

    /// Why a rule cannot be read, in one sentence.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The rules, in the order written.
    package var ignore: [IgnoreRule]

    /// Rules (none by default: everything is compared).
    package init(ignore: [IgnoreRule] = []) {
        self.ignore = ignore
    }

    /// The JSONPath queries, parsed (each was checked when the rule was read).
    package var ignoredPaths: [JSONPath] {
        ignore.compactMap { rule in
            guard case .path(let query) = rule else { return nil }
            return try? JSONPath(strict: query)
        }
    }

    /// The header names left out, lowercased.
    package var ignoredHeaders: Set<String> {
        Set(
            ignore.compactMap { rule in
                guard case .header(let name) = rule else { return nil }
                return name.lowercased()
            })
    }

    /// Whether there is no rule.
    package var isEmpty: Bool { ignore.isEmpty }
}
