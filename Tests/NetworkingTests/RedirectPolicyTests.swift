import Foundation
import Networking
import Testing

/// What each redirect status does to the next request, as curl `-L` and browsers (Fetch's
/// HTTP-redirect fetch): 301 and 302 turn a POST into a GET without a body, 303 turns every
/// method but HEAD into one, 307 and 308 keep the method and the body. Against a real server on
/// 127.0.0.1 that answers the status and then echoes what arrives.
@Suite struct RedirectPolicyTests {
    /// One case: a status, the method sent, and the method and body expected after the hop.
    struct Case: Sendable, CustomTestStringConvertible {
        let status: Int
        let method: HTTPMethod
        let arrives: HTTPMethod
        let keepsBody: Bool
        var testDescription: String { "\(method) answered \(status) → \(arrives)\(keepsBody ? " with its body" : "")" }
    }

    static let cases: [Case] = [
        Case(status: 301, method: .post, arrives: .get, keepsBody: false),
        Case(status: 302, method: .post, arrives: .get, keepsBody: false),
        Case(status: 303, method: .post, arrives: .get, keepsBody: false),
        Case(status: 307, method: .post, arrives: .post, keepsBody: true),
        Case(status: 308, method: .post, arrives: .post, keepsBody: true),
        Case(status: 301, method: .put, arrives: .put, keepsBody: true),
        Case(status: 302, method: .patch, arrives: .patch, keepsBody: true),
        Case(status: 303, method: .put, arrives: .get, keepsBody: false),
        Case(status: 303, method: .delete, arrives: .get, keepsBody: false),
        Case(status: 307, method: .put, arrives: .put, keepsBody: true),
        Case(status: 308, method: .delete, arrives: .delete, keepsBody: true),
    ]

    @Test(arguments: cases)
    func eachStatusChangesTheMethodAndBodyAsCurlAndBrowsersDo(_ hop: Case) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let request = BasicRequest(
            method: hop.method, path: "/redirect-to",
            queryItems: [
                URLQueryItem(name: "status", value: "\(hop.status)"), URLQueryItem(name: "url", value: "/echo/after"),
            ], headers: ["Content-Type": "text/plain"], httpBody: Data("the body".utf8))

        let response = try await dispatcher.future(from: request).ensureValidResponse().ensureData().value
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let headers = (echo["headers"] as? [[String]] ?? []).map { $0[0].lowercased() }

        #expect(echo["method"] as? String == hop.arrives.rawValue)
        #expect(echo["path"] as? String == "/echo/after")
        #expect(echo["body"] as? String == (hop.keepsBody ? "the body" : ""))
        #expect(headers.contains("content-type") == hop.keepsBody)
        #expect(response.timings.redirects.map(\.status.code) == [hop.status])
    }

    @Test func aHeadAnswered303StaysAHead() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(
            from: BasicRequest(
                method: .head, path: "/redirect-to",
                queryItems: [
                    URLQueryItem(name: "status", value: "303"), URLQueryItem(name: "url", value: "/redirect/0"),
                ])
        ).value

        #expect(response.statusCode == .ok)
        #expect(server.hits("/redirect/0") == 1)
        #expect(response.timings.redirects.map(\.status.code) == [303])
    }

    @Test func eachHopIsRecordedWithItsStatusLocationAndTime() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/redirect/2")).value

        #expect(response.timings.redirects.map(\.location) == ["/redirect/1", "/redirect/0"])
        #expect(response.timings.redirects.map(\.from.path) == ["/redirect/2", "/redirect/1"])
        #expect(response.timings.redirects.allSatisfy { ($0.duration ?? -1) >= 0 })
    }

    @Test func theHopLimitOfARequestWinsOverTheTransports() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let three = try await dispatcher.future(
            from: BasicRequest(path: "/redirect/3"), options: TransferOptions(maximumRedirects: 3)
        ).value
        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(
                from: BasicRequest(path: "/redirect/3"), options: TransferOptions(maximumRedirects: 2)
            ).value
        }

        #expect(three.statusCode == .ok)
        #expect(error == .tooManyRedirects(url: server.baseURL.appendingPathComponent("redirect/3"), limit: 2))
        #expect(error?.description.contains("more than 2 times") == true)
        #expect(server.hits("/redirect/0") == 1)
    }

    @Test func aRequestOrAPolicyCanLeaveRedirectsUnfollowed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let following = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let notFollowing = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport,
            redirectPolicy: RedirectPolicy(followsRedirects: false))

        let byOptions = try await following.future(
            from: BasicRequest(path: "/redirect/1"), options: TransferOptions(followsRedirects: false)
        ).value
        let byPolicy = try await notFollowing.future(
            from: BasicRequest(path: "/redirect/1"), options: TransferOptions(followsRedirects: true)
        ).value

        for response in [byOptions, byPolicy] {
            #expect(response.statusCode == .found)
            #expect(response.headers["location"] == "/redirect/0")
            #expect(response.timings.redirects.isEmpty)
        }
        #expect(server.hits("/redirect/0") == 0)
    }

    @Test func aURLSeenBeforeIsFollowedAgainAsCurlDoes() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: CookieJar())

        let response = try await dispatcher.future(from: BasicRequest(path: "/once")).ensureString().value

        #expect(response.body == "second visit")
        #expect(response.timings.redirects.map(\.to.path) == ["/once"])
    }
}
