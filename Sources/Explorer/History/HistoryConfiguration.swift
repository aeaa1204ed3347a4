import Foundation

/// How much the history store keeps: the body cap and the retention rules.
package struct HistoryConfiguration: Sendable, Hashable {
    /// The most bytes of one body that are stored; larger bodies are truncated, their full
    /// size recorded. Default 5 MB. Full-text search reads only the first 256 Ki characters of
    /// each stored body (`HistoryStore.indexedBodyCharacters`), whatever the cap.
    package var bodyCap: Int
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
    package init(
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

    /// The defaults, changed by environment variables where they are set:
    /// `EXPLORER_HISTORY_BODY_CAP` (bytes, or with a `K`/`M` suffix: `512K`, `5M`),
    /// `EXPLORER_HISTORY_KEEP` (how many exchanges; `0` for no limit) and
    /// `EXPLORER_HISTORY_KEEP_DAYS` (how many days; `0` for no limit). Values that do not
    /// parse are ignored.
    ///
    /// - Parameter environment: the process environment (default: this process's).
    /// - Returns: the configuration.
    package static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> HistoryConfiguration {
        var configuration = HistoryConfiguration()
        if let cap = environment["EXPLORER_HISTORY_BODY_CAP"].flatMap(byteCount), cap >= 0 {
            configuration.bodyCap = cap
        }
        if let keep = environment["EXPLORER_HISTORY_KEEP"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            keep >= 0
        {
            configuration.maximumCount = keep == 0 ? nil : keep
        }
        if let days = environment["EXPLORER_HISTORY_KEEP_DAYS"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }
        ), days >= 0 {
            configuration.maximumAgeDays = days == 0 ? nil : days
        }
        return configuration
    }

    private static func byteCount(_ text: String) -> Int? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        var multiplier = 1
        if digits.hasSuffix("K") {
            multiplier = 1024
            digits.removeLast()
        } else if digits.hasSuffix("M") {
            multiplier = 1024 * 1024
            digits.removeLast()
        }
        return Int(digits.trimmingCharacters(in: .whitespaces)).map { $0 * multiplier }
    }
}
