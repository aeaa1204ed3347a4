import Foundation

/// One line of the history list: an exchange without its headers and bodies.
///
/// List queries return summaries so that a page of 50 never loads 50 bodies; the full entry
/// comes from `HistoryStore.entry(id:)`.
package struct HistorySummary: Sendable, Hashable, Identifiable {
    /// The row id.
    package var id: Int64
    /// When the request was sent.
    package var startedAt: Date
    /// The environment's name, if any.
    package var environment: String?
    /// The endpoint's name, if any.
    package var endpoint: String?
    /// The request method.
    package var method: String
    /// The resolved URL.
    package var url: String
    /// The status code, or `nil` for a transport failure.
    package var status: Int?
    /// The reason phrase.
    package var reason: String?
    /// The full size of the response body in bytes.
    package var responseBodySize: Int
    /// The response content type, if any.
    package var contentType: String?
    /// The whole exchange's duration in milliseconds.
    package var totalMilliseconds: Double
    /// The transport error's sentence, if the exchange failed.
    package var transportError: String?

    /// The class of the outcome: `2xx` ... `5xx`, or `error` for a transport failure.
    var statusClass: HistoryStatusClass? { HistoryStatusClass(status: status) }
}
