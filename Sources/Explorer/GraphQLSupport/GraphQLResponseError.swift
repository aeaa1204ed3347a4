import Foundation
import NetworkingCore

/// One entry of a GraphQL response's `errors` array: the message, the path of the field that
/// failed and where in the document.
///
/// A GraphQL server answers `200 OK` with `errors` when a field fails, so a response with
/// them is an error whatever its status: the TUI's error summary and `send` list them, and
/// `send --check-status` exits 4.
package struct GraphQLResponseError: Sendable, Hashable {
    /// The message.
    package var message: String
    /// The path of the field (`user.posts.0.title`), empty for a request error.
    package var path: [String]
    /// The locations in the document, as `line:column`.
    package var locations: [String]

    /// One line: `user.secretNote (3:5): the message`.
    package var line: String {
        var where_ = path.joined(separator: ".")
        if !locations.isEmpty { where_ += (where_.isEmpty ? "" : " ") + "(\(locations.joined(separator: ", ")))" }
        return where_.isEmpty ? message : "\(where_): \(message)"
    }

    /// The errors of a GraphQL response body: a JSON object of only `data`, `errors` and
    /// `extensions` whose `errors` is a non-empty array of objects with a `message`.
    /// Any other body (a REST API's own `errors`, not JSON) gives none.
    ///
    /// - Parameter body: the response body (at most its first 256 KiB are read).
    package static func errors(in body: Data) -> [GraphQLResponseError] {
        let head = body.prefix(256 * 1024)
        guard head.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{"),
            let value = try? JSONValue(parsing: head),
            let members = value.members,
            members.allSatisfy({ ["data", "errors", "extensions"].contains($0.key) }),
            let errors = value["errors"]?.arrayValue, !errors.isEmpty,
            errors.allSatisfy({ $0["message"]?.stringValue != nil })
        else { return [] }
        return errors.map { error in
            let path =
                error["path"]?.arrayValue?.map { $0.stringValue ?? $0.intValue.map(String.init) ?? $0.description }
                ?? []
            let locations =
                error["locations"]?.arrayValue?.compactMap { location -> String? in
                    guard let line = location["line"]?.intValue, let column = location["column"]?.intValue else {
                        return nil
                    }
                    return "\(line):\(column)"
                } ?? []
            return GraphQLResponseError(message: error["message"]?.stringValue ?? "", path: path, locations: locations)
        }
    }

    /// The lines of an error summary: a count, then each error (at most `limit`).
    package static func summary(of errors: [GraphQLResponseError], limit: Int = 8) -> [String] {
        guard !errors.isEmpty else { return [] }
        var lines = ["GraphQL: \(errors.count) error\(errors.count == 1 ? "" : "s")"]
        lines += errors.prefix(limit).map { "• \($0.line)" }
        if errors.count > limit { lines.append("… and \(errors.count - limit) more") }
        return lines
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
