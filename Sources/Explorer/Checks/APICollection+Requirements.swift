import Foundation
import Workspace

extension APICollection {
    /// The endpoints to send before `endpoint`, those they require first, each once: a
    /// required endpoint is sent when a variable it captures is missing, or was captured more
    /// than its `max_age` ago; one that captures nothing is always sent.
    ///
    /// The loader refuses cycles; a chain is still followed at most once per endpoint.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint about to be sent.
    ///   - captured: the variables captured so far in the environment.
    ///   - now: the time `max_age` is measured from.
    /// - Returns: the endpoints, in the order to send them, each with why it is sent.
    package func prerequisites(of endpoint: Endpoint, captured: [String: CapturedVariable], now: Date = Date()) -> [(
        endpoint: Endpoint, reason: String
    )] {
        var order: [(endpoint: Endpoint, reason: String)] = []
        var visited: Set<String> = [endpoint.id]
        func visit(_ current: Endpoint) {
            for requirement in current.requirements {
                guard let target = try? self.endpoint(named: requirement.endpoint), visited.insert(target.id).inserted
                else { continue }
                guard let reason = Self.reasonToSend(target, requirement: requirement, captured: captured, now: now)
                else { continue }
                visit(target)
                order.append((target, reason))
            }
        }
        visit(endpoint)
        return order
    }

    /// Why a required endpoint must be sent now, or `nil` when what it captures is fresh.
    private static func reasonToSend(
        _ target: Endpoint, requirement: Requirement, captured: [String: CapturedVariable], now: Date
    ) -> String? {
        guard !target.captures.isEmpty else { return "it captures nothing, so it is always sent first" }
        let missing = target.captures.map(\.name).filter { captured[$0] == nil }
        if !missing.isEmpty {
            return "\(missing.joined(separator: ", ")) \(missing.count == 1 ? "was" : "were") not captured yet"
        }
        if let maxAge = requirement.maxAge {
            let stale = target.captures.map(\.name).filter { name in
                captured[name].map { now.timeIntervalSince($0.capturedAt) > maxAge } ?? true
            }
            if !stale.isEmpty {
                return
                    "\(stale.joined(separator: ", ")) \(stale.count == 1 ? "is" : "are") "
                    + "older than \(DurationText.format(maxAge))"
            }
        }
        return nil
    }
}
