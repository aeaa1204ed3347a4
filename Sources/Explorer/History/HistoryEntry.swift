import Checks
import Foundation
import NetworkingCore
import Workspace

/// One stored exchange: the request as it was sent and the response (or transport error) it got.
///
/// This is what `HistoryStore.record(_:secrets:)` takes and what `HistoryStore.entry(id:)` gives
/// back. Bodies larger than the store's cap come back truncated; `responseBodySize` and
/// `requestBodySize` always hold the full sizes, so `isResponseBodyTruncated` tells the two apart.
package struct HistoryEntry: Sendable, Hashable {
    /// The row id, assigned by the store when the entry is recorded (`nil` before that).
    package var id: Int64?
    /// When the request was sent.
    package var startedAt: Date
    /// The collection file the endpoint came from, if any.
    package var collectionPath: String?
    /// The environment's name, if any.
    package var environment: String?
    /// The endpoint's name (`Folder/Name`), if the request came from a collection.
    package var endpoint: String?
    /// The request method, e.g. `GET`.
    package var method: String
    /// The fully resolved URL.
    package var url: String
    /// The request header fields, secrets masked once stored.
    package var requestHeaders: HTTPHeaders
    /// The request body (possibly truncated to the cap), if any.
    package var requestBody: Data?
    /// The full size of the request body in bytes.
    package var requestBodySize: Int
    /// The response status code, or `nil` when the exchange failed before a response.
    package var status: Int?
    /// The response's reason phrase.
    package var reason: String?
    /// The response header fields.
    package var responseHeaders: HTTPHeaders
    /// The response body (possibly truncated to the cap), if any.
    package var responseBody: Data?
    /// The full size of the response body in bytes.
    package var responseBodySize: Int
    /// The response's `Content-Type`, if any.
    package var contentType: String?
    /// How long the exchange took.
    package var timings: HistoryTimings
    /// The HTTP version of the response, e.g. `HTTP/1.1`.
    package var httpVersion: String?
    /// The transport error's sentence when the exchange failed without a response.
    package var transportError: String?
    /// What the endpoint's assertions and captures found (secret values masked), or `nil`
    /// when it checks nothing.
    package var checks: CheckReport?

    /// Creates an entry; sizes default to those of the bodies given.
    ///
    /// - Parameters:
    ///   - id: the row id; leave `nil` for a new entry.
    ///   - startedAt: when the request was sent.
    ///   - collectionPath: the collection file, if any.
    ///   - environment: the environment's name, if any.
    ///   - endpoint: the endpoint's name, if any.
    ///   - method: the request method.
    ///   - url: the resolved URL.
    ///   - requestHeaders: the request header fields.
    ///   - requestBody: the request body, if any.
    ///   - requestBodySize: the full request body size (default: the size of `requestBody`).
    ///   - status: the status code, `nil` for a transport failure.
    ///   - reason: the reason phrase.
    ///   - responseHeaders: the response header fields.
    ///   - responseBody: the response body, if any.
    ///   - responseBodySize: the full response body size (default: the size of `responseBody`).
    ///   - contentType: the response content type (default: the `Content-Type` response header).
    ///   - timings: the timings.
    ///   - httpVersion: the response's HTTP version.
    ///   - transportError: the transport error's sentence, if the exchange failed.
    package init(
        id: Int64? = nil,
        startedAt: Date = Date(),
        collectionPath: String? = nil,
        environment: String? = nil,
        endpoint: String? = nil,
        method: String,
        url: String,
        requestHeaders: HTTPHeaders = [:],
        requestBody: Data? = nil,
        requestBodySize: Int? = nil,
        status: Int? = nil,
        reason: String? = nil,
        responseHeaders: HTTPHeaders = [:],
        responseBody: Data? = nil,
        responseBodySize: Int? = nil,
        contentType: String? = nil,
        timings: HistoryTimings = HistoryTimings(),
        httpVersion: String? = nil,
        transportError: String? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.collectionPath = collectionPath
        self.environment = environment
        self.endpoint = endpoint
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestBodySize = requestBodySize ?? requestBody?.count ?? 0
        self.status = status
        self.reason = reason
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseBodySize = responseBodySize ?? responseBody?.count ?? 0
        self.contentType = contentType ?? responseHeaders["Content-Type"]
        self.timings = timings
        self.httpVersion = httpVersion
        self.transportError = transportError
    }

    /// The W3C trace id the request carried in its `traceparent` header (`trace:`), or `nil`.
    package var traceID: String? {
        requestHeaders["traceparent"].flatMap { TraceParent(parsing: $0)?.traceID }
    }

    /// Whether the stored response body is shorter than the one received.
    package var isResponseBodyTruncated: Bool { (responseBody?.count ?? 0) < responseBodySize }

    /// Whether the stored request body is shorter than the one sent.
    package var isRequestBodyTruncated: Bool { (requestBody?.count ?? 0) < requestBodySize }

    /// The class of the outcome: `2xx` ... `5xx`, or `error` for a transport failure.
    var statusClass: HistoryStatusClass? { HistoryStatusClass(status: status) }

    /// A one-line summary of this entry, as the list queries return it.
    var summary: HistorySummary {
        HistorySummary(
            id: id ?? 0, startedAt: startedAt, environment: environment, endpoint: endpoint,
            method: method, url: url, status: status, reason: reason,
            responseBodySize: responseBodySize, contentType: contentType,
            totalMilliseconds: timings.totalMilliseconds, transportError: transportError)
    }
}

