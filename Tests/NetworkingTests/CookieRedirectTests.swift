import Foundation
import Networking
import Testing

/// Cookies across redirects (RFC 6265 §5.3, §5.4, as browsers and curl `-L -b -c`): what a
/// redirect's `Set-Cookie` says is kept before the next hop is requested, and each hop carries
/// the jar's cookies for its own URL, against a real server on 127.0.0.1.
@Suite struct CookieRedirectTests {
    @Test func aLoginAnsweredWithARedirectAndASessionCookieReachesTheHomePageSignedIn() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)

        let response = try await dispatcher.future(
            from: BasicRequest(method: .post, path: "/login", httpBody: Data("user=ada&password=x".utf8))
        )
        .ensureString().value

        #expect(response.statusCode == .ok)
        #expect(response.body == "welcome (GET)")
        #expect(response.timings.redirects.map(\.status.code) == [302])
        #expect(jar.cookies().map { "\($0.name)=\($0.value)" } == ["session=s3ss10n"])
    }

    @Test(arguments: [302, 303, 307, 301, 308])
    func aCookieSetOnARedirectIsSentToWhereItLeads(status: Int) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: CookieJar())

        let request = BasicRequest(
            path: "/cookies/redirect/\(status)", queryItems: [URLQueryItem(name: "hop", value: "\(status)")])
        let echoed = try await dispatcher.future(from: request).ensureValidResponse().ensureString().value

        #expect(echoed.body == "hop=\(status)")
    }

    @Test func eachHopCarriesTheCookiesOfTheHopsBeforeIt() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar(cookies: [Cookie(name: "before", value: "0", domain: "127.0.0.1")])
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)
        let last = "/cookies/redirect/307?to=/cookies/show&third=3"
        let second =
            "/cookies/redirect/303?to=\(last.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&second=2"

        let echoed = try await dispatcher.stream(
            from: BasicRequest(
                path: "/cookies/redirect/302",
                queryItems: [
                    URLQueryItem(name: "to", value: second), URLQueryItem(name: "first", value: "1"),
                ]))
        var body = Data()
        for try await chunk in echoed.body { body.append(chunk) }

        #expect(echoed.redirects.count == 3)
        #expect(String(decoding: body, as: UTF8.self) == "before=0; first=1; second=2; third=3")
    }

    @Test func aCookieSetForOneHostIsKeptButNotSentToTheHostARedirectLeadsTo() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)

        let elsewhere = "http://localhost:\(server.port)/cookies/show"
        let echoed = try await dispatcher.future(
            from: BasicRequest(
                path: "/cookies/redirect/302",
                queryItems: [
                    URLQueryItem(name: "to", value: elsewhere), URLQueryItem(name: "session", value: "local"),
                ])
        ).ensureValidResponse().ensureString().value

        #expect(echoed.body == "")
        #expect(jar.cookies().map(\.domain) == ["127.0.0.1"])
    }

    @Test func aCookieHeaderOfTheRequestsOwnStaysWithItsOriginAndTheJarDoesNotAddToIt() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)

        let same = try await dispatcher.future(
            from: BasicRequest(
                path: "/cookies/redirect/302", queryItems: [URLQueryItem(name: "set", value: "1")],
                headers: ["Cookie": "mine=1"])
        ).ensureString().value
        let other = try await dispatcher.future(
            from: BasicRequest(
                path: "/cookies/redirect/302",
                queryItems: [
                    URLQueryItem(name: "to", value: "http://localhost:\(server.port)/cookies/show")
                ], headers: ["Cookie": "mine=1"])
        ).ensureString().value

        #expect(same.body == "mine=1")
        #expect(other.body == "")
    }
}
