import GRDB

extension HistoryStore {
    /// The schema, created and upgraded step by step; a step is never edited once shipped.
    ///
    /// v1: the `exchange` table (bodies stored as text when they are UTF-8, else as a blob, so
    /// that text bodies are searchable without being stored twice), its indexes, and the
    /// `exchange_fts` FTS5 index over the URL and the text bodies, kept in sync by triggers.
    /// Later steps add the assertion results and an index of word prefixes.
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
        return migrator
    }

    /// The prefix lengths the full-text index keeps.
    static let indexedPrefixLengths: Set<Int> = [2, 3, 4]
}
