import Foundation
import Networking
import Testing

/// Fetches a fresh token from the server, for the token-refresh flow.
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var token = "stale"
    func current() -> String {
        lock.lock()
        defer { lock.unlock() }
        return token
    }
    func set(_ new: String) {
        lock.lock()
        token = new
        lock.unlock()
    }
}

struct BearerAuth: RequestAdapter {
    let tokens: TokenStore
    func adapt(_ request: PreparedRequest) async throws -> PreparedRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(tokens.current())"
        return request
    }
}

struct RefreshOn401: ResponseAdapter {
    let tokens: TokenStore
    let refresh: @Sendable () async throws -> String

    func adapt(_ response: Response<Data?>, for request: any Request) async throws -> ResponseAdaptation {
        guard response.statusCode == .unauthorized else { return .continue }
        tokens.set(try await refresh())
        return .retry(with: request)
    }
}

final class RecordingMonitor: EventMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
    private func record(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    func requestWillSend(_ request: PreparedRequest) { record("send \(request.url.path)") }
    func request(_ request: PreparedRequest, didReceive response: Response<Data?>) {
        record("receive \(response.statusCode.code)")
    }
    func request(_ request: PreparedRequest, willRetryAttempt attempt: Int, after delay: Duration) {
        record("retry \(attempt) after \(delay)")
    }
}

@Suite struct HookTests {
    @Test func aTokenRefreshFlowRetriesWithTheNewToken() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let environment = server.environment
        let tokens = TokenStore()
        let plain = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)
        let dispatcher = NetworkDispatcher(
            serverProvider: environment, transport: sharedTransport,
            requestAdapters: [BearerAuth(tokens: tokens)],
            responseAdapters: [
                RefreshOn401(tokens: tokens) {
                    try await plain.future(from: BasicRequest(method: .post, path: "/token")).ensureValidResponse()
                        .ensureString().value.body
                }
            ])

        let response = try await dispatcher.future(from: BasicRequest(path: "/protected")).ensureValidResponse()
            .ensureString().value

        #expect(response.body == "secret data")
        #expect(response.request.headers["authorization"] == "Bearer token-1")
        #expect(server.hits("/protected") == 2)
        #expect(server.hits("/token") == 1)
    }

    @Test func retriesHonourRetryAfterAndEventMonitorsSeeThem() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let monitor = RecordingMonitor()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport,
            retryPolicy: RetryPolicy(initialDelay: .milliseconds(1), jitter: 0), eventMonitors: [monitor])

        let response = try await dispatcher.future(from: BasicRequest(path: "/retry-after/a")).ensureString().value

        #expect(response.body == "ok after 2 attempts")
        #expect(
            monitor.recorded == [
                "send /retry-after/a", "receive 503", "retry 2 after \(Duration.seconds(1))", "send /retry-after/a",
                "receive 200",
            ])
    }

    @Test func retriesStopAtMaximumAttemptsAndSkipNonIdempotentMethods() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1), jitter: 0.5))

        let response = try await dispatcher.future(from: BasicRequest(path: "/flaky")).value
        #expect(response.statusCode == .serviceUnavailable)
        #expect(server.hits("/flaky") == 3)

        _ = try await dispatcher.future(from: BasicRequest(method: .post, path: "/flaky")).value
        #expect(server.hits("/flaky") == 4)
    }

    @Test func backoffGrowsExponentiallyWithinItsJitter() {
        let policy = RetryPolicy(
            initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.1)
        for _ in 0..<50 {
            let third = policy.backoff(afterAttempt: 3)
            #expect(third >= .milliseconds(360) && third <= .milliseconds(440))
            #expect(policy.backoff(afterAttempt: 10) <= .milliseconds(1100))
        }
    }

    @Test func aResponseAdapterCanCompleteEarly() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let counter = CallCounter()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport,
            responseAdapters: [
                AnyResponseAdapter { _, _ in .complete },
                AnyResponseAdapter { _, _ in
                    counter.hit("second")
                    return .continue
                },
            ],
            retryPolicy: RetryPolicy(initialDelay: .milliseconds(1)))

        let response = try await dispatcher.future(from: BasicRequest(path: "/flaky")).value
        #expect(response.statusCode == .serviceUnavailable)
        #expect(counter.count("second") == 0)
        #expect(server.hits("/flaky") == 1)
    }
}
