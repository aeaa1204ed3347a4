import Checks
import Foundation
import NetworkingCore
import Workspace

/// One request sent from the explorer and what became of it, as the response pane shows it.
package struct Exchange: Sendable, Identifiable {
    /// Where the exchange is.
    enum Phase: Sendable {
        /// Sent; `bytes` of the body have arrived so far.
        case inFlight(bytes: Int)
        /// A response arrived (any status).
        case received(ResponseSnapshot)
        /// No response: the transport failed.
        case failed(TransportFailure)
        /// The user cancelled it.
        case cancelled
    }

    package let id: Int
    /// The endpoint's `Folder/Name`, when it came from the collection.
    let endpointID: String?
    let environment: String?
    var method: String
    /// The URL as sent, secrets masked.
    var url: String
    /// The request headers as sent, secrets masked.
    var requestHeaders: HTTPHeaders
    /// The request body as text (secrets masked), if any.
    var requestBody: String?
    let startedAt: Date
    var phase: Phase
    /// The history row it was stored as, once stored.
    var historyID: Int64?
    /// Whether it is a stored exchange opened from History (a preview, dropped when another
    /// row is previewed) rather than one sent in this session.
    var isHistoryPreview = false
    /// The response's status and headers, as soon as they arrive (before the body).
    var head: ResponseHead?
    /// What has arrived of the body while it streams, and what was kept when it stopped at
    /// a limit or a cut: shown until (or instead of) the complete response.
    var partial: ResponseSnapshot?
    /// What the endpoint's assertions and captures found in the response, once checked.
    var checks: CheckReport?
    /// The secrets of the request (and those its response's captures found), masked wherever
    /// the response is shown. Empty for a stored exchange: history keeps it masked already.
    var masker = SecretMasker()

    var isInFlight: Bool {
        if case .inFlight = phase { return true }
        return false
    }

    /// Shows the request as resolved for sending.
    mutating func show(_ preview: RequestPreview) {
        method = preview.method.rawValue
        url = preview.urlText
        requestHeaders = preview.headers
        requestBody = preview.body
        masker = preview.masker
    }

    /// The response to show: the complete one, or what has arrived of it.
    var response: ResponseSnapshot? {
        if case .received(let response) = phase { return response }
        return partial
    }
}

/// A received response, prepared for display.
package struct ResponseSnapshot: Sendable {
    let status: Int
    let reason: String
    let headers: HTTPHeaders
    let httpVersion: String
    let document: BodyDocument
    /// Milliseconds until the head arrived, when known.
    let headMilliseconds: Double?
    let totalMilliseconds: Double
    /// The redirects followed, as "302 → URL" lines.
    let redirects: [String]
    /// A one-line reading of an error body: problem+json title/detail/instance, an HTML
    /// page's text, or nil for 2xx/3xx.
    let errorSummary: [String]
}

/// Why an exchange got no response, in the words a person needs: the category and a hint.
package struct TransportFailure: Sendable, Hashable {
    let category: String
    let message: String
    let hint: String?
}
