import Foundation

/// One clock for the deadlines of every body in flight: a channel is watched from when its
/// body starts until it ends, and a single dispatch timer wakes at the earliest moment one of
/// them may be due, then asks each when to look again.
///
/// A timer of its own per request cost every request two wake-ups of libdispatch's manager
/// thread (arming it and cancelling it), about a tenth of a small request's CPU time. Here a
/// request that ends before its deadlines only enters and leaves a dictionary: all requests
/// of a client share their deadline's length, so a later one is never due before the timer.
final class BodyClock: @unchecked Sendable {
    /// The clock every transfer uses.
    static let shared = BodyClock()

    private let lock = NSLock()
    private var watched: [ObjectIdentifier: BodyChannel] = [:]
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

    /// Watches a channel until it ends.
    ///
    /// - Parameters:
    ///   - channel: the channel; its `check(at:)` is asked at `firstCheck`, then when it says.
    ///   - firstCheck: the first moment it may be due.
    func watch(_ channel: BodyChannel, firstCheck: ContinuousClock.Instant) {
        lock.withLock {
            watched[ObjectIdentifier(channel)] = channel
            // Set under the lock, so that two channels watched at once leave the earlier time.
            if firesAt.map({ firstCheck < $0 }) ?? true { arm(at: firstCheck) }
        }
    }

    /// Stops watching a channel (its body has ended).
    func unwatch(_ channel: BodyChannel) {
        lock.withLock { _ = watched.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// How many channels are watched.
    var count: Int { lock.withLock { watched.count } }

    private func tick() {
        let channels = lock.withLock { () -> [BodyChannel] in
            firesAt = nil
            return Array(watched.values)
        }
        let now = ContinuousClock.now
        var next: ContinuousClock.Instant?
        var ended: [ObjectIdentifier] = []
        for channel in channels {
            if let wake = channel.check(at: now) {
                next = min(next ?? wake, wake)
            } else {
                ended.append(ObjectIdentifier(channel))
            }
        }
        lock.withLock {
            for key in ended { watched.removeValue(forKey: key) }
            // A channel watched meanwhile may have set an earlier time.
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
