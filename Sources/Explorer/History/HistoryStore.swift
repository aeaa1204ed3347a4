import Foundation
import GRDB
import NetworkingCore
import Workspace

/// The exchange history, kept in an SQLite file (WAL mode) through GRDB.
///
/// Open one per process with `HistoryStore(fileURL:configuration:)`; it is safe to use from any
/// thread and from several processes at once (writers wait for each other; nothing is lost).
/// Opening creates or upgrades the schema, prunes by the retention rules, and moves an
/// unreadable file aside to `history.sqlite.corrupt-<time>` (then `recoveryNotice` says so).
/// The history is the user's alone: its folder is `0700` and its files (the database, its
/// `-wal`, `-shm` and lock files, a file moved aside) `0600`, tightened when they exist with
/// wider modes (`privacyNotices` says what could not be tightened). An existing folder is
/// tightened only when it is the explorer's own (named `explorer`, as the XDG state folder
/// is): a history placed in a folder the user keeps for other things (`bench --database`)
/// leaves that folder as it is, its files being private anyway.
///
/// ```swift
/// let store = try HistoryStore(fileURL: HistoryLocation.defaultFile())
/// let id = try store.record(entry, secrets: ["s3cr3t"])
/// let page = try store.summaries(matching: HistoryQuery(statusClass: .clientError))
/// let full = try store.entry(id: id)
/// ```
package final class HistoryStore: Sendable {
    /// The history file.
    let fileURL: URL
    /// The body cap and retention rules.
    let configuration: HistoryConfiguration
    /// Set when opening found an unreadable file and moved it aside: one sentence saying where.
    package let recoveryNotice: String?
    /// One sentence per folder or file of the history that other users can read and that could
    /// not be made private (owned by another account, a read-only file system …).
    package let privacyNotices: [String]

    /// Everything opening found worth telling the user: the recovery, then the privacy notices.
    package var notices: [String] { [recoveryNotice].compactMap { $0 } + privacyNotices }

    private let pool: DatabasePool

    // MARK: - Opening

    /// Opens (or creates) the history file, upgrades its schema and prunes old exchanges.
    ///
    /// - Parameters:
    ///   - fileURL: the SQLite file; its folder is created if needed.
    ///   - configuration: the body cap and retention (default: 5 MB, newest 10,000).
    ///   - now: the current time, for age-based retention.
    /// - Throws: `HistoryError.cannotOpen` when no usable file can be opened or created.
    package init(fileURL: URL, configuration: HistoryConfiguration = .default, now: Date = Date()) throws {
        self.fileURL = fileURL
        self.configuration = configuration
        let path = fileURL.path
        var privacy: [String] = []
        do {
            let folder = fileURL.deletingLastPathComponent()
            let isOwnFolder = folder.lastPathComponent == XDGDirectories.applicationFolder
            if let notice = try PrivateFiles.prepareDirectory(at: folder, tighteningExisting: isOwnFolder) {
                privacy.append(notice)
            }
        } catch {
            throw HistoryError.cannotOpen(path: path, reason: Self.reason(error))
        }
        // Opening, migrating and recovering hold a lock file, so two processes starting at once
        // neither migrate twice nor move aside the file the other has just created.
        let opened = try Self.holdingOpenLock(path: path + ".lock") {
            try Self.openOrRecover(fileURL: fileURL, configuration: configuration, now: now)
        }
        pool = opened.pool
        recoveryNotice = opened.notice
        // Again once open: files an older version created (or SQLite just did) are tightened too.
        for notice in Self.makeFilesPrivate(path: path) where !privacy.contains(notice) {
            privacy.append(notice)
        }
        privacyNotices = privacy
        _ = try? prune(now: now)
    }

    private static func openOrRecover(
        fileURL: URL, configuration: HistoryConfiguration, now: Date
    ) throws -> (pool: DatabasePool, notice: String?) {
        let path = fileURL.path
        do {
            return (try openPool(path: path, configuration: configuration), nil)
        } catch let error as DatabaseError where isUnreadable(error, path: path) {
            let aside = try moveAside(fileURL: fileURL, now: now)
            do {
                let pool = try openPool(path: path, configuration: configuration)
                return (
                    pool,
                    aside.map {
                        "The history file \(path) was unreadable, "
                            + "so it was moved to \($0.path) and a new one was started."
                    }
                )
            } catch {
                throw HistoryError.cannotOpen(path: path, reason: reason(error))
            }
        } catch {
            throw HistoryError.cannotOpen(path: path, reason: reason(error))
        }
    }

    /// Runs `body` holding an exclusive `flock` on a lock file (without it when the lock file
    /// cannot be created: a read-only folder fails later with a clearer error).
    private static func holdingOpenLock<T>(path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return try body() }
        defer { closeDescriptor(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private static func openPool(path: String, configuration: HistoryConfiguration) throws -> DatabasePool {
        // SQLite creates a new database 0644, and its -wal and -shm files with the database's
        // mode: an empty file created 0600 first (SQLite takes it as an empty database) makes
        // all three private from the start, with no moment where others could read them.
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 { closeDescriptor(descriptor) }
        _ = makeFilesPrivate(path: path)
        var grdb = Configuration()
        grdb.busyMode = .timeout(configuration.busyTimeout)
        grdb.label = "explorer.history"
        grdb.maximumReaderCount = 2
        // A large body is written through the writer's page cache (SQLite's default is 2 MB per
        // connection); a small one keeps the write's peak lower and is enough for inserts and
        // pruning. Readers keep the default: their queries read what was cached before.
        grdb.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)")
            }
        }
        let pool = try DatabasePool(path: path, configuration: grdb)
        try migrator.migrate(pool)
        return pool
    }

    /// The writer connection's page cache in KiB: recording a 10.5 MB body peaked 1.8 MiB lower
    /// with 256 KiB than with SQLite's default 2,000 KiB.
    private static let writerCacheKiB = 256

    /// The database's own files, by their suffix after its path.
    private static let ownFileSuffixes = ["", "-wal", "-shm", "-journal", ".lock"]

    /// Tightens the database's files that exist to `0600`.
    ///
    /// - Returns: one sentence per file that could not be tightened.
    private static func makeFilesPrivate(path: String) -> [String] {
        ownFileSuffixes.compactMap { PrivateFiles.restrictFile(at: URL(fileURLWithPath: path + $0)) }
    }

    /// Closes the file's connections; later calls throw.
    ///
    /// - Throws: when a connection cannot be closed.
    func close() throws {
        try pool.close()
    }

    // MARK: - Writing

    /// Records one exchange: masks its secrets, caps its bodies and stores it.
    ///
    /// - Parameters:
    ///   - entry: the exchange; its `id` is ignored.
    ///   - secrets: secret values (the workspace's secret variables) to mask in the URL, the
    ///     request headers and the request body; credential headers are masked regardless.
    /// - Returns: the new exchange's id.
    /// - Throws: `HistoryError.cannotWrite` when the file cannot be written.
    @discardableResult
    package func record(_ entry: HistoryEntry, secrets: [String] = []) throws -> Int64 {
        let masked = HistorySecretMasking.masked(entry, secrets: secrets, bodyCap: configuration.bodyCap)
        let row = ExchangeRow(masked, bodyCap: configuration.bodyCap)
        do {
            return try pool.write { db in
                try row.insert(into: db)
                return db.lastInsertedRowID
            }
        } catch {
            throw HistoryError.cannotWrite(path: fileURL.path, reason: Self.reason(error))
        }
    }

    /// Records several exchanges in one transaction (imports, benchmarks).
    ///
    /// - Parameters:
    ///   - entries: the exchanges; their ids are ignored.
    ///   - secrets: secret values to mask.
    /// - Returns: the new ids, in order.
    /// - Throws: `HistoryError.cannotWrite` when the file cannot be written (nothing is kept).
    @discardableResult
    package func record(contentsOf entries: [HistoryEntry], secrets: [String] = []) throws -> [Int64] {
        let rows = entries.map {
            ExchangeRow(
                HistorySecretMasking.masked($0, secrets: secrets, bodyCap: configuration.bodyCap),
                bodyCap: configuration.bodyCap)
        }
        do {
            return try pool.write { db in
                try rows.map { row in
                    try row.insert(into: db)
                    return db.lastInsertedRowID
                }
            }
        } catch {
            throw HistoryError.cannotWrite(path: fileURL.path, reason: Self.reason(error))
        }
    }

    /// The size of the history on disk in bytes: the file plus its write-ahead log.
    package var fileSize: Int {
        [fileURL.path, fileURL.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    /// Moves the write-ahead log into the main file (so `fileSize` is the file alone).
    ///
    /// - Throws: `HistoryError.cannotWrite` when the checkpoint fails.
    package func checkpoint() throws {
        do {
            _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        } catch {
            throw HistoryError.cannotWrite(path: fileURL.path, reason: Self.reason(error))
        }
    }

    /// Deletes exchanges sent before a time, or all of them.
    ///
    /// - Parameter date: delete only exchanges sent before this time; `nil` deletes all.
    /// - Returns: how many exchanges were deleted.
    /// - Throws: `HistoryError.cannotWrite` when the file cannot be written.
    @discardableResult
    package func clear(before date: Date? = nil) throws -> Int {
        do {
            return try pool.write { db in
                if let date {
                    try db.execute(
                        sql: "DELETE FROM exchange WHERE startedAt < ?", arguments: [date.timeIntervalSince1970])
                } else {
                    try db.execute(sql: "DELETE FROM exchange")
                }
                return db.changesCount
            }
        } catch {
            throw HistoryError.cannotWrite(path: fileURL.path, reason: Self.reason(error))
        }
    }

    /// Applies the retention rules: keeps the newest `maximumCount` exchanges and drops those
    /// older than `maximumAgeDays`. Opening the store does this already.
    ///
    /// - Parameter now: the current time.
    /// - Returns: how many exchanges were deleted.
    /// - Throws: `HistoryError.cannotWrite` when the file cannot be written.
    @discardableResult
    func prune(now: Date = Date()) throws -> Int {
        do {
            return try pool.write { db in
                var deleted = 0
                if let maximumCount = configuration.maximumCount {
                    try db.execute(
                        sql: """
                            DELETE FROM exchange
                            WHERE id <= (SELECT id FROM exchange ORDER BY id DESC LIMIT 1 OFFSET ?)
                            """,
                        arguments: [max(0, maximumCount)])
                    deleted += db.changesCount
                }
                if let days = configuration.maximumAgeDays {
                    let cutoff = now.timeIntervalSince1970 - Double(days) * 86_400
                    try db.execute(sql: "DELETE FROM exchange WHERE startedAt < ?", arguments: [cutoff])
                    deleted += db.changesCount
                }
                return deleted
            }
        } catch {
            throw HistoryError.cannotWrite(path: fileURL.path, reason: Self.reason(error))
        }
    }

    // MARK: - Reading

    /// One page of exchanges matching a query, newest first, without headers and bodies.
    ///
    /// - Parameter query: the filters and the page (default: the newest 50).
    /// - Returns: the summaries, newest first.
    /// - Throws: `HistoryError.cannotRead` when the file cannot be read.
    package func summaries(matching query: HistoryQuery = HistoryQuery()) throws -> [HistorySummary] {
        let columns = """
            exchange.id, exchange.startedAt, exchange.environment, exchange.endpoint,
            exchange.method, exchange.url, exchange.status, exchange.reason,
            exchange.responseBodySize, exchange.contentType, exchange.totalMilliseconds,
            exchange.transportError
            """
        let (sql, arguments) = Self.select(columns, matching: query, paged: true)
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.summary(from:))
        }
    }

    /// One page of full exchanges matching a query, newest first, with headers and bodies.
    ///
    /// - Parameter query: the filters and the page.
    /// - Returns: the entries, newest first.
    /// - Throws: `HistoryError.cannotRead` when the file cannot be read.
    func entries(matching query: HistoryQuery = HistoryQuery()) throws -> [HistoryEntry] {
        let (sql, arguments) = Self.select("exchange.*", matching: query, paged: true)
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { ExchangeRow(row: $0).entry }
        }
    }

    /// How many exchanges match a query (its page is ignored).
    ///
    /// - Parameter query: the filters.
    /// - Returns: the count.
    /// - Throws: `HistoryError.cannotRead` when the file cannot be read.
    package func count(matching query: HistoryQuery = HistoryQuery()) throws -> Int {
        let (sql, arguments) = Self.select("count(*)", matching: query, paged: false)
        return try read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    /// The full exchange with this id, or `nil`.
    ///
    /// - Parameter id: the exchange's id.
    /// - Returns: the entry, with headers and (capped) bodies.
    /// - Throws: `HistoryError.cannotRead` when the file cannot be read.
    package func entry(id: Int64) throws -> HistoryEntry? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM exchange WHERE id = ?", arguments: [id])
                .map { ExchangeRow(row: $0).entry }
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch {
            throw HistoryError.cannotRead(path: fileURL.path, reason: Self.reason(error))
        }
    }

    // MARK: - Query building

    /// The SQL for a query: full-text matches are walked from the FTS index newest first, so a
    /// page costs the same however many exchanges match.
    private static func select(
        _ columns: String, matching query: HistoryQuery, paged: Bool
    ) -> (String, StatementArguments) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        var from = "exchange"
        var order = "exchange.id DESC"
        if let search = query.search, let traceID = Self.traceID(in: search) {
            // A trace id (a server's trace names it): the exchange that carried it, from its index.
            clauses.append("exchange.traceId = ?")
            _ = arguments.append(contentsOf: [traceID])
        } else if let search = query.search, let pattern = Self.matchPattern(search) {
            from = "exchange_fts JOIN exchange ON exchange.id = exchange_fts.rowid"
            clauses.append("exchange_fts MATCH ?")
            _ = arguments.append(contentsOf: [pattern])
            order = "exchange_fts.rowid DESC"
        } else if let search = query.search, !search.trimmingCharacters(in: .whitespaces).isEmpty {
            // Nothing FTS can tokenize (punctuation only): fall back to a substring match on the URL.
            clauses.append("instr(exchange.url, ?) > 0")
            _ = arguments.append(contentsOf: [search])
        }
        if let endpoint = query.endpoint {
            clauses.append("exchange.endpoint = ?")
            _ = arguments.append(contentsOf: [endpoint])
        }
        if let environment = query.environment {
            clauses.append("exchange.environment = ?")
            _ = arguments.append(contentsOf: [environment])
        }
        if let collectionPath = query.collectionPath {
            clauses.append("exchange.collectionPath = ?")
            _ = arguments.append(contentsOf: [collectionPath])
        }
        if let statusClass = query.statusClass {
            if let range = statusClass.statusRange {
                clauses.append("exchange.status >= ? AND exchange.status < ?")
                _ = arguments.append(contentsOf: [range.lowerBound, range.upperBound])
            } else {
                clauses.append("exchange.status IS NULL")
            }
        }
        if let since = query.since {
            clauses.append("exchange.startedAt >= ?")
            _ = arguments.append(contentsOf: [since.timeIntervalSince1970])
        }
        if let until = query.until {
            clauses.append("exchange.startedAt < ?")
            _ = arguments.append(contentsOf: [until.timeIntervalSince1970])
        }
        var sql = "SELECT \(columns) FROM \(from)"
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        if paged {
            sql += " ORDER BY \(order) LIMIT ? OFFSET ?"
            _ = arguments.append(contentsOf: [max(0, query.limit), max(0, query.offset)])
        }
        return (sql, arguments)
    }

    /// The trace id a search is, when it is one: 32 hex digits (any case), alone or as a whole
    /// `traceparent` value.
    static func traceID(in search: String) -> String? {
        let text = search.trimmingCharacters(in: .whitespaces).lowercased()
        if let parent = TraceParent(parsing: text) { return parent.traceID }
        guard text.utf8.count == 32, text.allSatisfy({ $0.isHexDigit }) else { return nil }
        return text
    }

    /// The FTS5 pattern for search text: every word must match (AND); each word is quoted, so
    /// FTS operators and quotes in it are taken literally, and a word with punctuation inside
    /// (`users/42`) matches as a phrase. A word ending in `*` matches as a prefix.
    ///
    /// - Parameter search: what the user typed.
    /// - Returns: the pattern, or `nil` when no word has a letter or digit.
    static func matchPattern(_ search: String) -> String? {
        let phrases = search.split(whereSeparator: \.isWhitespace).compactMap { word -> String? in
            var word = Substring(word)
            var isPrefix = false
            while word.hasSuffix("*") {
                word.removeLast()
                isPrefix = true
            }
            guard word.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return isPrefix ? quoted + " *" : quoted
        }
        return phrases.isEmpty ? nil : phrases.joined(separator: " ")
    }

    private static func summary(from row: Row) -> HistorySummary {
        HistorySummary(
            id: row["id"], startedAt: Date(timeIntervalSince1970: row["startedAt"]),
            environment: row["environment"], endpoint: row["endpoint"], method: row["method"],
            url: row["url"], status: row["status"], reason: row["reason"],
            responseBodySize: row["responseBodySize"], contentType: row["contentType"],
            totalMilliseconds: row["totalMilliseconds"], transportError: row["transportError"])
    }

    // MARK: - Failures

    /// Whether an open error means the file itself is unusable (not a database, corrupt, or
    /// unopenable while it exists), so moving it aside is the cure.
    private static func isUnreadable(_ error: DatabaseError, path: String) -> Bool {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: true
        case .SQLITE_CANTOPEN, .SQLITE_IOERR: FileManager.default.fileExists(atPath: path)
        default: false
        }
    }

    /// Moves the file (and its WAL) aside to `<name>.corrupt-<time>`; drops its shared-memory
    /// file. Returns `nil` when another process moved it first.
    private static func moveAside(fileURL: URL, now: Date) throws -> URL? {
        let manager = FileManager.default
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: now).replacingOccurrences(of: ":", with: "")
        var aside = URL(fileURLWithPath: fileURL.path + ".corrupt-\(stamp)")
        var attempt = 1
        while manager.fileExists(atPath: aside.path) {
            attempt += 1
            aside = URL(fileURLWithPath: fileURL.path + ".corrupt-\(stamp)-\(attempt)")
        }
        do {
            try manager.moveItem(at: fileURL, to: aside)
        } catch {
            if !manager.fileExists(atPath: fileURL.path) { return nil }
            throw HistoryError.cannotOpen(path: fileURL.path, reason: reason(error))
        }
        if manager.fileExists(atPath: fileURL.path + "-wal") {
            try? manager.moveItem(atPath: fileURL.path + "-wal", toPath: aside.path + "-wal")
        }
        // What was moved aside is still the user's history: as private as the new file.
        _ = makeFilesPrivate(path: aside.path)
        try? manager.removeItem(atPath: fileURL.path + "-shm")
        return aside
    }

    /// The short reason of an underlying error, without a trailing period.
    static func reason(_ error: any Error) -> String {
        let text: String
        if let error = error as? DatabaseError {
            text = error.message ?? "\(error.resultCode)"
        } else if let error = error as? HistoryError {
            text = error.description
        } else {
            text = error.localizedDescription
        }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: ". \n"))
    }
}

/// Closes a file descriptor (outside `HistoryStore`, whose `close()` would shadow the C call).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
