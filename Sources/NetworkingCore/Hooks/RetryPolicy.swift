import Foundation

/// When and how soon to send a request again: exponential backoff with jitter, a maximum
/// number of attempts, idempotent methods only by default, and `Retry-After` honoured.
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included (3 means up to 2 retries).
    public var maximumAttempts: Int
    /// The delay before the first retry.
    public var initialDelay: Duration
    /// The factor each later delay grows by.
    public var multiplier: Double
    /// The longest delay, also the cap on a server's `Retry-After`.
    public var maximumDelay: Duration
    /// The random fraction added to or taken from each delay, in `0...1`.
    public var jitter: Double
    /// The methods that may be retried.
    public var retryableMethods: Set<HTTPMethod>
    /// The statuses that cause a retry.
    public var retryableStatuses: Set<Int>
    /// Whether transport failures (refused, timed out, closed) cause a retry.
    public var retriesTransportErrors: Bool
    /// Whether a `Retry-After` header (seconds or HTTP date) sets the delay.
    public var honoursRetryAfter: Bool

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(200),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        retryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace],
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retriesTransportErrors: Bool = true,
        honoursRetryAfter: Bool = true
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.retryableMethods = retryableMethods
        self.retryableStatuses = retryableStatuses
        self.retriesTransportErrors = retriesTransportErrors
        self.honoursRetryAfter = honoursRetryAfter
    }

    /// The default: 3 attempts, 200 ms doubling, 20% jitter, idempotent methods only.
    public static let `default` = RetryPolicy()

    /// The delay before retrying after a response, or `nil` for no retry.
    ///
    /// - Parameters:
    ///   - attempt: the attempt that just finished, from 1.
    ///   - request: the request that was sent.
    ///   - response: the response it got.
    /// - Returns: the delay, or `nil`.
    public func delay(afterAttempt attempt: Int, request: PreparedRequest, response: Response<Data?>) -> Duration? {
        guard attempt < maximumAttempts, retryableMethods.contains(request.method),
            retryableStatuses.contains(response.statusCode.code)
        else { return nil }
        if honoursRetryAfter, let retryAfter = response.headers["Retry-After"].flatMap(Self.parseRetryAfter) {
            return min(retryAfter, maximumDelay)
        }
        return backoff(afterAttempt: attempt)
    }

    /// The delay before retrying after a transport failure, or `nil` for no retry.
    ///
    /// - Parameters:
    ///   - attempt: the attempt that just failed, from 1.
    ///   - request: the request that was sent.
    ///   - error: the failure.
    /// - Returns: the delay, or `nil`.
    public func delay(afterAttempt attempt: Int, request: PreparedRequest, error: any Error) -> Duration? {
        guard retriesTransportErrors, attempt < maximumAttempts, retryableMethods.contains(request.method) else {
            return nil
        }
        switch error as? TransportError {
        case .connectionRefused, .timedOut, .connectionClosed, .notConnected: return backoff(afterAttempt: attempt)
        default: return nil
        }
    }

    /// The exponential delay for an attempt, with jitter.
    ///
    /// - Parameter attempt: the attempt that just finished, from 1.
    /// - Returns: `initialDelay × multiplier^(attempt-1)`, capped, ± jitter.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        let base = initialDelay.seconds * pow(multiplier, Double(max(0, attempt - 1)))
        let capped = min(base, maximumDelay.seconds)
        let spread = capped * max(0, min(1, jitter))
        let jittered = spread > 0 ? capped + Double.random(in: -spread...spread) : capped
        return .milliseconds(Int64(max(0, jittered) * 1000))
    }

    /// Parses `Retry-After`: delay-seconds or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return .seconds(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
