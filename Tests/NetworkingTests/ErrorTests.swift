import Foundation
import Networking
import Testing

@Suite struct ErrorTests {
    @Test func aRefusedPortFailsWithConnectionRefused() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let environment = TestEnvironment(URL(string: "http://127.0.0.1:\(port)")!)
        defer { withExtendedLifetime((environment, refusing)) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        await #expect(throws: TransportError.connectionRefused(host: "127.0.0.1", port: port)) {
            try await dispatcher.future(from: BasicRequest(path: "/")).value
        }
    }

    @Test func anUnresolvableHostFailsWithDNSFailure() async throws {
        // A name the system resolver turns down without asking a DNS server (it has an empty
        // label): nothing leaves this machine, and no lookup waits on a server's timeout. (NIO
        // runs the lookups of an event loop one after another: one lookup of a real name that
        // waited 5 s for a DNS server held up every connection the other tests made on that loop.)
        let environment = TestEnvironment(URL(string: "http://no-such..host")!)
        defer { withExtendedLifetime(environment) {} }
        let dispatcher = NetworkDispatcher(serverProvider: environment, transport: sharedTransport)

        await #expect(throws: TransportError.dnsFailure(host: "no-such..host")) {
            try await dispatcher.future(from: BasicRequest(path: "/")).value
        }
    }

    @Test func aStallingServerTimesOut() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(
                from: BasicRequest(path: "/stall"), options: TransferOptions(timeout: .milliseconds(300))
            ).value
        }
        guard case .timedOut = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
    }

    @Test func aServerClosingMidBodyFailsWithConnectionClosed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(from: BasicRequest(path: "/close-mid-body")).value
        }
        guard case .connectionClosed = error else {
            Issue.record("expected connectionClosed, got \(String(describing: error))")
            return
        }
    }

    @Test func invalidGzipFailsWithDecompressionFailedAndValidGzipIsDecompressed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let text = try await dispatcher.future(from: BasicRequest(path: "/gzip")).ensureString().value.body
        #expect(text == "hello gzip")

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(from: BasicRequest(path: "/bad-gzip")).value
        }
        guard case .decompressionFailed = error else {
            Issue.record("expected decompressionFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func aBodyOverTheLimitFailsWithBodyTooLarge() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        await #expect(
            throws: TransportError.bodyTooLarge(url: server.baseURL.appendingPathComponent("bytes/5000"), limit: 1000)
        ) {
            try await dispatcher.future(
                from: BasicRequest(path: "/bytes/5000"), options: TransferOptions(maximumBodySize: 1000)
            ).value
        }
    }

    @Test func errorBodiesAreKeptOn4xxAnd5xx() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let notFound = try await dispatcher.future(from: BasicRequest(path: "/status/404")).value
        #expect(notFound.statusCode == .notFound)
        #expect(notFound.statusCode.description == "404 Not Found")
        #expect(notFound.error?.status == .notFound)
        #expect(notFound.error?.body == Data("body of 404".utf8))

        let error = await #expect(throws: HTTPError.self) {
            try await dispatcher.future(from: BasicRequest(path: "/status/503")).ensureValidResponse().value
        }
        #expect(error?.status == .serviceUnavailable)
        #expect(error?.body == Data("body of 503".utf8))
        #expect(error?.description.contains("503 Service Unavailable: body of 503") == true)
    }

    @Test func problemJSONIsTypedWithExtensionMembers() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/problem")).value
        let problem = try #require(response.problemDetails)

        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.title == "You do not have enough credit.")
        #expect(problem.status == 403)
        #expect(problem.instance == "/account/12345/msgs/abc")
        #expect(problem.extensions["balance"] == 30)
        #expect(problem.extensions["accounts"]?[1] == .string("/account/67890"))
        #expect(response.error?.problemDetails == problem)
    }

    @Test func decodingFailuresNameTheCodingPathAndShowTheBody() async throws {
        struct Wrong: Decodable, Sendable { var method: Int }
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let error = await #expect(throws: SerializationError.self) {
            try await dispatcher.future(from: BasicRequest(path: "/echo")).ensureValidResponse().ensureData()
                .ensureDecoded(Wrong.self).value
        }
        guard case .decodingFailed(let type, let codingPath, _, let excerpt) = error else {
            Issue.record("wrong error")
            return
        }
        #expect(type == "Wrong")
        #expect(codingPath == "method")
        #expect(excerpt.contains("\"method\":\"GET\""))
    }

    @Test func redirectsAreFollowedWithTheirHistory() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/redirect/2")).ensureString().value

        #expect(response.body == "arrived")
        #expect(response.url.path == "/redirect/0")
        #expect(response.timings.redirects.map(\.to.path) == ["/redirect/1", "/redirect/0"])
        #expect(response.timings.redirects.map(\.status) == [.found, .found])

        let error = await #expect(throws: TransportError.self) {
            try await dispatcher.future(from: BasicRequest(path: "/redirect-loop")).value
        }
        guard case .tooManyRedirects = error else {
            Issue.record("expected tooManyRedirects, got \(String(describing: error))")
            return
        }
    }

    @Test func redirectsCanBeLeftUnfollowed() async throws {
        let server = try await TestServer.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(followRedirects: false, proxy: .none))
        defer {
            Task {
                await server.stop()
                try? await transport.shutdown()
            }
        }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: transport)

        let response = try await dispatcher.future(from: BasicRequest(path: "/redirect/1")).value

        #expect(response.statusCode == .found)
        #expect(response.headers["location"] == "/redirect/0")
    }

    @Test func everyErrorSaysOneClearSentence() {
        let url = URL(string: "http://h/x")!
        let errors: [any Error & CustomStringConvertible] = [
            TransportError.connectionRefused(host: "h", port: 1), TransportError.dnsFailure(host: "h"),
            TransportError.timedOut(url: url, phase: "reading"), TransportError.cancelled,
            HTTPError.unsuccessfulStatus(.notFound, url: url, headers: [:], body: nil),
            SerializationError.missingBody,
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(error.description.hasSuffix(".") || error.description.hasSuffix("?"))
        }
    }

    @Test func errorsNameTheSettingsThatFixThemByTheLibrarysAPIOrTheCallersNames() {
        let url = URL(string: "https://auth.example/token")!
        let refused = OAuth2Error(.server(status: 401, code: "invalid_client", description: nil), url: url)
        #expect(
            refused.description
                == "The OAuth2 token endpoint (https://auth.example/token) refused the request (HTTP 401, invalid_client). "
                + "Check OAuth2Configuration.clientID and OAuth2Configuration.clientSecret (and OAuth2Configuration.clientAuthentication)."
        )
        let listener = OAuth2Error(.listenerFailed("port 80: permission denied"))
        #expect(listener.description(naming: { "<\($0.rawValue)>" }).hasSuffix("Set <redirectPort> to a free port."))
        let tls = TransportError.tlsFailure(host: "h", reason: .untrustedCertificate)
        #expect(
            tls.description.contains(
                "set TLSSettings.caCertificateFile to the CA's PEM file (TLSSettings.insecure skips the check"))
        // No word of an application: no YAML key, no program's name.
        let sentences = [
            refused.description, listener.description, tls.description,
            TLSSettings.Failure(setting: .clientCertificateFile, path: "/c.pem", problem: .missingCertificate)
                .description,
            TransportError.proxyUnreachable(proxy: "http://p:1", source: "HTTPS_PROXY", reason: "refused").description,
            ProxyServer.socksCredentials,
        ]
        for sentence in sentences {
            for word in ["tls.", "client_auth", "redirect_port", "proxy:", "explorer", "environment"] {
                #expect(!sentence.contains(word), "\(word) in \(sentence)")
            }
        }
    }
}
