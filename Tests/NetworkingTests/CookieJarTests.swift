import Foundation
import Networking
import Testing

/// RFC 6265 cookies: what `Set-Cookie` stores and which requests get it back, by rule and
/// against the test server's `/cookies` routes.
@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let site = URL(string: "https://api.example.com/v1/login")!

    @Test func aHostOnlyCookieGoesBackToItsHostAndPathOnly() {
        let jar = CookieJar()
        jar.store(setCookie: ["session=abc; Path=/v1; HttpOnly; SameSite=Lax"], from: site, now: now)

        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v1/users")!, now: now) == "session=abc")
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v2")!, now: now) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v10")!, now: now) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://www.api.example.com/v1")!, now: now) == nil)
        let cookie = jar.cookies(at: now)[0]
        #expect(cookie.httpOnly && cookie.sameSite == "Lax" && cookie.hostOnly && cookie.expires == nil)
    }

    @Test func aDomainCookieReachesSubdomainsButNotOtherSites() {
        let jar = CookieJar()
        jar.store(
            setCookie: ["a=1; Domain=.example.com; Path=/", "evil=1; Domain=example.org", "tld=1; Domain=com"],
            from: site, now: now)

        #expect(jar.cookieHeader(for: URL(string: "https://www.example.com/")!, now: now) == "a=1")
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/x")!, now: now) == "a=1")
        #expect(jar.cookieHeader(for: URL(string: "https://notexample.com/")!, now: now) == nil)
        #expect(jar.cookies(at: now).map(\.name) == ["a"])
    }

    @Test func theLastDomainAttributeIsTheOneThatCounts() {
        let jar = CookieJar()
        let home = URL(string: "http://home.example.org/cookie-parser")!
        jar.store(
            setCookie: [
                "a=1; domain=home.example.com; domain=home.example.org",
                "b=2; domain=home.example.org; domain=home.example.com",
                "c=3; domain=home.example.org; domain=example.org",
            ], from: home, now: now)

        #expect(jar.cookies(at: now).map { "\($0.name)@\($0.domain)" } == ["a@home.example.org", "c@example.org"])
        #expect(jar.cookieHeader(for: URL(string: "http://sibling.example.org/")!, now: now) == "c=3")
    }

    @Test func aDomainThatIsAPublicSuffixIsRefusedUnlessItIsTheHostItself() {
        let jar = CookieJar()
        jar.store(
            setCookie: ["uk=1; Domain=co.uk", "site=2; Domain=example.co.uk"],
            from: URL(string: "https://www.example.co.uk/")!, now: now)
        jar.store(
            setCookie: ["pages=3; Domain=github.io", "mine=4; Domain=me.github.io"],
            from: URL(string: "https://me.github.io/")!, now: now)
        jar.store(setCookie: ["own=5; Domain=github.io"], from: URL(string: "https://github.io/")!, now: now)

        #expect(jar.cookieHeader(for: URL(string: "https://other.co.uk/")!, now: now) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://you.github.io/")!, now: now) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://shop.example.co.uk/")!, now: now) == "site=2")
        #expect(jar.cookieHeader(for: URL(string: "https://me.github.io/")!, now: now) == "mine=4")
        // The host that is a public suffix keeps its cookie for itself alone.
        #expect(jar.cookieHeader(for: URL(string: "https://github.io/")!, now: now) == "own=5")
        #expect(jar.cookies(at: now).first { $0.name == "own" }?.hostOnly == true)
    }

    @Test func onlyLoopbackAddressesAndLocalhostNamesAreSecureOverPlainHTTP() {
        let jar = CookieJar()
        let loopback = [
            "http://127.0.0.1:8080/", "http://127.8.9.10/", "http://[::1]:8080/", "http://localhost/",
            "http://app.localhost/",
        ]
        for (index, url) in loopback.enumerated() {
            jar.store(setCookie: ["l\(index)=1; Secure"], from: URL(string: url)!, now: now)
            #expect(jar.cookieHeader(for: URL(string: url)!, now: now) == "l\(index)=1", "\(url) is loopback")
        }
        // Names that only start like loopback are names: a Secure cookie is neither set from them
        // over http nor sent to them.
        for url in [
            "http://127.evil.example/", "http://127.0.0.1.evil.example/", "http://localhost.evil.example/",
            "http://[::2]/",
        ] {
            jar.store(setCookie: ["planted=p; Secure"], from: URL(string: url)!, now: now)
        }
        #expect(!jar.cookies(at: now).contains { $0.name == "planted" })
        jar.store(setCookie: ["token=t; Secure"], from: URL(string: "https://127.evil.example/")!, now: now)
        #expect(jar.cookieHeader(for: URL(string: "https://127.evil.example/")!, now: now) == "token=t")
        #expect(jar.cookieHeader(for: URL(string: "http://127.evil.example/")!, now: now) == nil)
    }

    @Test func aPathWithATrailingSlashMatchesTheSamePathRequested() {
        let jar = CookieJar()
        let url = URL(string: "http://home.example.org/cookie-parser")!
        jar.store(setCookie: ["foo=bar; path=/cookie-parser-result/foo/qux/"], from: url, now: now)

        #expect(
            jar.cookieHeader(for: URL(string: "http://home.example.org/cookie-parser-result/foo/qux/?x")!, now: now)
                == "foo=bar")
        #expect(
            jar.cookieHeader(for: URL(string: "http://home.example.org/cookie-parser-result/foo/qux")!, now: now) == nil
        )
    }

    @Test func expiryComesFromMaxAgeBeforeExpiresAndAPastDateDeletes() {
        let jar = CookieJar()
        jar.store(
            setCookie: [
                "short=1; Max-Age=60; Expires=Wed, 09 Jun 2100 10:18:14 GMT",
                "long=2; Expires=Wed, 09 Jun 2100 10:18:14 GMT",
            ], from: site, now: now)
        #expect(jar.cookieHeader(for: site, now: now) == "short=1; long=2")
        #expect(jar.cookieHeader(for: site, now: now.addingTimeInterval(61)) == "long=2")

        jar.store(setCookie: ["long=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: site, now: now)
        #expect(jar.cookieHeader(for: site, now: now) == "short=1")
        jar.store(setCookie: ["short=x; Max-Age=0"], from: site, now: now)
        #expect(jar.cookies(at: now).isEmpty)
    }

    @Test func secureCookiesTravelOverHTTPSOnlyAndAreNeverSetOverHTTP() {
        let jar = CookieJar()
        jar.store(setCookie: ["token=t; Secure; Path=/"], from: site, now: now)
        jar.store(setCookie: ["planted=p; Secure; Path=/"], from: URL(string: "http://api.example.com/")!, now: now)

        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/")!, now: now) == "token=t")
        #expect(jar.cookieHeader(for: URL(string: "http://api.example.com/")!, now: now) == nil)

        // The machine itself is a secure context (as browsers and curl treat loopback).
        jar.store(setCookie: ["local=l; Secure"], from: URL(string: "http://127.0.0.1:8080/")!, now: now)
        #expect(jar.cookieHeader(for: URL(string: "http://127.0.0.1:8080/x")!, now: now) == "local=l")
    }

    @Test func longerPathsComeFirstAndAReplacedCookieKeepsItsPlace() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Path=/"], from: site, now: now)
        jar.store(setCookie: ["b=2; Path=/v1"], from: site, now: now.addingTimeInterval(1))
        jar.store(setCookie: ["c=3; Path=/"], from: site, now: now.addingTimeInterval(2))
        jar.store(setCookie: ["a=changed; Path=/"], from: site, now: now.addingTimeInterval(3))

        #expect(jar.cookieHeader(for: site, now: now.addingTimeInterval(4)) == "b=2; a=changed; c=3")
    }

    @Test func malformedAndOversizedCookiesAreIgnoredAndTheJarIsBounded() {
        let jar = CookieJar(maximumPerDomain: 3, maximumCount: 5)
        jar.store(
            setCookie: ["no-equals-sign", "=nameless", "big=" + String(repeating: "x", count: 5000)], from: site,
            now: now)
        #expect(jar.cookies(at: now).isEmpty)

        for index in 0..<5 {
            jar.store(setCookie: ["c\(index)=\(index); Path=/"], from: site, now: now.addingTimeInterval(Double(index)))
        }
        #expect(jar.cookies(at: now).map(\.name) == ["c2", "c3", "c4"])
    }

    @Test func theRevisionMovesOnlyWhenTheJarChanges() {
        let jar = CookieJar()
        let start = jar.revision
        jar.store(setCookie: ["no-equals-sign"], from: site, now: now)
        #expect(jar.revision == start)
        jar.store(setCookie: ["a=1"], from: site, now: now)
        #expect(jar.revision == start + 1)
        jar.remove()
        #expect(jar.revision == start + 2)
    }

    @Test func aDispatcherWithAJarKeepsWhatTheServerSetsAndSendsItBack() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar()
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)

        _ = try await dispatcher.future(
            from: BasicRequest(path: "/cookies/set", queryItems: [URLQueryItem(name: "session", value: "s1")])
        )
        .ensureValidResponse().value
        let streamed = try await dispatcher.stream(
            from: BasicRequest(path: "/cookies/set", queryItems: [URLQueryItem(name: "theme", value: "dark")]))
        for try await _ in streamed.body {}
        let echoed = try await dispatcher.future(from: BasicRequest(path: "/cookies/show")).ensureValidResponse()
            .ensureString().value

        #expect(echoed.body == "session=s1; theme=dark")
        #expect(jar.cookies().map(\.domain) == ["127.0.0.1", "127.0.0.1"])
        let outside = try await dispatcher.future(from: BasicRequest(path: "/echo")).ensureValidResponse()
            .ensureString().value
        #expect(outside.body.contains("session=s1") == false)
    }

    @Test func anExplicitCookieHeaderWinsOverTheJar() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let jar = CookieJar(cookies: [Cookie(name: "session", value: "jar", domain: "127.0.0.1")])
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, cookieJar: jar)

        let echoed = try await dispatcher.future(
            from: BasicRequest(path: "/cookies/show", headers: ["Cookie": "session=mine"])
        ).ensureString().value

        #expect(echoed.body == "session=mine")
    }
}
