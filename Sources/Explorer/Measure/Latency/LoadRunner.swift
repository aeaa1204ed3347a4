import Foundation
import NetworkingCore
import Synchronization

/// How much load to send: a number of requests, a time, or both (whichever ends first), from
/// a number of workers at once, and optionally at a fixed rate.
package struct LoadPlan: Sendable, Hashable {
    /// How many requests in all; `nil` sends until `duration` ends.
    package var requests: Int?
    /// How many requests are in flight at most (the workers).
    package var concurrency: Int
    /// How long to send for; `nil` sends `requests`.
    package var duration: Duration?
    /// Requests a second over all workers; `nil` sends each request as soon as a worker is free.
    package var rate: Double?
    /// Whether connections are kept for the requests that follow (`false`: a new connection
    /// for every request, as `--disable-keepalive` asks). The transport does it; the report says it.
    package var keepsConnections: Bool

    /// The requests a plan sends when it names neither a count nor a time.
    package static let defaultRequests = 200

    /// A plan; with neither `requests` nor `duration`, it sends `defaultRequests`.
    package init(
        requests: Int?, concurrency: Int, duration: Duration? = nil, rate: Double? = nil, keepsConnections: Bool = true
    ) {
        self.keepsConnections = keepsConnections
        self.requests = requests ?? (duration == nil ? Self.defaultRequests : nil)
        self.concurrency = max(1, concurrency)
        self.duration = duration
        self.rate = rate
    }
}

/// How one request of a load ended.
package enum LoadOutcome: Sendable, Hashable {
    /// A response, its body read to the last byte.
    case response(status: Int, bytes: Int)
    /// No response: the kind of failure and its sentence.
    case failure(kind: String, sentence: String)

    /// The kind a failure is counted under: `timeout`, `connection refused`, `connection
    /// closed`, `malformed response`, `tls`, `dns`, `body too large`, `redirect`, `proxy`, or
    /// `other`.
    package static func kind(of error: any Error) -> String {
        guard let transport = error as? TransportError else { return "other" }
        switch transport {
        case .timedOut: return "timeout"
        case .connectionRefused: return "connection refused"
        case .notConnected: return "not connected"
        case .connectionClosed: return "connection closed"
        case .tlsFailure: return "tls"
        case .dnsFailure: return "dns"
        case .bodyTooLarge: return "body too large"
        case .decompressionFailed: return "decompression"
        case .malformedResponse: return "malformed response"
        case .tooManyRedirects, .insecureRedirect: return "redirect"
        case .proxyAuthenticationRequired, .proxyUnreachable, .proxyFailed, .invalidProxy: return "proxy"
        case .cancelled: return "cancelled"
        case .invalidURL, .missingBaseURL, .serverProviderReleased: return "request"
        case .other: return "other"
        }
    }
}

/// Where a load is, for a progress bar.
package struct LoadProgress: Sendable, Hashable {
    /// Requests finished so far.
    package var completed: Int
    /// Failures so far.
    package var failures: Int
    /// Requests in all, when the plan counts them.
    package var total: Int?
    /// Time since the start.
    package var elapsed: Duration
    /// The plan's time, when it has one.
    package var duration: Duration?

    /// How far along, from 0 to 1: by count, or by time when that ends first.
    package var fraction: Double {
        var parts: [Double] = []
        if let total, total > 0 { parts.append(Double(completed) / Double(total)) }
        if let duration, duration > .zero { parts.append(elapsed / duration) }
        return min(1, parts.max() ?? 0)
    }
}

/// What a load measured.
package struct LoadResult: Sendable {
    /// The plan it ran.
    package var plan: LoadPlan
    /// The latencies: from each request's start to its body's last byte, or, under a rate, from
    /// the time it was due (so that a server that stalls is charged for the requests that
    /// waited behind it: coordinated omission accounted for, as wrk2 does).
    package var latencies: LatencyRecorder
    /// Under a rate, the latencies from each request's actual start (the service time,
    /// which hides the waiting); `nil` without a rate, where the two are the same.
    package var serviceTimes: LatencyRecorder?
    /// From the first request's start to the last one's end.
    package var elapsed: Duration
    /// How the report names a status: the HTTP code as it is, or a gRPC code's name (`OK`).
    package var statusName: @Sendable (Int) -> String = { String($0) }

    /// Requests finished a second.
    package var requestsPerSecond: Double {
        let seconds = elapsed / .seconds(1)
        return seconds > 0 ? Double(latencies.count) / seconds : 0
    }
}

