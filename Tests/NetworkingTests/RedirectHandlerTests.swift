import Foundation
import Networking
import Testing

/// `RedirectHandler`, the hook a transport asks before each redirect hop, used through the
/// public API: `TransferOptions(redirectHandler:)` on `AsyncHTTPClientTransport`, against a real
/// server on 127.0.0.1 that answers a redirect and then echoes what arrives.
@Suite struct RedirectHandlerTests {
    /// Adds a header naming the redirect's status to the next hop.
    struct MarkingHandler: RedirectHandler {
        func request(following redirect: ResponseHead, to request: PreparedRequest, next: PreparedRequest) async throws
            -> PreparedRequest
        {
            var next = next
            next.headers["X-Followed"] = "\(redirect.status.code) from \(request.url.path)"
            return next
        }
    }

    /// Refuses every hop.
    struct RefusingHandler: RedirectHandler {
        struct Refused: Error, Equatable { let location: String }
        func request(following redirect: ResponseHead, to request: PreparedRequest, next: PreparedRequest) async throws
            -> PreparedRequest
        {
            throw Refused(location: next.url.path)
        }
    }

    /// Uses the protocol's default: the hop as the transport built it.
    struct DefaultHandler: RedirectHandler {}

    private func redirect(_ server: TestServer) -> PreparedRequest {
        PreparedRequest(url: URL(string: server.baseURL.absoluteString + "/redirect-to?status=302&url=/echo/after")!)
    }

    private func echoedHeaders(_ response: TransportResponse) throws -> [String: String] {
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body ?? Data()) as? [String: Any])
        #expect(echo["path"] as? String == "/echo/after")
        return Dictionary(
            (echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { $1 })
    }

    @Test func theHandlerShapesTheNextHopsRequest() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let response = try await sharedTransport.send(
            redirect(server), options: TransferOptions(redirectHandler: MarkingHandler())
        ) { _ in }
        #expect(response.status.code == 200)
        #expect(try echoedHeaders(response)["x-followed"] == "302 from /redirect-to")
        #expect(response.redirects.map(\.status.code) == [302])
    }

    @Test func anErrorTheHandlerThrowsFailsTheRequest() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await #expect(throws: RefusingHandler.Refused(location: "/echo/after")) {
            _ = try await sharedTransport.send(
                redirect(server), options: TransferOptions(redirectHandler: RefusingHandler())
            ) { _ in }
        }
    }

    @Test func throughADispatcherTheOptionsHandlerIsAskedAfterTheDispatchersOwn() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let redirecting = BasicRequest(
            path: "/redirect-to",
            queryItems: [URLQueryItem(name: "status", value: "302"), URLQueryItem(name: "url", value: "/echo/after")])
        func followed(_ response: Response<Data?>) throws -> String? {
            try echoedHeaders(
                TransportResponse(
                    status: response.statusCode, headers: response.headers, body: response.body, url: response.url)
            )["x-followed"]
        }

        let marked = try await dispatcher.future(
            from: redirecting, options: TransferOptions(redirectHandler: MarkingHandler())
        ).value
        #expect(marked.timings.redirects.map(\.status.code) == [302])
        #expect(try followed(marked) == "302 from /redirect-to")

        // Without a handler in the options, the dispatcher's own follows the hop as built.
        let plain = try await dispatcher.future(from: redirecting).value
        #expect(plain.timings.redirects.map(\.status.code) == [302])
        #expect(try followed(plain) == nil)
    }

    @Test func theDefaultImplementationSendsTheHopAsBuilt() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let response = try await sharedTransport.send(
            redirect(server), options: TransferOptions(redirectHandler: DefaultHandler())
        ) { _ in }
        #expect(response.status.code == 200)
        #expect(try echoedHeaders(response)["x-followed"] == nil)
    }
}
