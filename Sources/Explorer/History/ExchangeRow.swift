import Checks
import Foundation
import GRDB
import GRDBSQLite
import NetworkingCore
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
            timings: HistoryTimings(
                totalMilliseconds: row["totalMilliseconds"], headMilliseconds: row["headMilliseconds"],
                redirects: HistoryRedirect.chain(storedJSON: row["redirects"])),
            httpVersion: row["httpVersion"],
            transportError: row["transportError"])
        entry.checks = CheckReport(storedJSON: row["checks"])
    }

    /// Inserts the row (the id is assigned by SQLite).
    ///
    /// The bodies are bound in place, not copied into SQLite as GRDB's arguments are (SQLite
    /// reads them while the statement runs): with a 5 MB body, every copy is 5 MB more at the
    /// insert's peak.
    ///
    /// - Parameter db: a database connection inside a write.
    /// - Throws: a `DatabaseError`.
    func insert(into db: Database) throws {
        let request = Self.storedBody(entry.requestBody)
        let response = Self.storedBody(entry.responseBody)
        let statement = try db.makeStatement(
            sql: """
                INSERT INTO exchange (
                    startedAt, collectionPath, environment, endpoint, method, url,
                    requestHeaders, requestBodyText, requestBodyData, requestBodySize,
                    status, reason, responseHeaders, responseBodyText, responseBodyData,
                    responseBodySize, contentType, totalMilliseconds, headMilliseconds,
                    httpVersion, transportError, checks, redirects, traceId)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        // The body parameters (8 and 9, 14 and 15) are bound by `withBody`.
        try statement.setArguments([
            entry.startedAt.timeIntervalSince1970, entry.collectionPath, entry.environment,
            entry.endpoint, entry.method, entry.url,
            Self.json(entry.requestHeaders), nil, nil, entry.requestBodySize,
            entry.status, entry.reason, Self.json(entry.responseHeaders), nil,
            nil, entry.responseBodySize, entry.contentType,
            entry.timings.totalMilliseconds, entry.timings.headMilliseconds,
            entry.httpVersion, entry.transportError, entry.checks?.storedJSON,
            HistoryRedirect.storedJSON(entry.timings.redirects), entry.traceID,
        ])
        try Self.withBody(request, boundTo: statement, textAt: 8, dataAt: 9) {
            try Self.withBody(response, boundTo: statement, textAt: 14, dataAt: 15) {
                try statement.execute()
            }
        }
    }

    /// Runs `run` with a body bound to a statement's text or blob parameter without a copy
    /// (`SQLITE_STATIC`: the bytes are the string's or the data's own, alive until `run`
    /// returns), then binds `NULL` there again so the statement keeps no pointer to them.
    ///
    /// Text is bound NUL-terminated (a stored text body has no NUL inside), so SQLite need not
    /// copy it either to terminate it when the index's triggers read it.
    private static func withBody(
        _ body: (text: String?, data: Data?), boundTo statement: Statement, textAt textIndex: Int32,
        dataAt dataIndex: Int32, _ run: () throws -> Void
    ) throws {
        let handle = statement.sqliteStatement
        if let text = body.text {
            try text.withCString { pointer in
                try check(sqlite3_bind_text(handle, textIndex, pointer, -1, nil), statement)
                defer { sqlite3_bind_null(handle, textIndex) }
                try run()
            }
        } else if let data = body.data {
            try data.withUnsafeBytes { bytes in
                // A zero-length blob needs a non-null pointer to be a blob, not NULL.
                let pointer = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                try check(sqlite3_bind_blob(handle, dataIndex, pointer, Int32(bytes.count), nil), statement)
                defer { sqlite3_bind_null(handle, dataIndex) }
                try run()
            }
        } else {
            try run()
        }
    }

    /// Throws the statement's error when a binding failed (a body over SQLite's size limit).
    private static func check(_ code: Int32, _ statement: Statement) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errstr(code)), sql: statement.sql)
    }

    // MARK: - Bodies

    /// The first `cap` bytes of a body, cut back to the first byte of a character that the cut
    /// would split (at most three bytes), so a text body stays text.
    ///
    /// The result shares the body's bytes: a large body is not copied to be cut.
    static func capped(_ body: Data, to cap: Int) -> Data {
        guard body.count > cap else { return body }
        var end = body.startIndex + max(0, cap)
        var back = 0
        while back < 3, end > body.startIndex, body[end] & 0xC0 == 0x80 {
            end -= 1
            back += 1
        }
        return body[body.startIndex..<end]
    }

    /// A body as a text column when it is UTF-8 text, else as a blob column.
    static func storedBody(_ body: Data?) -> (text: String?, data: Data?) {
        guard let body else { return (nil, nil) }
        if !body.contains(0), let text = String(data: body, encoding: .utf8) {
            // The text is a copy: the pages of a spooled body read to make it can go before
            // SQLite makes its own copy of the row.
            body.withUnsafeBytes { MappedFilePages.release(of: $0, 0..<$0.count) }
            return (text, nil)
        }
        return (nil, body)
    }

    private static func body(text: String?, data: Data?) -> Data? {
        if let text { return Data(text.utf8) }
        return data
    }

    // MARK: - Headers

    private static func json(_ headers: HTTPHeaders) -> String {
        let pairs = headers.map { [$0.name, $0.value] }
        guard let data = try? JSONSerialization.data(withJSONObject: pairs),
            let text = String(data: data, encoding: .utf8)
        else {
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
