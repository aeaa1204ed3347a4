import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Demo
@testable import Query
@testable import Workspace

/// Sequences against the real demo API: a login's token flows to the next request and is kept
/// for the next process; `requires:` sends what is missing first; `retry:` sends again until
/// the assertions pass.
@Suite(.serialized) struct SequenceRunnerTests {
    /// The demo served on free ports, its collection written in a temporary folder, and a
    /// capture store there too.
    private struct Fixture {
        let server: DemoServer
        let folder: URL
        let collection: APICollection
        let store: CaptureStore
        let transport = AsyncHTTPClientTransport()

        static func start(extraYAML: String = "") async throws -> Fixture {
            let server = try await DemoServer.start(port: 0)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sequence-\(UUID().uuidString)")
            let url = try DemoCollection.write(for: server.environments, to: folder.appendingPathComponent("demo.yaml"))
            if !extraYAML.isEmpty {
                try (String(contentsOf: url, encoding: .utf8) + extraYAML).write(
                    to: url, atomically: true, encoding: .utf8)
            }
            return Fixture(
                server: server, folder: folder, collection: try CollectionLoader.load(from: url),
                store: CaptureStore(fileURL: folder.appendingPathComponent("state/explorer/captures.json")))
        }

        func runner(_ environment: String = "local", store: CaptureStore? = nil) throws -> SequenceRunner<Int> {
            let environment = try #require(collection.environment(named: environment))
            let transport = transport
            return SequenceRunner<Int>(collection: collection, environment: environment, store: store ?? self.store) {
                resolved in
                do {
                    let response = try await NetworkDispatcher(
                        serverProvider: resolved.environment, transport: transport
                    )
                    .future(from: resolved.request).value
                    return SentExchange(
                        response: CheckedResponse(
                            status: response.statusCode.code, headers: response.headers, body: response.body ?? Data(),
                            durationMilliseconds: (response.timings.total ?? 0) * 1000),
                        failure: nil, record: response.statusCode.code)
                } catch {
                    return SentExchange(response: nil, failure: "\(error)", record: 0)
                }
            }
        }

        func stop() async {
            try? await transport.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func theLoginTokenReachesTheNextRequestAndTheNextRunner() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let login = try fixture.collection.endpoint(named: "Auth/Login")
        let me = try fixture.collection.endpoint(named: "Auth/Me after login")

        let first = try fixture.runner()
        let loginStep = try #require(await first.run(login).last)
        #expect(loginStep.outcome == .passed, "\(loginStep.report.failureLines)")
        #expect(loginStep.report.summary == "5/5 checks")
        let token = try #require(first.capturedVariables["session_token"])
        #expect(token.value.hasPrefix("tok-"))
        #expect(token.isSecret)
        #expect(token.endpoint == "Auth/Login")
        #expect(
            loginStep.secrets.contains(token.value), "the login's answer repeats the token: it is masked in history")

        // Another runner, as another process would: the token comes from the store.
        let second = try fixture.runner()
        let steps = await second.run(me)
        #expect(steps.count == 1, "the token is fresh: no login first")
        let meStep = try #require(steps.last)
        #expect(meStep.outcome == .passed, "\(meStep.report.failureLines)")
        #expect(meStep.resolved?.request.headers["Authorization"] == "Bearer \(token.value)")
        #expect(meStep.resolved?.maskedHeaders["Authorization"] == "Bearer \(SecretMasker.mask)")

        let mode =
            try FileManager.default.attributesOfItem(atPath: fixture.store.fileURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func requiresSendsTheLoginFirstWhenTheTokenIsMissingOrStale() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let me = try fixture.collection.endpoint(named: "Auth/Me after login")
        let steps = await (try fixture.runner("staging")).run(me)
        #expect(steps.map(\.endpoint.id) == ["Auth/Login", "Auth/Me after login"])
        #expect(steps.first?.prerequisiteReason == "session_token, request_id were not captured yet")
        #expect(steps.allSatisfy { $0.outcome == .passed })

        // A token captured more than max_age (50 s) ago is refreshed first.
        let old = CapturedVariable(
            value: "tok-old", endpoint: "Auth/Login", capturedAt: Date().addingTimeInterval(-55), isSecret: true)
        try fixture.store.store(
            ["session_token": old, "request_id": old], collection: fixture.collection.storeKey, environment: "local")
        let refreshed = await (try fixture.runner()).run(me)
        #expect(refreshed.map(\.endpoint.id) == ["Auth/Login", "Auth/Me after login"])
        #expect(refreshed.first?.prerequisiteReason == "session_token, request_id are older than 50s")
        #expect(refreshed.last?.outcome == .passed)
    }

