import Foundation
import Workspace

/// The mock server this session started (`O`): `explorer mock` in this process, serving the
/// collection, and an environment of the session alone (never written to the collection
/// file) whose base URL is the mock's.
struct MockSession: Sendable {
    /// The environment it mocks (its base path, variables, headers and auth), or `nil` for a
    /// collection without environments.
    var mocked: String?
    /// Whether it keeps resources (`U`, as `explorer mock --stateful`), which `Z` resets.
    var stateful = false
    /// Where it listens, once it does.
    var port: Int?
    /// The environment that sends to it, once it listens: the session's last environment.
    var environment: Environment?
    /// The newest requests it answered, oldest first (at most `logLimit`).
    var log: [MockLogLine] = []
    /// How many requests it answered in all.
    var answered = 0

    /// The most log lines kept; older ones are dropped (the count goes on).
    static let logLimit = 500

    /// Whether it listens (else it is starting).
    var isServing: Bool { environment != nil }

    /// Adds answered requests to the log, keeping the newest `logLimit`.
    mutating func append(_ lines: [MockLogLine]) {
        log.append(contentsOf: lines)
        answered += lines.count
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }

    /// A name for the mock's environment that none of `taken` has: `mock`, else `mock-2` …
    static func environmentName(avoiding taken: [String]) -> String {
        guard taken.contains("mock") else { return "mock" }
        var number = 2
        while taken.contains("mock-\(number)") { number += 1 }
        return "mock-\(number)"
    }
}