/// How long an exchange took, in milliseconds.
package struct HistoryTimings: Sendable, Hashable {
    /// From sending the request to the end of the response body (or the failure).
    package var totalMilliseconds: Double
    /// From sending the request to receiving the response head, when known.
    package var headMilliseconds: Double?
    /// The redirects followed before the response, in order (empty when none).
    package var redirects: [HistoryRedirect]

    /// Creates timings.
    ///
    /// - Parameters:
    ///   - totalMilliseconds: the whole exchange.
    ///   - headMilliseconds: until the response head arrived, if known.
    ///   - redirects: the redirects followed before the response.
    package init(totalMilliseconds: Double = 0, headMilliseconds: Double? = nil, redirects: [HistoryRedirect] = []) {
        self.totalMilliseconds = totalMilliseconds
        self.headMilliseconds = headMilliseconds
        self.redirects = redirects
    }
}

/// One redirect of an exchange's chain: the URL that answered, its status, where its
/// `Location` sent the next request, and how long the hop took.
package struct HistoryRedirect: Sendable, Hashable, Codable {
    /// The URL that answered with the redirect.
    package var url: String
    /// The redirect's status, e.g. 302.
    package var status: Int
    /// Its `Location` header, as the server wrote it.
    package var location: String
    /// From the hop's request to the redirect's head, when known.
    package var milliseconds: Double?

    /// Creates a redirect record.
    package init(url: String, status: Int, location: String, milliseconds: Double? = nil) {
        self.url = url
        self.status = status
        self.location = location
        self.milliseconds = milliseconds
    }
}

extension HistoryRedirect {
    /// The chain a transport recorded, as the history keeps it.
    package static func chain(_ redirects: [ResponseTimings.Redirect]) -> [HistoryRedirect] {
        redirects.map {
            HistoryRedirect(
                url: $0.from.absoluteString, status: $0.status.code, location: $0.location,
                milliseconds: $0.duration.map { $0 * 1000 })
        }
    }

    /// A stored chain (a JSON array), or none for `NULL` or text that does not read.
    static func chain(storedJSON text: String?) -> [HistoryRedirect] {
        guard let text, let chain = try? JSONDecoder().decode([HistoryRedirect].self, from: Data(text.utf8)) else {
            return []
        }
        return chain
    }

    /// A chain as stored: a JSON array, or `NULL` when there is none.
    static func storedJSON(_ chain: [HistoryRedirect]) -> String? {
        guard !chain.isEmpty, let data = try? JSONEncoder().encode(chain) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