/// Sends a load: `plan.concurrency` workers take the next request until the plan's count or
/// time is reached, each keeping its own `LatencyRecorder` (merged at the end, so workers share
/// one counter and nothing else).
package enum LoadRunner {
    /// The most workers a load may have.
    package static let maximumConcurrency = 1024

    /// Runs a load.
    ///
    /// - Parameters:
    ///   - plan: how much, how wide, how fast.
    ///   - progressInterval: how often `progress` is called while the load runs.
    ///   - progress: told where the load is (from a task of its own), and once more at the end.
    ///   - executors: where the workers run, in turn (the transport's event loops, so that a
    ///     response resumes its worker on the thread that read it); Swift's global executor
    ///     when empty.
    ///   - send: sends one request and reads its body to the last byte.
    /// - Returns: what was measured.
    package static func run(
        _ plan: LoadPlan, progressInterval: Duration = .milliseconds(100),
        progress: (@Sendable (LoadProgress) -> Void)? = nil,
        executors: [any TaskExecutor] = [],
        send: @escaping @Sendable () async -> LoadOutcome
    ) async -> LoadResult {
        let clock = ContinuousClock()
        let counters = Counters()
        let start = clock.now
        let deadline = plan.duration.map { start + $0 }
        let reporter = progress.map { report in
            Task {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: progressInterval) } catch { return }
                    report(counters.progress(plan: plan, elapsed: clock.now - start))
                }
            }
        }
        var latencies = LatencyRecorder()
        var serviceTimes = LatencyRecorder()
        await withTaskGroup(of: (LatencyRecorder, LatencyRecorder).self) { group in
            for worker in 0..<plan.concurrency {
                group.addTask(executorPreference: executors.isEmpty ? nil : executors[worker % executors.count]) {
                    var mine = LatencyRecorder()
                    var service = LatencyRecorder()
                    while !Task.isCancelled {
                        let index = counters.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        if let total = plan.requests, index >= total { break }
                        var due: ContinuousClock.Instant?
                        if let rate = plan.rate {
                            let scheduled = start + .seconds(Double(index) / rate)
                            if let deadline, scheduled >= deadline { break }
                            if scheduled > clock.now { try? await Task.sleep(until: scheduled, clock: clock) }
                            due = scheduled
                        } else if let deadline, clock.now >= deadline {
                            break
                        }
                        let began = clock.now
                        let outcome = await send()
                        let ended = clock.now
                        let serviceTime = microseconds(ended - began)
                        let latency = due.map { microseconds(ended - $0) } ?? serviceTime
                        switch outcome {
                        case .response(let status, let bytes):
                            mine.record(microseconds: latency, status: status, bytes: bytes)
                            if due != nil { service.record(microseconds: serviceTime, status: status, bytes: bytes) }
                        case .failure(let kind, let sentence):
                            mine.recordFailure(microseconds: latency, kind: kind, sentence: sentence)
                            if due != nil {
                                service.recordFailure(microseconds: serviceTime, kind: kind, sentence: sentence)
                            }
                            counters.failures.add(1, ordering: .relaxed)
                        }
                        counters.completed.add(1, ordering: .relaxed)
                    }
                    return (mine, service)
                }
            }
            for await (mine, service) in group {
                latencies.merge(mine)
                serviceTimes.merge(service)
            }
        }
        let elapsed = clock.now - start
        // The reporter is awaited, so that no drawing of its own comes after the last one.
        reporter?.cancel()
        await reporter?.value
        progress?(counters.progress(plan: plan, elapsed: elapsed))
        return LoadResult(
            plan: plan, latencies: latencies, serviceTimes: plan.rate == nil ? nil : serviceTimes, elapsed: elapsed)
    }

    /// Where a load's workers run: on the transport's event loops (`loops`) when each worker
    /// has a loop to itself, else on Swift's global executor (none).
    ///
    /// On a loop, a worker's response resumes it on the thread that read it, with no hop
    /// between threads. With more workers than loops, they share the client's connections, one
    /// connection often on another loop than the worker it serves, and each response then wakes
    /// another thread. Measured with networking-bench (`--on-loops`, small GETs of the demo, two
    /// cores, two loops): on the loops 1.27× the requests a second with 1 worker and 1.04–1.13×
    /// with 2, but 0.81–0.90× with 8 and 0.72–0.80× with 16.
    ///
    /// - Parameters:
    ///   - concurrency: the plan's workers.
    ///   - loops: the transport's executors, one per event loop.
    /// - Returns: `loops`, or none.
    package static func workerExecutors(concurrency: Int, loops: [any TaskExecutor]) -> [any TaskExecutor] {
        concurrency <= loops.count ? loops : []
    }

    /// A duration in whole microseconds (at least 1).
    static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
        return UInt64(max(1, value.rounded()))
    }

    /// What the workers share: the next request's index, and counts for the progress bar.
    final class Counters: Sendable {
        let next = Atomic<Int>(0)
        let completed = Atomic<Int>(0)
        let failures = Atomic<Int>(0)

        func progress(plan: LoadPlan, elapsed: Duration) -> LoadProgress {
            LoadProgress(
                completed: completed.load(ordering: .relaxed), failures: failures.load(ordering: .relaxed),
                total: plan.requests, elapsed: elapsed, duration: plan.duration)
        }
    }
}
