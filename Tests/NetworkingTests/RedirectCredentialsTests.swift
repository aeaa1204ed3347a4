import Foundation
import Networking
import Testing

/// Credentials stay with their origin: on a redirect to another origin a dispatcher sends no
/// header its `RedirectPolicy` names a credential, and an https URL does not fall back to plain
/// http unless allowed. Two real servers on 127.0.0.1 (two ports, so two origins).
@Suite struct RedirectCredentialsTests {
    let credentials: HTTPHeaders = [
        "Authorization": "Bearer t0ken", "Cookie": "session=s1", "X-Api-Key": "k3y", "X-Auth-Token": "t0k",
        "api-key": "k4y", "X-Client-Secret": "s3cret", "X-Trace": "kept",
    ]

    func redirect(from server: TestServer, to url: URL) -> BasicRequest {
        BasicRequest(
            path: "/redirect-to", queryItems: [URLQueryItem(name: "url", value: url.absoluteString)],
            headers: credentials)
    }

    @Test func aRedirectToAnotherPortLeavesEveryCredentialHeaderBehind() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let dispatcher = NetworkDispatcher(serverProvider: first.environment, transport: sharedTransport)

        let response = try await dispatcher.future(
            from: redirect(from: first, to: second.baseURL.appendingPathComponent("echo"))
        )
        .ensureValidResponse().value
        let echo = try JSONDecoder().decode(Echo.self, from: try #require(response.body))

        #expect(response.url.port == second.port)
        #expect(echo.header("X-Trace") == "kept")
        for name in ["Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "api-key", "X-Client-Secret"] {
            #expect(echo.header(name) == nil, "\(name) reached the other origin")
        }
    }

    @Test func aRedirectOnTheSameOriginKeepsThem() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(
            from: redirect(from: server, to: server.baseURL.appendingPathComponent("echo"))
        )
        .ensureValidResponse().value
        let echo = try JSONDecoder().decode(Echo.self, from: try #require(response.body))

        #expect(
            echo.header("X-Api-Key") == "k3y" && echo.header("Authorization") == "Bearer t0ken"
                && echo.header("api-key") == "k4y")
    }

    @Test func theCallerSaysWhichHeadersAreCredentials() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let policy = RedirectPolicy(isCredentialHeader: {
            HTTPHeaders.isCredential(name: $0) || $0.lowercased() == "x-trace"
        })
        let dispatcher = NetworkDispatcher(
            serverProvider: first.environment, transport: sharedTransport, redirectPolicy: policy)

        let response = try await dispatcher.future(
            from: redirect(from: first, to: second.baseURL.appendingPathComponent("echo"))
        ).value
        let echo = try JSONDecoder().decode(Echo.self, from: try #require(response.body))

        #expect(echo.header("X-Trace") == nil)
    }

    @Test func aRequestMarksHeadersThatStayWithItsOriginWhateverTheirName() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let dispatcher = NetworkDispatcher(serverProvider: first.environment, transport: sharedTransport)
        func marked(to url: URL) -> BasicRequest {
            var request = redirect(from: first, to: url)
            request.headers.add(name: "X-Custom", value: "pa55word")
            request.originBoundHeaders = ["x-custom"]
            return request
        }

        let away = try await dispatcher.future(from: marked(to: second.baseURL.appendingPathComponent("echo")))
            .ensureValidResponse().value
        let awayEcho = try JSONDecoder().decode(Echo.self, from: try #require(away.body))
        #expect(awayEcho.header("X-Custom") == nil, "a marked header reached the other origin")
        #expect(awayEcho.header("X-Trace") == "kept")

        let home = try await dispatcher.future(from: marked(to: first.baseURL.appendingPathComponent("echo")))
            .ensureValidResponse().value
        let homeEcho = try JSONDecoder().decode(Echo.self, from: try #require(home.body))
        #expect(homeEcho.header("X-Custom") == "pa55word")
    }

    @Test func anHTTPSURLRedirectingToPlainHTTPIsRefusedUnlessAllowed() async throws {
        let authority = try TestCertificateAuthority()
        let secure = try await TLSTests.Server.start(try authority.issue(for: "localhost").serverConfiguration())
        let plain = try await TestServer.start()
        defer {
            secure.stop()
            Task { await plain.stop() }
        }
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "redirect-ca-\(UUID().uuidString).pem")
        try Data(try authority.pem.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let transport = AsyncHTTPClientTransport(
            configuration: .init(proxy: .none, tls: try TLSSettings(caCertificateFile: caFile.path).tlsConfiguration()))
        defer { Task { try? await transport.shutdown() } }
        let provider = TestEnvironment(URL(string: "https://localhost:\(secure.port)"))
        let target = plain.baseURL.appendingPathComponent("echo")
        let request = BasicRequest(
            path: "/redirect", queryItems: [URLQueryItem(name: "url", value: target.absoluteString)])

        do {
            _ = try await NetworkDispatcher(serverProvider: provider, transport: transport).future(from: request).value
            Issue.record("an https URL redirected to plain http and it was followed")
        } catch let error as TransportError {
            guard case .insecureRedirect(let from, let to, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(from.absoluteString.hasPrefix("https://localhost:\(secure.port)/redirect"))
            #expect(to == target)
            #expect(
                error.description.contains(
                    "from https to plain http: not followed, since the request would go in clear"))
        }
        #expect(plain.hits("/echo") == 0)

        let allowed = NetworkDispatcher(
            serverProvider: provider, transport: transport,
            redirectPolicy: RedirectPolicy(allowsInsecureRedirects: true))
        let response = try await allowed.future(from: request).ensureValidResponse().value
        #expect(response.url == target)
    }
}
