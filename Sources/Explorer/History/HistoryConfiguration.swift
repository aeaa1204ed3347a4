import Foundation

/// How much the history store keeps: the body cap and the retention rules.
struct HistoryConfiguration: Sendable, Hashable {
    /// The most bytes of one body that are stored; larger bodies are truncated, their full
    /// size recorded. Default 5 MB.
    var bodyCap: Int
    /// Keep at most this many exchanges (the newest). Default 10,000; `nil` keeps any number.
    var maximumCount: Int?
    /// Keep exchanges at most this many days old. Default `nil`: no age limit.
    var maximumAgeDays: Int?
    /// How long a writer waits for another process's write to finish, in seconds.
    var busyTimeout: TimeInterval

    /// The defaults: a 5 MB body cap, the newest 10,000 exchanges, no age limit.
    static let `default` = HistoryConfiguration()

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - bodyCap: the body cap in bytes (default 5 MB).
    ///   - maximumCount: how many exchanges to keep (default 10,000; `nil` for no limit).
    ///   - maximumAgeDays: how many days to keep (default `nil`, no limit).
    ///   - busyTimeout: how long to wait for another writer (default 10 s).
    init(
        bodyCap: Int = 5 * 1024 * 1024,
        maximumCount: Int? = 10_000,
        maximumAgeDays: Int? = nil,
        busyTimeout: TimeInterval = 10
    ) {
        self.bodyCap = bodyCap
        self.maximumCount = maximumCount
        self.maximumAgeDays = maximumAgeDays
        self.busyTimeout = busyTimeout
    }
}
