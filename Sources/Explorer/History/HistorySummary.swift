import Foundation

/// One line of the history list: an exchange without its headers and bodies.
///
/// List queries return summaries so that a page of 50 never loads 50 bodies; the full entry
/// comes from `HistoryStore.entry(id:)`.
struct HistorySummary: Sendable, Hashable, Identifiable {
    /// The row id.
    var id: Int64
    /// When the request was sent.
    var startedAt: Date
    /// The environment's name, if any.
    var environment: String?
    /// The endpoint's name, if any.
    var endpoint: String?
    /// The request method.
    var method: String
    /// The resolved URL.
    var url: String
    /// The status code, or `nil` for a transport failure.
    var status: Int?
    /// The reason phrase.
    var reason: String?
    /// The full size of the response body in bytes.
    var responseBodySize: Int
    /// The response content type, if any.
    var contentType: String?
    /// The whole exchange's duration in milliseconds.
    var totalMilliseconds: Double
    /// The transport error's sentence, if the exchange failed.
    var transportError: String?

    /// The class of the outcome: `2xx` ... `5xx`, or `error` for a transport failure.
    var statusClass: HistoryStatusClass? { HistoryStatusClass(status: status) }
}