    @Test func anExpiredTokenIsRefusedByTheDemo() async throws {
        let tokens = DemoTokens(clock: { Date(timeIntervalSince1970: 1000) })
        let issued = await tokens.issue()
        #expect(issued.expires == Date(timeIntervalSince1970: 1060))
        #expect(await tokens.state(of: issued.token) == .valid)
        let later = DemoTokens(clock: { Date(timeIntervalSince1970: 1061) })
        #expect(await later.state(of: issued.token) == .unknown)
        let moving = MovingClock(Date(timeIntervalSince1970: 0))
        let expiring = DemoTokens(clock: { moving.now })
        let token = await expiring.issue().token
        moving.advance(by: 59)
        #expect(await expiring.state(of: token) == .valid)
        moving.advance(by: 2)
        #expect(await expiring.state(of: token) == .expired)
    }

    @Test func aFailedPrerequisiteStopsTheSequence() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let wrong = try fixture.collection.endpoint(named: "Auth/Login")
        var collection = fixture.collection
        // The same collection with a wrong password: the login fails its status assertion.
        collection = try CollectionLoader.parse(
            try CollectionWriter.yaml(for: collection).replacingOccurrences(
                of: "password: lovelace", with: "password: nope"))
        #expect(wrong.assertions.count == 5)
        let environment = try #require(collection.environment(named: "local"))
        let transport = fixture.transport
        let runner = SequenceRunner<Int>(collection: collection, environment: environment, store: nil) { resolved in
            let response = try? await NetworkDispatcher(serverProvider: resolved.environment, transport: transport)
                .future(from: resolved.request).value
            return SentExchange(
                response: response.map {
                    CheckedResponse(
                        status: $0.statusCode.code, headers: $0.headers, body: $0.body ?? Data(),
                        durationMilliseconds: 1)
                }, failure: nil, record: 0)
        }
        let steps = await runner.run(try collection.endpoint(named: "Auth/Me after login"))
        #expect(steps.map(\.endpoint.id) == ["Auth/Login"])
        #expect(steps.first?.outcome == .failed)
        #expect(steps.first?.report.failureLines.first == "✗ status == 200: expected == 200, got 401")
        #expect(steps.first?.report.captureFailures.first == "session_token: the JSONPath $.token selects nothing")
    }

    @Test func retrySendsAgainUntilTheAssertionsPass() async throws {
        // Each POST creates a user with the next id: "jsonpath $.id >= N" passes on the third send.
        let threshold = (DemoSeed.users(for: "local").map(\.id).max() ?? 0) + 3
        let fixture = try await Fixture.start(
            extraYAML: """
                  - folder: Retry
                    endpoints:
                      - name: Create until the id is high
                        method: POST
                        path: /users
                        json: { name: Grace, email: grace@example.com }
                        assert:
                          - status == 201
                          - jsonpath $.id >= \(threshold)
                        retry: { count: 5, interval: 10ms }
                      - name: Never
                        path: /users/1
                        assert: [status == 500]
                        retry: { count: 2, interval: 1ms }

                """)
        defer { Task { await fixture.stop() } }
        let runner = try fixture.runner()
        let step = try #require(
            await runner.run(try fixture.collection.endpoint(named: "Retry/Create until the id is high")).last)
        #expect(step.outcome == .passed)
        #expect(step.attempts == 3)
        let never = try #require(await runner.run(try fixture.collection.endpoint(named: "Retry/Never")).last)
        #expect(never.outcome == .failed)
        #expect(never.attempts == 3, "the first send and two retries")
    }
}

/// A clock a test moves by hand.
final class MovingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
