import Foundation
import Workspace

/// One request and its response as a report shows them: secrets already masked (as history
/// masks them), bodies as text cut to `ReportedExchange.bodyLimit` with their whole size kept.
///
/// The CLI builds it from the exchange it records; the reports never see an unmasked value.
package struct ReportedExchange: Sendable, Hashable {
    /// One header field, in the order it was sent or received.
    package struct Header: Sendable, Hashable {
        /// The field name.
        package var name: String
        /// The field value (a credential's masked).
        package var value: String

        /// Creates a field.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The most bytes of a body a report keeps; past them the body is cut and its size said.
    package static let bodyLimit = 16_384

    /// The request method.
    package var method: String
    /// The URL sent to.
    package var url: String
    /// When the request was sent.
    package var startedAt: Date
    /// The request's header fields.
    package var requestHeaders: [Header]
    /// The request body as text (cut), a note for a binary one, or `nil` when there was none.
    package var requestBody: String?
    /// The request body's whole size in bytes.
    package var requestBodySize: Int
    /// The reason phrase, when a response came.
    package var reason: String?
    /// The response's header fields.
    package var responseHeaders: [Header]
    /// The response body as text (cut), a note for a binary one, or `nil` when there was none.
    package var responseBody: String?
    /// The response body's whole size in bytes.
    package var responseBodySize: Int
    /// The time from sending to the last byte, in milliseconds.
    package var totalMilliseconds: Double
    /// The time from sending to the response's head, in milliseconds, when known.
    package var headMilliseconds: Double?
    /// The W3C trace id the request carried in its `traceparent` header, when it had one.
    package var traceID: String?

    /// Creates an exchange as a report shows it; the trace id is read from the request's
    /// `traceparent` header.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - url: the URL, masked.
    ///   - startedAt: when it was sent.
    ///   - requestHeaders: the request's fields, masked.
    ///   - requestBody: the request body as kept (masked), or `nil`.
    ///   - requestBodySize: its whole size.
    ///   - reason: the reason phrase.
    ///   - responseHeaders: the response's fields, masked.
    ///   - responseBody: the response body as kept (masked), or `nil`.
    ///   - responseBodySize: its whole size.
    ///   - totalMilliseconds: the whole exchange's time.
    ///   - headMilliseconds: the time to the head.
    ///   - keepsBodies: whether the bodies are kept (a report shows those of the requests that
    ///     did not pass; the others' are dropped to keep a long run's report small).
    package init(
        method: String, url: String, startedAt: Date, requestHeaders: [Header], requestBody: Data?,
        requestBodySize: Int, reason: String?, responseHeaders: [Header], responseBody: Data?, responseBodySize: Int,
        totalMilliseconds: Double, headMilliseconds: Double?, keepsBodies: Bool = true
    ) {
        self.method = method
        self.url = url
        self.startedAt = startedAt
        self.requestHeaders = requestHeaders
        self.requestBody = keepsBodies ? requestBody.map { Self.text(of: $0, size: requestBodySize) } : nil
        self.requestBodySize = requestBodySize
        self.reason = reason
        self.responseHeaders = responseHeaders
        self.responseBody = keepsBodies ? responseBody.map { Self.text(of: $0, size: responseBodySize) } : nil
        self.responseBodySize = responseBodySize
        self.totalMilliseconds = totalMilliseconds
        self.headMilliseconds = headMilliseconds
        traceID = requestHeaders.first { $0.name.lowercased() == "traceparent" }.flatMap {
            TraceParent(parsing: $0.value)?.traceID
        }
    }

    /// A body as a report shows it: its text up to `bodyLimit` bytes (cut on a character), and
    /// a line saying how much there was when it was cut; a binary body as a note of its size.
    ///
    /// - Parameters:
    ///   - body: the bytes kept.
    ///   - size: the whole body's size (more than `body` when history's cap cut it already).
    static func text(of body: Data, size: Int) -> String {
        let kept = body.prefix(bodyLimit)
        var end = kept.endIndex
        var text = String(data: kept, encoding: .utf8)
        // A cut body may end inside a character: back off up to three bytes to its start.
        while text == nil, kept.count < body.count, end > kept.startIndex, kept.endIndex - end < 3 {
            end -= 1
            text = String(data: kept[kept.startIndex..<end], encoding: .utf8)
        }
        guard let text else { return "(a binary body of \(size) bytes)" }
        let keptBytes = end - kept.startIndex
        return keptBytes < size ? text + "\n… cut: \(keptBytes) of \(size) bytes shown" : text
    }
}
