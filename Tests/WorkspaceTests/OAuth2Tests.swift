import Foundation
import Testing

@testable import Demo
@testable import NetworkingCore
@testable import Workspace

/// `auth: oauth2` against the demo's real authorization server on 127.0.0.1: every grant, the
/// token cache (a 0600 file), refresh before expiry, one renewal on a 401, and clear errors.
@Suite(.serialized) struct OAuth2Tests {
    /// A transport that counts the requests it sends to the token endpoint (the real one
    /// sends them).
    final class CountingTransport: HTTPTransport {
        let inner = AsyncHTTPClientTransport()
        let tokenRequests = Locked(0)

        func send(
            _ request: PreparedRequest, options: TransferOptions,
            progress: @escaping @Sendable (TransferProgress) -> Void
        ) async throws -> TransportResponse {
            if request.url.path.hasSuffix("/oauth/token") { tokenRequests.withLock { $0 += 1 } }
            return try await inner.send(request, options: options, progress: progress)
        }
    }

    /// The demo on free ports, its collection (plus `extra` endpoints) and a token file in a
    /// temporary folder.
    struct Fixture {
        let server: DemoServer
        let folder: URL
        let collection: APICollection
        let transport = CountingTransport()

        static func start(extra: String = "") async throws -> Fixture {
            let server = try await DemoServer.start(port: 0)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth2-\(UUID().uuidString)")
            let url = try DemoCollection.write(for: server.environments, to: folder.appendingPathComponent("demo.yaml"))
            try (String(contentsOf: url, encoding: .utf8) + extra).write(to: url, atomically: true, encoding: .utf8)
            return Fixture(server: server, folder: folder, collection: try CollectionLoader.load(from: url))
        }

        var tokenFile: URL { folder.appendingPathComponent("state/tokens.json") }

        var store: OAuth2TokenStore {
            OAuth2TokenStore(collection: collection.storeKey, environment: "local", fileURL: tokenFile)
        }

        func resolve(_ name: String) throws -> ResolvedRequest {
            try RequestResolver(processEnvironment: [:]).resolve(
                try collection.endpoint(named: name), in: collection,
                environment: collection.environment(named: "local"))
        }

        /// Sends an endpoint as `explorer send` does; `prompt` is the user.
        /// Sends an endpoint; fails after 60 s rather than waiting out a grant's 300 s
        /// interaction time when the scripted browser never completes it.
        func send(_ name: String, prompt: @escaping @Sendable (OAuth2Prompt) -> Void = { _ in }) async throws
            -> Response<Data?>
        {
            let resolved = try resolve(name)
            let dispatcher = resolved.dispatcher(transport: transport, tokens: store, prompt: prompt)
            let response = try await withThrowingTaskGroup(of: Response<Data?>?.self) { group in
                group.addTask { try await dispatcher.future(from: resolved.request).value }
                group.addTask {
                    try await Task.sleep(for: .seconds(60))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw CancellationError()
                }
                return response
            }
            withExtendedLifetime(resolved.environment) {}
            return response
        }

        func stop() async {
            try? await transport.inner.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// A browser: follows the URL's redirects (the demo signs in at once).
    static func browse(_ url: URL) {
        Task {
            let browser = AsyncHTTPClientTransport()
            _ = try? await browser.send(PreparedRequest(url: url), options: TransferOptions()) { _ in }
            try? await browser.shutdown()
        }
    }

    @Test func clientCredentialsObtainsATokenOnceAndKeepsItPrivately() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let first = try await fixture.send("OAuth2/Me (client credentials)")
        #expect(first.statusCode == .ok)
        #expect(first.request.headers["Authorization"]?.hasPrefix("Bearer tok-") == true)
        let second = try await fixture.send("OAuth2/Me (client credentials)")
        #expect(second.statusCode == .ok)
        #expect(fixture.transport.tokenRequests.withLock { $0 } == 1, "the cached token serves the second request")

        let mode = try FileManager.default.attributesOfItem(atPath: fixture.tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let tokens = try fixture.store.tokens()
        #expect(tokens.count == 1)
        #expect(tokens.values.first?.scope == "read")
        #expect(first.request.headers["Authorization"] == tokens.values.first.map { "Bearer " + $0.accessToken })

        // The resolved request shows and keeps no secret: the client secret is masked.
        let resolved = try fixture.resolve("OAuth2/Me (client credentials)")
        #expect(resolved.masker.mask("secret=demo-client-secret") == "secret=\(SecretMasker.mask)")
        #expect(
            resolved.request.headers["Authorization"] == nil, "the token is added when sent, not kept in the request")
    }

    @Test func aTokenAboutToExpireIsRefreshedWithItsRefreshToken() async throws {
        // Tokens of 5 s are renewed before each send (within 30 s of expiring).
        let fixture = try await Fixture.start(
            extra: """
                  - name: Short-lived
                    path: /me
                    auth: { type: oauth2, token_url: "{{oauth}}/token?expires_in=5", client_id: explorer-demo, client_secret: "{{client_secret}}" }

                """)
        defer { Task { await fixture.stop() } }
        _ = try await fixture.send("Short-lived")
        let before = try #require(try fixture.store.tokens().values.first)
        let response = try await fixture.send("Short-lived")
        #expect(response.statusCode == .ok)
        let after = try #require(try fixture.store.tokens().values.first)
        #expect(after.accessToken != before.accessToken)
        #expect(after.refreshToken != before.refreshToken, "the demo rotates refresh tokens")
        #expect(fixture.transport.tokenRequests.withLock { $0 } == 2)
    }

