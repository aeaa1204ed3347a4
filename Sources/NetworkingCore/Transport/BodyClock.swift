import Foundation
import Synchronization

/// The deadlines of one body in flight: the total deadline, and the longest the reader may
/// wait for bytes. Streamed (`BodyChannel`) and sent (`ExchangeWatch`) bodies keep the same rule.
struct BodyDeadlines: Sendable {
    var deadline: ContinuousClock.Instant?
    var idle: Duration?
    /// The URL, for the error.
    var url: URL

    /// The first moment they may be due, watched from `now`.
    func firstCheck(from now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let first = now + (idle ?? .seconds(3600))
        return deadline.map { min($0, first) } ?? first
    }

    /// The timeout that has passed at `now`, or when to look again.
    ///
    /// - Parameters:
    ///   - now: the clock's time.
    ///   - since: since when the reader has waited for bytes, if it waits.
    func check(at now: ContinuousClock.Instant, waitingSince since: ContinuousClock.Instant?) -> Result<
        ContinuousClock.Instant, TransportError
    > {
        if let deadline, now >= deadline {
            return .failure(.timedOut(url: url, phase: "the total deadline passed while the body was arriving"))
        }
        if let idle, let since, now - since >= idle {
            return .failure(.timedOut(url: url, phase: "no bytes for \(idle.shortDescription)"))
        }
        var wake = now + (idle ?? .seconds(3600))
        if let deadline { wake = min(wake, deadline) }
        if let idle, let since { wake = min(wake, since + idle) }
        return .success(wake)
    }
}

/// What a `BodyClock` watches: a body in flight, with its deadlines.
protocol ClockWatched: AnyObject, Sendable {
    /// Ends the transfer when a deadline has passed.
    ///
    /// - Parameter now: the clock's time.
    /// - Returns: when to ask again, or `nil` when the transfer has ended (now or before).
    func check(at now: ContinuousClock.Instant) -> ContinuousClock.Instant?
}

/// One clock for the deadlines of every body in flight: a body (a streamed one's
/// `BodyChannel`, a sent one's `ExchangeWatch`) is watched from when it starts until it ends,
/// and a single dispatch timer wakes at the earliest moment one of them may be due, then asks
/// each when to look again.
///
/// A timer of its own per request cost every request two wake-ups of libdispatch's manager
/// thread (arming it and cancelling it), about a tenth of a small request's CPU time. Here a
/// request that ends before its deadlines only enters and leaves a dictionary: all requests
/// of a client share their deadline's length, so a later one is never due before the timer.
///
/// Unchecked `Sendable`, sound because `watched` and `firesAt` are read and written only under
/// `lock`, and `timer` (a dispatch source: thread-safe, not marked `Sendable`) is set in `init`
/// and rescheduled only under `lock`.
final class BodyClock: @unchecked Sendable {
    /// The clock every transfer uses.
    static let shared = BodyClock()

    private let lock = NSLock()
    private var watched: [ObjectIdentifier: any ClockWatched] = [:]
    /// When the timer fires next; `nil` when it is not set (or while it runs), so that the
    /// next channel watched sets it.
    private var firesAt: ContinuousClock.Instant?
    private let timer: any DispatchSourceTimer

    /// Creates a clock with a timer of its own (`shared` is the one transfers use).
    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Networking.BodyClock"))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Watches a body until it ends.
    ///
    /// - Parameters:
    ///   - body: its `check(at:)` is asked at `firstCheck`, then when it says.
    ///   - firstCheck: the first moment it may be due.
    func watch(_ body: any ClockWatched, firstCheck: ContinuousClock.Instant) {
        lock.withLock {
            watched[ObjectIdentifier(body)] = body
            // Set under the lock, so that two channels watched at once leave the earlier time.
            if firesAt.map({ firstCheck < $0 }) ?? true { arm(at: firstCheck) }
        }
    }

    /// Stops watching a body (it has ended).
    func unwatch(_ body: any ClockWatched) {
        lock.withLock { _ = watched.removeValue(forKey: ObjectIdentifier(body)) }
    }

    /// How many channels are watched.
    var count: Int { lock.withLock { watched.count } }

    private func tick() {
        let bodies = lock.withLock { () -> [any ClockWatched] in
            firesAt = nil
            return Array(watched.values)
        }
        let now = ContinuousClock.now
        var next: ContinuousClock.Instant?
        var ended: [ObjectIdentifier] = []
        for body in bodies {
            if let wake = body.check(at: now) {
                next = min(next ?? wake, wake)
            } else {
                ended.append(ObjectIdentifier(body))
            }
        }
        lock.withLock {
            for key in ended { watched.removeValue(forKey: key) }
            // A body watched meanwhile may have set an earlier time.
            if let next, firesAt.map({ next < $0 }) ?? true { arm(at: next) }
        }
    }

    /// Sets the timer (the lock is held).
    private func arm(at instant: ContinuousClock.Instant) {
        firesAt = instant
        let wait = max(1_000_000, (instant - .now).nanoseconds)
        timer.schedule(deadline: .now() + .nanoseconds(Int(wait)))
    }
}

/// The deadlines of a body that `send` reads in a task of its own: at the total deadline, or
/// when the reader has waited longer than the idle timeout, the clock cancels that task and
/// the reader throws the timeout this watch names.
final class ExchangeWatch: ClockWatched, Sendable {
    private struct State {
        var cancelTask: (@Sendable () -> Void)?
        var limits: BodyDeadlines?
        var waitingSince: ContinuousClock.Instant?
        var timedOut: TransportError?
    }

    /// Inline, not a lock object of its own: a watch is made for every request.
    private let state = Mutex(State())
    private let clock: BodyClock

    /// Creates a watch on a clock (the shared one unless a test has its own).
    init(clock: BodyClock = .shared) {
        self.clock = clock
    }

    /// Cancels the task that reads the body (set once it exists); at once when the deadline
    /// has already passed.
    var cancel: (@Sendable () -> Void)? {
        get { state.withLock { $0.cancelTask } }
        set {
            let now = state.withLock { state -> Bool in
                state.cancelTask = newValue
                return state.timedOut != nil
            }
            if now { newValue?() }
        }
    }

    /// The timeout that ended the body, if one did.
    var expired: TransportError? { state.withLock { $0.timedOut } }

    /// Starts watching: the body begins.
    func start(deadline: ContinuousClock.Instant, idle: Duration?, url: URL) {
        let limits = BodyDeadlines(deadline: deadline, idle: idle, url: url)
        state.withLock { $0.limits = limits }
        clock.watch(self, firstCheck: limits.firstCheck(from: .now))
    }

    /// Whether the reader waits for bytes now (the idle timeout counts only then).
    func waiting(_ waits: Bool) {
        let since: ContinuousClock.Instant? = waits ? .now : nil
        state.withLock { $0.waitingSince = since }
    }

    /// The body has ended: nothing is cancelled after this.
    func end() {
        let watched = state.withLock { state -> Bool in
            defer {
                state.limits = nil
                state.cancelTask = nil
            }
            return state.limits != nil
        }
        if watched { clock.unwatch(self) }
    }

    func check(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let (wake, cancel) = state.withLock { state -> (ContinuousClock.Instant?, (@Sendable () -> Void)?) in
            guard let limits = state.limits, state.timedOut == nil else { return (nil, nil) }
            switch limits.check(at: now, waitingSince: state.waitingSince) {
            case .success(let wake): return (wake, nil)
            case .failure(let timeout): state.timedOut = timeout
            }
            return (nil, state.cancelTask)
        }
        cancel?()
        return wake
    }
}
