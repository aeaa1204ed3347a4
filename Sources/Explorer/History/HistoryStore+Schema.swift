import GRDB

extension HistoryStore {
    /// The schema, created and upgraded step by step; a step is never edited once shipped.
    ///
    /// v1: the `exchange` table (bodies stored as text when they are UTF-8, else as a blob, so
    /// that text bodies are searchable without being stored twice), its indexes, and the
    /// `exchange_fts` FTS5 index over the URL and the text bodies, kept in sync by triggers.
    /// Later steps add the assertion results, an index of word prefixes, and cap what the index
    /// reads of each body to its first `indexedBodyCharacters`.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: exchanges with full-text search") { db in
            try db.create(table: "exchange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("startedAt", .double).notNull()
                t.column("collectionPath", .text)
                t.column("environment", .text)
                t.column("endpoint", .text)
                t.column("method", .text).notNull()
                t.column("url", .text).notNull()
                t.column("requestHeaders", .text).notNull()
                t.column("requestBodyText", .text)
                t.column("requestBodyData", .blob)
                t.column("requestBodySize", .integer).notNull()
                t.column("status", .integer)
                t.column("reason", .text)
                t.column("responseHeaders", .text).notNull()
                t.column("responseBodyText", .text)
                t.column("responseBodyData", .blob)
                t.column("responseBodySize", .integer).notNull()
                t.column("contentType", .text)
                t.column("totalMilliseconds", .double).notNull()
                t.column("headMilliseconds", .double)
                t.column("httpVersion", .text)
                t.column("transportError", .text)
            }
            try db.create(index: "exchange_on_startedAt", on: "exchange", columns: ["startedAt"])
            try db.create(index: "exchange_on_endpoint", on: "exchange", columns: ["endpoint"])
            try db.create(index: "exchange_on_environment", on: "exchange", columns: ["environment"])
            try db.create(index: "exchange_on_status", on: "exchange", columns: ["status"])
            try db.create(virtualTable: "exchange_fts", using: FTS5()) { t in
                t.synchronize(withTable: "exchange")
                t.tokenizer = .unicode61()
                t.column("url")
                t.column("requestBodyText")
                t.column("responseBodyText")
            }
        }
        // A shipped database gains the column; its exchanges read back without checks.
        migrator.registerMigration("checks: the assertion results of an exchange") { db in
            try db.alter(table: "exchange") { t in
                t.add(column: "checks", .text)
            }
        }
        // Prefix searches (`lore*`, what the TUI sends while typing) read an index of 2-, 3- and
        // 4-character prefixes instead of merging the lists of every word that starts so (over
        // 100,000 exchanges: tens of milliseconds down to a few). The index is rebuilt once.
        migrator.registerMigration("fts prefixes: prefix search from an index") { db in
            try db.dropFTS5SynchronizationTriggers(forTable: "exchange_fts")
            try db.drop(table: "exchange_fts")
            try db.create(virtualTable: "exchange_fts", using: FTS5()) { t in
                t.synchronize(withTable: "exchange")
                t.tokenizer = .unicode61()
                t.prefixes = HistoryStore.indexedPrefixLengths
                t.column("url")
                t.column("requestBodyText")
                t.column("responseBodyText")
            }
        }
        // Indexing a whole large body cost tens of MiB while it was written (FTS5 holds a row's
        // tokens and their prefixes in memory until the row is in) and most of the insert's
        // time. The index now reads the start of each body; the stored body is still kept up to
        // the body cap. Reindexed once here, reading the bodies through the same prefix.
        migrator.registerMigration("fts body prefix: search reads the start of each body") { db in
            try db.dropFTS5SynchronizationTriggers(forTable: "exchange_fts")
            try db.drop(table: "exchange_fts")
            try createSearchIndex(db, bodyCharacters: 262_144)
        }
        // The redirects an exchange followed (status, Location, time of each hop), as a JSON
        // array; the exchanges stored before read back without any.
        migrator.registerMigration("redirects: the chain of an exchange") { db in
            try db.alter(table: "exchange") { t in
                t.add(column: "redirects", .text)
            }
        }
        // The W3C trace id of a request sent with a traceparent header (`trace:`), so that
        // search finds the exchange a server's trace names; earlier exchanges have none.
        migrator.registerMigration("trace id: the traceparent's trace id of an exchange") { db in
            try db.alter(table: "exchange") { t in
                t.add(column: "traceId", .text)
            }
            try db.create(index: "exchange_on_traceId", on: "exchange", columns: ["traceId"])
        }
        return migrator
    }

    /// How many characters at the start of each body the full-text index reads (256 Ki, that is
    /// 256 KiB of ASCII text): a word further into a body is stored but not found by search.
    ///
    /// What indexing costs grows with what it reads (FTS5 holds a row's words and their prefixes
    /// in memory until the row is written): recording a 10.5 MB JSON body (5 MB kept) raised the
    /// process's peak memory by 48 MiB and took 0.6–1.1 s (debug build) with all of the 5 MB
    /// indexed, 32 MiB and 0.2 s with this much; a 1 MB body's insert went from 210 to 65 ms.
    /// This is the value the current schema was created with (the migration passes it as a
    /// literal, as shipped steps never change): another takes a new migration that calls
    /// `createSearchIndex` again.
    static let indexedBodyCharacters = 262_144

    /// Creates the full-text index `exchange_fts` over the URL and the first `bodyCharacters`
    /// characters of each text body, fills it from the stored exchanges, and keeps it in step
    /// with `exchange` by triggers.
    ///
    /// The index's external content is the view `exchange_search_text`, which gives the same
    /// prefixes the triggers index: so FTS5's `rebuild` and `integrity-check` read what was
    /// indexed, and the `delete` of a row gets exactly the values it was indexed with (other
    /// values would leave the index wrong). Search reads only rowids from the index, never its
    /// columns, so the view is not read while searching.
    ///
    /// - Parameters:
    ///   - db: a connection inside the migration's transaction.
    ///   - bodyCharacters: how many characters of each body are indexed.
    /// - Throws: a `DatabaseError`.
    private static func createSearchIndex(_ db: Database, bodyCharacters: Int) throws {
        let prefixes = indexedPrefixLengths.sorted().map(String.init).joined(separator: " ")
        // The indexed values of a row (`new`, `old`, or `exchange` itself), after its rowid.
        func indexed(_ row: String) -> String {
            """
            \(row).url, substr(\(row).requestBodyText, 1, \(bodyCharacters)), \
            substr(\(row).responseBodyText, 1, \(bodyCharacters))
            """
        }
        let columns = "rowid, url, requestBodyText, responseBodyText"
        try db.execute(
            sql: """
                CREATE VIEW exchange_search_text (id, url, requestBodyText, responseBodyText) AS
                    SELECT exchange.id, \(indexed("exchange")) FROM exchange;
                CREATE VIRTUAL TABLE exchange_fts USING fts5(
                    url, requestBodyText, responseBodyText,
                    content='exchange_search_text', content_rowid='id',
                    tokenize='unicode61', prefix='\(prefixes)');
                CREATE TRIGGER exchange_search_after_insert AFTER INSERT ON exchange BEGIN
                    INSERT INTO exchange_fts (\(columns)) VALUES (new.id, \(indexed("new")));
                END;
                CREATE TRIGGER exchange_search_after_delete AFTER DELETE ON exchange BEGIN
                    INSERT INTO exchange_fts (exchange_fts, \(columns)) VALUES ('delete', old.id, \(indexed("old")));
                END;
                CREATE TRIGGER exchange_search_after_update
                AFTER UPDATE OF id, url, requestBodyText, responseBodyText ON exchange BEGIN
                    INSERT INTO exchange_fts (exchange_fts, \(columns)) VALUES ('delete', old.id, \(indexed("old")));
                    INSERT INTO exchange_fts (\(columns)) VALUES (new.id, \(indexed("new")));
                END;
                INSERT INTO exchange_fts (\(columns))
                    SELECT id, url, requestBodyText, responseBodyText FROM exchange_search_text;
                """)
    }

    /// The prefix lengths the full-text index keeps.
    static let indexedPrefixLengths: Set<Int> = [2, 3, 4]
}
