import Foundation
import NetworkingCore

/// What a response does not say of itself and a person should know: a redirect that was not
/// followed because of where it points (it is the response), a body in a content coding the
/// explorer cannot decode (shown as received, compressed). `explorer send` prints them on
/// stderr; the TUI shows them above the body.
package enum ResponseNotes {
    /// The content codings the transport decodes; a body in any other is shown as received.
    package static let decodedContentCodings: Set<String> = ["gzip", "x-gzip", "deflate", "identity"]

    /// The notes a response calls for, each one sentence.
    ///
    /// - Parameters:
    ///   - status: the response's status.
    ///   - headers: its headers.
    ///   - url: the URL that answered (after the redirects followed), secrets masked.
    ///   - followsRedirects: whether redirects were being followed (a redirect is otherwise
    ///     the answer asked for).
    ///   - hasBody: whether a body came (or is coming).
    /// - Returns: the sentences, in the order they are shown.
    package static func notes(
        status: HTTPStatus, headers: HTTPHeaders, url: URL?, followsRedirects: Bool, hasBody: Bool
    ) -> [String] {
        var notes: [String] = []
        if followsRedirects, let url, let unfollowed = UnfollowedRedirect(status: status, headers: headers, url: url) {
            notes.append(unfollowed.description)
        }
        if hasBody, let coding = undecodedContentCoding(headers["Content-Encoding"]) {
            notes.append(
                "The body is \(coding)-encoded and explorer cannot decode it (it decodes gzip and deflate); shown as received."
            )
        }
        return notes
    }

    /// The first content coding of a `Content-Encoding` value the transport does not decode
    /// (`br`, `zstd` …), or `nil`.
    package static func undecodedContentCoding(_ contentEncoding: String?) -> String? {
        (contentEncoding ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .first { !$0.isEmpty && !decodedContentCodings.contains($0) }
    }
}
