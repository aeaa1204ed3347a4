import Foundation
import Networking
import Testing

@Suite struct DispatcherTests {
    @Test func getReachesTheServerAndTheResponseCarriesItsRequestAndTimings() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let environment = server.environment
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/echo/hello", headers: ["X-Trace": "1"]))
            .value

        #expect(response.statusCode == .ok)
        #expect(response.statusCode.reasonPhrase == "OK")
        #expect(response.error == nil)
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.request.url.absoluteString == "\(server.baseURL.absoluteString)/echo/hello")
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.timings.headReceived != nil)
        #expect(response.timings.bytesReceived == response.body?.count)
        let echo = try response.decode(Echo.self)
        #expect(echo.method == "GET")
        #expect(echo.header("x-trace") == "1")
    }

    @Test func theBasePathIsKeptAndNoStrayQuestionMarkIsAdded() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let environment = TestEnvironment(server.baseURL.appendingPathComponent("v1"))
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        let echo = try await dispatcher.future(from: BasicRequest(path: "/posts")).ensureDecoded(Echo.self).value.body
        #expect(echo.uri == "/v1/posts")

        environment.switchTo(URL(string: "\(server.baseURL.absoluteString)/v1/")!)
        let trailing = try await dispatcher.future(from: BasicRequest(path: "posts/1")).ensureDecoded(Echo.self).value
            .body
        #expect(trailing.uri == "/v1/posts/1")
    }

    @Test func pathAndQueryArePercentEncoded() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let environment = TestEnvironment(server.baseURL.appendingPathComponent("api"))
        defer { withExtendedLifetime(environment) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)
        let request = BasicRequest(
            path: "/users/jane doe/café",
            queryItems: [
                URLQueryItem(name: "q", value: "a&b=c d+e"),
                URLQueryItem(name: "flag", value: nil),
                URLQueryItem(name: "emoji", value: "☕"),
            ])

        let echo = try await dispatcher.future(from: request).ensureDecoded(Echo.self).value.body

        #expect(echo.uri == "/api/users/jane%20doe/caf%C3%A9?q=a%26b%3Dc%20d%2Be&flag&emoji=%E2%98%95")
    }

    @Test func switchingTheEnvironmentChangesTheNextRequestsServer() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let environment = TestEnvironment(first.baseURL)
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        _ = try await dispatcher.future(from: BasicRequest(path: "/echo/a")).value
        environment.switchTo(second.baseURL)
        let response = try await dispatcher.future(from: BasicRequest(path: "/echo/a")).value

        #expect(first.hits("/echo/a") == 1)
        #expect(second.hits("/echo/a") == 1)
        #expect(response.request.url.port == second.port)
    }

    @Test func anAbsolutePathIsSentToItsOwnServerWithoutTheBasePathOrQuery() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let environment = TestEnvironment(URL(string: "\(first.baseURL.absoluteString)/v1?key=1")!)
        defer { withExtendedLifetime(environment) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        let relative = try await dispatcher.future(from: BasicRequest(path: "/echo/a")).value
        let absolute = try await dispatcher.future(
            from: BasicRequest(
                path: "\(second.baseURL.absoluteString)/echo/b?x=1",
                queryItems: [URLQueryItem(name: "y", value: "2 3")])
        ).value

        #expect(relative.request.url.absoluteString == "\(first.baseURL.absoluteString)/v1/echo/a?key=1")
        #expect(absolute.request.url.absoluteString == "\(second.baseURL.absoluteString)/echo/b?x=1&y=2%203")
        #expect(second.hits("/echo/b") == 1)
        #expect(first.hits("/echo/b") == 0)
    }

    @Test func aReleasedProviderOrAMissingBaseURLFailsWithAClearError() async throws {
        var environment: TestEnvironment? = TestEnvironment(URL(string: "http://127.0.0.1:9")!)
        let dispatcher = NetworkDispatcher(serverProvider: environment!, transport: sharedTransport)
        environment = nil

        await #expect(throws: TransportError.serverProviderReleased) {
            try await dispatcher.future(from: BasicRequest(path: "/")).value
        }

        let empty = TestEnvironment(nil)
        let second = NetworkDispatcher(serverProvider: empty, transport: sharedTransport)
        await #expect(throws: TransportError.missingBaseURL) {
            try await second.future(from: BasicRequest(path: "/")).value
        }
        #expect(TransportError.missingBaseURL.description.contains("base URL"))
    }

    @Test func aThrowingRequestBuilderFailsTheFuture() async throws {
        struct BuildFailed: Error {}
        let environment = TestEnvironment(URL(string: "http://127.0.0.1:9")!)
        defer { withExtendedLifetime(environment) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        await #expect(throws: BuildFailed.self) {
            try await dispatcher.future(from: { () throws -> any Request in throw BuildFailed() }).value
        }
    }

    @Test func callbacksRunOnTheCallbackQueueAndCompletionRunsOnceAfterTheResponse() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let queue = DispatchQueue(label: "test.callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "callbacks")
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, callbackQueue: queue)
        let counter = CallCounter()

        dispatcher.future(from: BasicRequest(path: "/echo"))
            .response { _ in
                if DispatchQueue.getSpecific(key: key) == "callbacks" { counter.hit("response on queue") }
            }
            .error { _ in counter.hit("error") }
            .completion {
                if counter.count("response on queue") == 1 { counter.hit("completion after response") }
            }
            .send()

        #expect(await eventually { counter.count("completion after response") == 1 })
        #expect(counter.count("error") == 0)
    }
}
