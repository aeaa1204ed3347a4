import Foundation
import Networking
import Workspace

extension HistoryEntry {
    /// A new entry for a resolved request about to be sent: secrets masked, no response yet.
    package init(sending resolved: ResolvedRequest, startedAt: Date, collectionPath: String?) {
        let masked = resolved.masked
        self.init(
            startedAt: startedAt, collectionPath: collectionPath, environment: resolved.environment.name,
            endpoint: resolved.endpoint.id, method: resolved.request.method.rawValue, url: resolved.maskedURL,
            requestHeaders: masked.headers, requestBody: masked.httpBody,
            requestBodySize: resolved.request.httpBody?.count)
    }

    /// Fills in the response: status, headers, body, timings.
    package mutating func fill(
        status: HTTPStatus, headers: HTTPHeaders, body: Data?, httpVersion: String, timings: ResponseTimings
    ) {
        self.status = status.code
        reason = status.reasonPhrase
        responseHeaders = headers
        responseBody = body
        responseBodySize = body?.count ?? 0
        contentType = headers["Content-Type"]
        self.httpVersion = httpVersion
        self.timings = HistoryTimings(
            totalMilliseconds: (timings.total ?? Date().timeIntervalSince(timings.started)) * 1000,
            headMilliseconds: timings.timeToHead.map { $0 * 1000 })
    }

    /// Fills in the response from a dispatcher's response.
    package mutating func fill(_ response: Response<Data?>) {
        fill(status: response.statusCode, headers: response.headers, body: response.body,
             httpVersion: response.httpVersion, timings: response.timings)
    }

    /// Marks the exchange failed without a response.
    package mutating func fail(_ sentence: String, started: Date) {
        transportError = sentence
        timings = HistoryTimings(totalMilliseconds: Date().timeIntervalSince(started) * 1000)
    }
}
