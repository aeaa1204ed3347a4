import Foundation

/// Which exchanges to list, newest first, one page at a time.
///
/// Every filter is optional and they combine with AND. `search` is a full-text search over the
/// URL and the (textual) request and response bodies: every word must appear as a whole word
/// (case-insensitive, `users/42` as a phrase); a word ending in `*` matches as a prefix, so
/// `"ali* posts"` finds exchanges mentioning `alice` and `posts`. Whole words are answered from
/// the index in well under a millisecond; prefixes cost more (a TUI typing ahead appends `*`).
package struct HistoryQuery: Sendable, Hashable {
    /// Only exchanges of this endpoint (`Folder/Name`, exact).
    var endpoint: String?
    /// Only exchanges sent to this environment (exact name).
    var environment: String?
    /// Only exchanges from this collection file (exact path).
    var collectionPath: String?
    /// Only exchanges whose outcome is of this class.
    var statusClass: HistoryStatusClass?
    /// Only exchanges sent at or after this time.
    var since: Date?
    /// Only exchanges sent before this time.
    var until: Date?
    /// Full-text search over URL and bodies (whole words; `word*` for a prefix).
    var search: String?
    /// The page size.
    var limit: Int
    /// How many matching exchanges to skip (page number × page size).
    var offset: Int

    /// Creates a query; with no arguments it is the newest 50 exchanges.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint's name.
    ///   - environment: the environment's name.
    ///   - collectionPath: the collection file's path.
    ///   - statusClass: the outcome class.
    ///   - since: the earliest send time (inclusive).
    ///   - until: the latest send time (exclusive).
    ///   - search: full-text search words.
    ///   - limit: the page size (default 50).
    ///   - offset: how many to skip (default 0).
    package init(
        endpoint: String? = nil,
        environment: String? = nil,
        collectionPath: String? = nil,
        statusClass: HistoryStatusClass? = nil,
        since: Date? = nil,
        until: Date? = nil,
        search: String? = nil,
        limit: Int = 50,
        offset: Int = 0
    ) {
        self.endpoint = endpoint
        self.environment = environment
        self.collectionPath = collectionPath
        self.statusClass = statusClass
        self.since = since
        self.until = until
        self.search = search
        self.limit = limit
        self.offset = offset
    }

    /// The same filters, one page further on.
    var nextPage: HistoryQuery {
        var next = self
        next.offset += limit
        return next
    }
}
