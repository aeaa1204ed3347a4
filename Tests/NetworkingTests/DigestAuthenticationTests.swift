import Foundation
import Networking
import Testing

/// HTTP Digest (RFC 7616) against the test server's digest route, which checks the response
/// hash with its own code, and against the RFC's worked examples.
@Suite struct DigestAuthenticationTests {
    let digest = DigestAuthenticator(username: DigestServer.username, password: DigestServer.password)

    @Test(arguments: ["MD5", "SHA-256", "MD5-sess", "SHA-256-sess"])
    func theChallengeIsAnsweredAndTheServerAcceptsTheHash(algorithm: String) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, challengeHandler: digest)

        let response = try await dispatcher.future(
            from: BasicRequest(path: "/digest/\(algorithm)", queryItems: [URLQueryItem(name: "q", value: "a b")])
        )
        .ensureValidResponse().ensureString().value

        #expect(response.body == "welcome Mufasa, \(algorithm), nc=00000001")
        #expect(server.hits("/digest/\(algorithm)") == 2)
        #expect(server.count("digest:without-credentials") == 1)
        #expect(server.count("digest:password-in-clear") == 0)
        #expect(response.request.headers["Authorization"]?.hasPrefix("Digest username=\"Mufasa\"") == true)
    }

    @Test func theStrongestOfferedAlgorithmIsChosen() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, challengeHandler: digest)

        let response = try await dispatcher.future(from: BasicRequest(path: "/digest/MD5,SHA-256"))
            .ensureValidResponse().ensureString().value

        #expect(response.body == "welcome Mufasa, SHA-256, nc=00000001")
    }

    @Test func aStreamedRequestDropsTheChallengeAndDeliversTheAnswer() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, challengeHandler: digest)

        let streamed = try await dispatcher.stream(from: BasicRequest(path: "/digest/SHA-256"))
        var body = Data()
        for try await chunk in streamed.body { body.append(chunk) }

        #expect(streamed.head.status.code == 200)
        #expect(String(decoding: body, as: UTF8.self) == "welcome Mufasa, SHA-256, nc=00000001")
        #expect(server.count("digest:without-credentials") == 1)
    }

    @Test func theCallbackStreamHandsOverOnlyTheAnswersHeadAndBody() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let queue = DispatchQueue(label: "digest-callbacks")
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, callbackQueue: queue,
            challengeHandler: digest)
        let seen = Collected<String>()

        let response = try await dispatcher.streamingFuture(
            from: BasicRequest(path: "/digest/MD5"),
            head: { head in seen.append("head \(head.status.code)") },
            chunk: { chunk in seen.append(String(decoding: chunk, as: UTF8.self)) }
        ).value

        #expect(seen.values == ["head 200", "welcome Mufasa, MD5, nc=00000001"])
        #expect(response.request.headers["Authorization"]?.hasPrefix("Digest ") == true)
    }

    @Test func aWrongPasswordGetsTheServers401AfterOneAnswer() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let wrong = DigestAuthenticator(username: DigestServer.username, password: "Circle of Strife")
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, challengeHandler: wrong)

        let response = try await dispatcher.future(from: BasicRequest(path: "/digest/SHA-256")).ensureString().value

        #expect(response.statusCode.code == 401)
        #expect(response.body == "wrong response hash")
        #expect(server.hits("/digest/SHA-256") == 2)
    }

    @Test func aStaleNonceIsAnsweredOnceMoreWithTheNewNonce() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(
            serverProvider: server.environment, transport: sharedTransport, challengeHandler: digest)

        let response = try await dispatcher.future(from: BasicRequest(path: "/digest/MD5/stale")).ensureValidResponse()
            .ensureString().value

        #expect(response.body == "welcome Mufasa, MD5, nc=00000001")
        #expect(server.hits("/digest/MD5/stale") == 3)
    }

    @Test func withoutAHandlerThe401IsDelivered() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/digest/MD5")).value

        #expect(response.statusCode.code == 401)
        #expect(server.hits("/digest/MD5") == 1)
    }

    /// RFC 7616 §3.9.1: the same request answered with MD5 and with SHA-256.
    @Test func theRFCsWorkedExamplesGiveTheRFCsResponses() {
        let rfc = DigestAuthenticator(username: "Mufasa", password: "Circle of Life")
        let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
        for (algorithm, expected) in [
            ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
            ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        ] {
            let challenge = DigestChallenge(
                realm: "http-auth@example.org", nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
                opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", algorithm: algorithm)
            let value = rfc.authorization(
                for: challenge, method: "GET", uri: "/dir/index.html", nonceCount: 1, clientNonce: cnonce)
            #expect(value.contains("response=\"\(expected)\""), "\(algorithm): \(value)")
            #expect(value.contains("nc=00000001, cnonce=\"\(cnonce)\", qop=auth"))
        }
    }

    @Test func challengesAreReadAmongOtherSchemes() {
        let challenges = DigestChallenge.parse([
            #"Basic realm="a", Digest realm="b \"quoted\"", qop="auth,auth-int", algorithm=SHA-256, nonce="n1""#,
            #"Digest realm="c", nonce="n2", algorithm=SHA-512-256"#,
            "Bearer",
        ])

        #expect(challenges.map(\.realm) == [#"b "quoted""#, "c"])
        #expect(challenges[0].qop == ["auth", "auth-int"])
        #expect(challenges[0].algorithm == .sha256)
        #expect(challenges[1].isAnswerable == false)
        #expect(DigestChallenge.preferred(among: challenges)?.nonce == "n1")
    }
}
