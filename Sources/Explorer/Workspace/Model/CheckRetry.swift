import Foundation

/// `retry: { count: 10, interval: 500ms }`: send again, up to `count` more times, `interval`
/// apart, until every assertion of the endpoint passes (a transport failure is retried too).
package struct CheckRetry: Sendable, Codable, Hashable {
    /// How many times the request is sent again at most, after the first.
    package var count: Int
    /// The pause between two sends, in seconds.
    package var interval: Double

    /// The most retries a collection may ask for, so a typo cannot loop for hours.
    package static let maximumCount = 1000

    /// Creates a policy.
    package init(count: Int, interval: Double) {
        self.count = count
        self.interval = interval
    }

    /// How the interval is written back: `500ms`, `2s`.
    var intervalText: String { DurationText.format(interval) }
}

/// `requires: [Login]`: an endpoint sent first when a variable it captures is missing, or
/// older than `max_age`.
package struct Requirement: Sendable, Codable, Hashable {
    /// The required endpoint's address, as written (`Auth/Login`, or `Login` when unique).
    package var endpoint: String
    /// How old its captures may be, in seconds, before it is sent again; `nil` for no limit.
    package var maxAge: Double?
    /// Where it is written, when it came from a file. Not part of equality.
    var location: FileLocation?

    /// Creates a requirement.
    package init(endpoint: String, maxAge: Double? = nil) {
        self.endpoint = endpoint
        self.maxAge = maxAge
    }

    package static func == (lhs: Requirement, rhs: Requirement) -> Bool {
        lhs.endpoint == rhs.endpoint && lhs.maxAge == rhs.maxAge
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(endpoint)
    }
}

/// Durations as a collection writes them: `500ms`, `2s`, `1.5s`, `5m`, `1h`.
package enum DurationText {
    /// Reads a duration.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - bareUnit: the unit of a number written without one, in seconds (0.001 for ms).
    /// - Returns: seconds, or `nil` when the text is not a duration.
    static func seconds(_ text: String, bareUnit: Double) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), number >= 0,
                number.isFinite
            else { return nil }
            return number * scale
        }
        guard let number = Double(trimmed), number >= 0, number.isFinite else { return nil }
        return number * bareUnit
    }

    /// Writes a duration in the largest unit that keeps it whole, else in milliseconds.
    package static func format(_ seconds: Double) -> String {
        if seconds >= 3600, (seconds / 3600).rounded() == seconds / 3600 { return "\(Int(seconds / 3600))h" }
        if seconds >= 60, (seconds / 60).rounded() == seconds / 60 { return "\(Int(seconds / 60))m" }
        if seconds.rounded() == seconds { return "\(Int(seconds))s" }
        return "\(Int((seconds * 1000).rounded()))ms"
    }
}
