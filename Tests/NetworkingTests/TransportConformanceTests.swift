import Foundation
import Networking
import Testing

/// The transports that must behave the same.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    func make() -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient: return sharedTransport
        case .urlSession: return sharedURLSessionTransport
        }
    }
}

let sharedURLSessionTransport = URLSessionTransport()

/// One suite, run against every transport.
@Suite struct TransportConformanceTests {
    @Test(arguments: TransportKind.allCases)
    func sendsMethodHeadersAndBodyAndReadsTheResponse(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())
        var request = BasicRequest(
            method: .post, path: "/echo/x", queryItems: [URLQueryItem(name: "a", value: "b c")],
            headers: ["X-Custom": "yes"])
        request.setJSONBody(string: #"{"k":"v"}"#)

        let response = try await dispatcher.future(from: request).ensureValidResponse().ensureDecoded(Echo.self).value

        #expect(response.statusCode == .ok)
        #expect(response.headers["CONTENT-TYPE"] == "application/json")
        #expect(response.body.method == "POST")
        #expect(response.body.uri == "/echo/x?a=b%20c")
        #expect(response.body.header("x-custom") == "yes")
        #expect(response.body.body == #"{"k":"v"}"#)
    }

    @Test(arguments: TransportKind.allCases)
    func keepsErrorBodies(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())

        let response = try await dispatcher.future(from: BasicRequest(path: "/status/422")).value

        #expect(response.statusCode == .unprocessableContent)
        #expect(response.error?.body == Data("body of 422".utf8))
    }

    @Test(arguments: TransportKind.allCases)
    func followsRedirectsWithHistory(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())

        let response = try await dispatcher.future(from: BasicRequest(path: "/redirect/2")).ensureString().value

        #expect(response.body == "arrived")
        #expect(response.url.path == "/redirect/0")
        #expect(response.timings.redirects.map(\.to.path) == ["/redirect/1", "/redirect/0"])
    }

    @Test(arguments: TransportKind.allCases)
    func decompressesGzip(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())

        #expect(
            try await dispatcher.future(from: BasicRequest(path: "/gzip")).ensureString().value.body == "hello gzip")
    }

    @Test(arguments: TransportKind.allCases)
    func reportsARefusedConnection(_ kind: TransportKind) async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let environment = TestEnvironment(URL(string: "http://127.0.0.1:\(port)")!)
        defer { withExtendedLifetime((environment, refusing)) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: kind.make())

        await #expect(throws: TransportError.connectionRefused(host: "127.0.0.1", port: port)) {
            try await dispatcher.future(from: BasicRequest(path: "/")).value
        }
    }

    @Test(arguments: TransportKind.allCases)
    func timesOutOnAStallingServer(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(
                from: BasicRequest(path: "/stall"), options: TransferOptions(timeout: .milliseconds(500))
            ).value
        }
        guard case .timedOut = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellationClosesTheConnection(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())

        let task = Task { try await dispatcher.future(from: BasicRequest(path: "/stall")).value }
        #expect(await eventually { server.hits("/stall") == 1 })
        task.cancel()

        await #expect(throws: TransportError.cancelled) { try await task.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test(arguments: TransportKind.allCases)
    func streamsWithProgressAndEnforcesTheBodyLimit(_ kind: TransportKind) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: kind.make())
        let last = Locked64()

        let response = try await dispatcher.future(
            from: BasicRequest(path: "/bytes/3000000"), options: TransferOptions(bodyDestination: .discard)
        )
        .progress { last.set($0.completedBytes) }
        .value
        #expect(response.body == nil)
        #expect(response.timings.bytesReceived == 3_000_000)
        #expect(await eventually { last.get() == 3_000_000 })

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(
                from: BasicRequest(path: "/bytes/3000000"), options: TransferOptions(maximumBodySize: 1000)
            ).value
        }
        guard case .bodyTooLarge = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
    }
}
