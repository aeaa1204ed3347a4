import Foundation

/// The bearer tokens `POST /login` issues: each valid for `lifetime` seconds, at most
/// `capacity` kept (the oldest are forgotten first), so a script that logs in in a loop
/// cannot grow the demo's memory.
actor DemoTokens {
    /// How long a token is accepted, in seconds.
    static let lifetime: TimeInterval = 60
    /// How many tokens are remembered at most.
    static let capacity = 10_000

    /// What `/me` makes of a token.
    enum State: Sendable, Equatable {
        case valid, expired, unknown
    }

    private var issued: [String: Date] = [:]
    private var order: [String] = []
    private let clock: @Sendable () -> Date

    /// Creates the store; `clock` is the current time (a test may move it).
    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Issues a new token.
    func issue(lifetime: TimeInterval = DemoTokens.lifetime) -> (token: String, expires: Date) {
        let token = "tok-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let expires = clock().addingTimeInterval(lifetime)
        issued[token] = expires
        order.append(token)
        if order.count > Self.capacity {
            let dropped = order.prefix(order.count - Self.capacity)
            for old in dropped { issued[old] = nil }
            order.removeFirst(dropped.count)
        }
        return (token, expires)
    }

    /// Whether a token is one issued and still valid.
    func state(of token: String) -> State {
        guard let expires = issued[token] else { return .unknown }
        return clock() < expires ? .valid : .expired
    }
}
