import Demo
import Foundation
import NetworkingCore
import Testing
import Workspace

@testable import Measure

/// Two demo servers, compared: the same environment of each answers alike but for the request
/// id (and the date), and different environments differ where the demo's data does.
@Suite(.serialized) struct DemoComparisonTests {
    /// GETs a path of one demo environment through a dispatcher, as a side of a comparison.
    func fetch(_ path: String, from environment: DemoEnvironment) async throws -> ComparedExchange {
        let provider = FixedServer(environment.baseURL)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { withExtendedLifetime(provider) {} }
        let dispatcher = NetworkDispatcher(
            serverProvider: provider, transport: transport, callbackQueue: DispatchQueue(label: "compare-test"))
        let response = try await dispatcher.future(from: BasicRequest(path: path)).value
        try await transport.shutdown()
        return ComparedExchange(
            environment: environment.name, method: "GET", url: response.url.absoluteString,
            status: response.statusCode.code, reason: response.statusCode.reasonPhrase,
            headers: response.headers, body: response.body ?? Data(),
            milliseconds: (response.timings.total ?? 0) * 1000)
    }

    func rules(_ texts: [String]) throws -> CompareRules {
        CompareRules(ignore: try texts.map { try CompareRules.IgnoreRule(parsing: $0) })
    }

    @Test func theSameEnvironmentOfTwoServersDiffersOnlyInItsRequestId() async throws {
        let first = try await DemoServer.start(port: 0)
        let second = try await DemoServer.start(port: 0)
        let a = try await fetch("/users/1", from: first.environments[0])
        let b = try await fetch("/users/1", from: second.environments[0])
        await first.stop()
        await second.stop()

        let plain = ResponseComparison(a, b, rules: try rules(["header Date"]))
        #expect(!plain.statusDiffers)
        #expect(plain.body == .same)
        #expect(plain.headers.map(\.name) == ["X-Request-Id"])
        #expect(!plain.matches)

        let ignoring = ResponseComparison(a, b, rules: try rules(["header x-request-id", "header Date"]))
        #expect(ignoring.matches)
        #expect(ignoring.reportLines().suffix(3) == ["status   same", "headers  same", "body     same"])
    }

    @Test func localAndProductionDifferInTheUsersEmailAndItsHeaders() async throws {
        let server = try await DemoServer.start(port: 0)
        let local = try await fetch("/users/1", from: server.environments[0])
        let production = try await fetch("/users/1", from: server.environments[2])
        await server.stop()

        let comparison = ResponseComparison(
            local, production, rules: try rules(["header X-Request-Id", "header Date"]))
        #expect(comparison.headers.map(\.name) == ["Content-Length", "X-Demo-Environment"])
        #expect(
            comparison.headers.last
                == HeaderDifference(name: "X-Demo-Environment", first: "local", second: "production"))
        guard case .json(let result) = comparison.body else {
            Issue.record("expected a JSON difference, got \(comparison.body)")
            return
        }
        #expect(
            result.differences == [
                JSONDifference(
                    kind: .string, path: "$.email", first: "ada@example.com", second: "ada@production.example.com")
            ])
        let lines = comparison.reportLines()
        #expect(lines.contains(#"  ~ $.email: "ada@example.com" | "ada@production.example.com""#))
        #expect(lines.contains("  X-Demo-Environment: local | production"))

        // Ignoring the email and the headers that follow from it, they match.
        let relaxed = ResponseComparison(
            local, production,
            rules: try rules(
                ["$.email", "header X-Request-Id", "header Date", "header Content-Length", "header X-Demo-Environment"])
        )
        #expect(relaxed.matches)
    }

    @Test func stagingAndProductionPostsAreMatchedById() async throws {
        let server = try await DemoServer.start(port: 0)
        let staging = try await fetch("/posts", from: server.environments[1])
        let production = try await fetch("/posts", from: server.environments[2])
        await server.stop()

        let comparison = ResponseComparison(
            staging, production, rules: try rules(["header X-Request-Id", "header Date"]))
        guard case .json(let result) = comparison.body else {
            Issue.record("expected a JSON difference, got \(comparison.body)")
            return
        }
        let paths = result.differences.map(\.path)
        // Posts 1-3 are in both (their titles and bodies say the environment); 4 and 5 only in staging.
        #expect(paths.contains("$.environment"))
        #expect(paths.contains("$.items[?@.id==1].title"))
        #expect(paths.contains("$.items[?@.id==3].body"))
        #expect(
            result.differences.filter { $0.kind == .removed }.map(\.path) == ["$.items[?@.id==4]", "$.items[?@.id==5]"])
        #expect(!result.differences.contains { $0.path.contains("tags") || $0.path.contains("userId") })

        // Ignoring every title and body leaves the environment's name, the total and the two posts.
        let relaxed = ResponseComparison(
            staging, production,
            rules: try rules(
                ["header X-Request-Id", "header Date", "$.items[*].title", "$.items[*].body"]))
        guard case .json(let rest) = relaxed.body else {
            Issue.record("expected a JSON difference, got \(relaxed.body)")
            return
        }
        #expect(!rest.differences.contains { $0.path.hasSuffix(".title") || $0.path.hasSuffix(".body") })
        #expect(rest.differences.filter { $0.kind == .removed }.count == 2)
    }
}
