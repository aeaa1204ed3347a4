import Foundation
import GRDB
import Networking
import Workspace

/// An exchange as the `exchange` table stores it: headers as JSON, each body either as text
/// (valid UTF-8 without NUL, searchable) or as a blob, capped, with its full size beside it.
struct ExchangeRow: Sendable {
    /// The stored entry (bodies already capped).
    var entry: HistoryEntry

    /// Prepares an entry for storage, capping its bodies.
    ///
    /// - Parameters:
    ///   - entry: the exchange, secrets already masked.
    ///   - bodyCap: the most bytes of a body to keep.
    init(_ entry: HistoryEntry, bodyCap: Int) {
        var entry = entry
        entry.requestBody = entry.requestBody.map { Self.capped($0, to: bodyCap) }
        entry.responseBody = entry.responseBody.map { Self.capped($0, to: bodyCap) }
        self.entry = entry
    }

    /// Reads a stored row back.
    ///
    /// - Parameter row: a row of `SELECT * FROM exchange`.
    init(row: Row) {
        entry = HistoryEntry(
            id: row["id"],
            startedAt: Date(timeIntervalSince1970: row["startedAt"]),
            collectionPath: row["collectionPath"],
            environment: row["environment"],
            endpoint: row["endpoint"],
            method: row["method"],
            url: row["url"],
            requestHeaders: Self.headers(fromJSON: row["requestHeaders"]),
            requestBody: Self.body(text: row["requestBodyText"], data: row["requestBodyData"]),
            requestBodySize: row["requestBodySize"],
            status: row["status"],
            reason: row["reason"],
            responseHeaders: Self.headers(fromJSON: row["responseHeaders"]),
            responseBody: Self.body(text: row["responseBodyText"], data: row["responseBodyData"]),
            responseBodySize: row["responseBodySize"],
            contentType: row["contentType"],
            timings: HistoryTimings(totalMilliseconds: row["totalMilliseconds"], headMilliseconds: row["headMilliseconds"]),
            httpVersion: row["httpVersion"],
            transportError: row["transportError"])
        entry.checks = CheckReport(storedJSON: row["checks"])
    }

    /// Inserts the row (the id is assigned by SQLite).
    ///
    /// - Parameter db: a database connection inside a write.
    /// - Throws: a `DatabaseError`.
    func insert(into db: Database) throws {
        let request = Self.storedBody(entry.requestBody)
        let response = Self.storedBody(entry.responseBody)
        try db.execute(
            sql: """
                INSERT INTO exchange (
                    startedAt, collectionPath, environment, endpoint, method, url,
                    requestHeaders, requestBodyText, requestBodyData, requestBodySize,
                    status, reason, responseHeaders, responseBodyText, responseBodyData,
                    responseBodySize, contentType, totalMilliseconds, headMilliseconds,
                    httpVersion, transportError, checks)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.startedAt.timeIntervalSince1970, entry.collectionPath, entry.environment,
                entry.endpoint, entry.method, entry.url,
                Self.json(entry.requestHeaders), request.text, request.data, entry.requestBodySize,
                entry.status, entry.reason, Self.json(entry.responseHeaders), response.text,
                response.data, entry.responseBodySize, entry.contentType,
                entry.timings.totalMilliseconds, entry.timings.headMilliseconds,
                entry.httpVersion, entry.transportError, entry.checks?.storedJSON,
            ])
    }

    // MARK: - Bodies

    /// The first `cap` bytes of a body, cut back to a whole UTF-8 character when the body is text.
    static func capped(_ body: Data, to cap: Int) -> Data {
        guard body.count > cap else { return body }
        var prefix = Data(body.prefix(max(0, cap)))
        // A cut through a multi-byte character would turn a text body into a binary one.
        var trimmed = 0
        while trimmed < 3, !prefix.isEmpty, String(data: prefix, encoding: .utf8) == nil {
            prefix.removeLast()
            trimmed += 1
        }
        return String(data: prefix, encoding: .utf8) == nil ? Data(body.prefix(max(0, cap))) : prefix
    }

    /// A body as a text column when it is UTF-8 text, else as a blob column.
    static func storedBody(_ body: Data?) -> (text: String?, data: Data?) {
        guard let body else { return (nil, nil) }
        if !body.contains(0), let text = String(data: body, encoding: .utf8) { return (text, nil) }
        return (nil, body)
    }

    private static func body(text: String?, data: Data?) -> Data? {
        if let text { return Data(text.utf8) }
        return data
    }

    // MARK: - Headers

    private static func json(_ headers: HTTPHeaders) -> String {
        let pairs = headers.map { [$0.name, $0.value] }
        guard let data = try? JSONSerialization.data(withJSONObject: pairs), let text = String(data: data, encoding: .utf8) else {
            return "[]"
        }
        return text
    }

    private static func headers(fromJSON text: String?) -> HTTPHeaders {
        guard let data = text?.data(using: .utf8),
              let pairs = try? JSONSerialization.jsonObject(with: data) as? [[String]]
        else { return [:] }
        return HTTPHeaders(pairs.compactMap { $0.count == 2 ? HTTPHeaders.Field(name: $0[0], value: $0[1]) : nil })
    }
}
