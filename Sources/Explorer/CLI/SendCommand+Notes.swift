import App
import Foundation
import History
import NetworkingCore

/// Notes on standard error for a response that would otherwise not say what happened to it
/// (`ResponseNotes`): a redirect that was not followed because of where it points, and a body
/// in a content coding the explorer cannot decode (printed as received, compressed).
extension ExchangeSender {
    /// The notes an exchange calls for, each one sentence starting "Note: ".
    ///
    /// - Parameters:
    ///   - entry: the exchange, its response filled in (URLs masked).
    ///   - bodyToCome: whether the body is still to arrive (streamed): then a body is looked
    ///     for from the method and status, not from its size.
    /// - Returns: the notes, in the order they are printed.
    func notes(for entry: HistoryEntry, bodyToCome: Bool = false) -> [String] {
        guard let code = entry.status else { return [] }
        let hasBody = bodyToCome ? entry.method != "HEAD" && ![204, 304].contains(code) : entry.responseBodySize > 0
        return ResponseNotes.notes(
            status: HTTPStatus(code: code), headers: entry.responseHeaders, url: Self.answeringURL(of: entry),
            followsRedirects: followsRedirects, hasBody: hasBody
        )
        .map { "Note: " + $0.prefix(1).lowercased() + $0.dropFirst() }
    }

    /// Prints an exchange's notes on standard error.
    func printNotes(for entry: HistoryEntry, bodyToCome: Bool = false) {
        for note in notes(for: entry, bodyToCome: bodyToCome) { printError(note) }
    }

    /// The URL whose answer the entry holds: the last redirect's target, else the request's.
    private static func answeringURL(of entry: HistoryEntry) -> URL? {
        guard let last = entry.timings.redirects.last else { return URL(string: entry.url) }
        return URL(string: last.location, relativeTo: URL(string: last.url))?.absoluteURL
    }
}