    @Test func aRefusedTokenIsRenewedOnceAndASecondRefusalIsTheAnswer() async throws {
        let fixture = try await Fixture.start(
            extra: """
                  - name: Always refused
                    path: /status/401
                    auth: { type: oauth2, token_url: "{{oauth}}/token", client_id: explorer-demo, client_secret: "{{client_secret}}" }

                """)
        defer { Task { await fixture.stop() } }
        // A revoked token still in the cache: the 401 renews it and the request goes again.
        let resolved = try fixture.resolve("OAuth2/Me (client credentials)")
        let url = try #require(URL(string: resolved.url))
        let key = try #require(resolved.oauth2?.cacheKey(sendingTo: url))
        fixture.store.store(OAuth2Token(accessToken: "revoked", expiresAt: Date().addingTimeInterval(3600)), for: key)
        let renewed = try await fixture.send("OAuth2/Me (client credentials)")
        #expect(renewed.statusCode == .ok)
        #expect(fixture.transport.tokenRequests.withLock { $0 } == 1)
        #expect(fixture.store.token(for: key)?.accessToken != "revoked")

        // A server that refuses every token: one renewal, then its 401 is the answer.
        let refused = try await fixture.send("Always refused")
        #expect(refused.statusCode.code == 401)
        #expect(fixture.transport.tokenRequests.withLock { $0 } == 3, "one token, then one renewal")
    }

    /// A token is bound to the server it was obtained for: a `base_url` changed to another
    /// server (a pull, a typo) gets a token of its own, never the cached one.
    @Test func aTokenIsNeverSentToAnotherServerThanTheOneItWasObtainedFor() throws {
        let settings = OAuth2Configuration(
            grant: .clientCredentials, tokenURL: URL(string: "https://auth.example/token")!, clientID: "app")
        let own = settings.cacheKey(sendingTo: URL(string: "https://api.example/v1/me")!)
        #expect(own == settings.cacheKey(sendingTo: URL(string: "https://API.example:443/other")!), "the same server")
        #expect(own != settings.cacheKey(sendingTo: URL(string: "https://attacker.example/v1/me")!))
        #expect(own != settings.cacheKey(sendingTo: URL(string: "http://api.example/v1/me")!))
    }

    @Test func authorizationCodeWithPKCEGoesThroughTheLoopbackRedirect() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let prompts = Locked<[OAuth2Prompt]>([])
        let response = try await fixture.send("OAuth2/Me (authorization code)") { prompt in
            prompts.withLock { $0.append(prompt) }
            Self.browse(prompt.url)
        }
        #expect(response.statusCode == .ok)
        let url = try #require(prompts.withLock { $0.first }?.url)
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "code_challenge_method" }?.value == "S256")
        #expect(query.first { $0.name == "redirect_uri" }?.value?.hasPrefix("http://127.0.0.1:") == true)
        #expect(query.first { $0.name == "state" }?.value?.count == 43)
    }

    @Test func aRedirectWithAnotherStateIsRefused() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        do {
            _ = try await fixture.send("OAuth2/Me (authorization code)") { prompt in
                // Someone else's redirect reaches the listener first.
                let query = URLComponents(url: prompt.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                guard let redirect = query.first(where: { $0.name == "redirect_uri" })?.value else { return }
                Self.browse(URL(string: redirect + "?code=forged&state=not-the-one")!)
            }
            Issue.record("a forged redirect was accepted")
        } catch let error as OAuth2Error {
            #expect(error.kind == .stateMismatch)
        }
        #expect(
            fixture.transport.tokenRequests.withLock { $0 } == 0, "the forged code never reaches the token endpoint")
    }

    @Test func theDeviceCodeIsShownAndPolledUntilTheUserApproves() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let codes = Locked<[String]>([])
        let response = try await fixture.send("OAuth2/Me (device code)") { prompt in
            guard case .enterCode(let code, _, _, _) = prompt else { return }
            codes.withLock { $0.append(code) }
            Self.browse(prompt.url)
        }
        #expect(response.statusCode == .ok)
        #expect(codes.withLock { $0 }.count == 1)
        #expect(codes.withLock { $0 }.first?.count == 9)
    }

    @Test func aWrongClientSecretIsAClearError() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let wrong = try CollectionLoader.parse(
            """
            name: wrong
            environments: [{ name: local, base_url: \(fixture.server.environments[0].baseURL.absoluteString) }]
            endpoints:
              - name: me
                path: /me
                auth: { type: oauth2, token_url: "\(fixture.server.environments[0].baseURL.absoluteString)/oauth/token", client_id: explorer-demo, client_secret: nope }
            """)
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(try wrong.endpoint(named: "me"), in: wrong)
        do {
            _ = try await resolved.dispatcher(transport: fixture.transport, tokens: InMemoryOAuth2TokenCache()) { _ in }
                .future(from: resolved.request).value
            Issue.record("a wrong secret got a token")
        } catch let error as OAuth2Error {
            guard case .server(let status, let code, _) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(status == 401)
            #expect(code == "invalid_client")
            #expect(
                sentence(describing: error).contains(
                    "Check client_id and client_secret (and client_auth: basic or body)."))
            #expect(
                error.description.contains(
                    "Check OAuth2Configuration.clientID and OAuth2Configuration.clientSecret (and OAuth2Configuration.clientAuthentication)."
                ),
                "the library's own sentence names its API")
        }
    }
}
