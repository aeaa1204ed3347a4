import Foundation
import Networking
import Testing

/// Name resolution as curl's `--resolve HOST:PORT:ADDRESS`: a transport's `resolve` connects
/// to the address given for a host and port, while the URL, the `Host` header, the cookies and
/// the TLS name check stay the host's. Real servers on 127.0.0.1 reached under other names
/// (`api.test`, `other.test`), never through DNS.
@Suite struct ResolveTests {
    private func transport(_ entries: [String: String], tls: TLSSettings? = nil) throws -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(configuration: .init(proxy: .none, tls: try tls?.tlsConfiguration(), resolve: entries))
    }

    @Test func aHostIsReachedAtTheAddressGivenAndKeepsItsNameInTheURLAndHostHeader() async throws {
        let server = try await TestServer.start()
        let transport = try transport(["API.test:\(server.port)": "127.0.0.1"])
        defer {
            Task {
                await server.stop()
                try? await transport.shutdown()
            }
        }
        let provider = TestEnvironment(URL(string: "http://api.test:\(server.port)")!)

        let response = try await NetworkDispatcher(serverProvider: provider, transport: transport)
            .future(from: BasicRequest(path: "/echo/named")).ensureValidResponse().ensureData().value
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let host = (echo["headers"] as? [[String]] ?? []).first { $0[0].lowercased() == "host" }?[1]

        #expect(host == "api.test:\(server.port)")
        #expect(echo["path"] as? String == "/echo/named")
        #expect(response.url.host == "api.test")
        withExtendedLifetime(provider) {}
    }

    @Test func cookiesStayWithTheHostNameTheyWereSetForAcrossARedirectToAnotherName() async throws {
        let server = try await TestServer.start()
        let transport = try transport([
            "api.test:\(server.port)": "127.0.0.1", "other.test:\(server.port)": "127.0.0.1",
        ])
        defer {
            Task {
                await server.stop()
                try? await transport.shutdown()
            }
        }
        let provider = TestEnvironment(URL(string: "http://api.test:\(server.port)")!)
        let jar = CookieJar()
        let dispatcher = NetworkDispatcher(serverProvider: provider, transport: transport, cookieJar: jar)

        // api.test sets its session on a 302 to other.test, which must not get it.
        let elsewhere = try await dispatcher.future(
            from: BasicRequest(
                path: "/cookies/redirect/302",
                queryItems: [
                    URLQueryItem(name: "to", value: "http://other.test:\(server.port)/cookies/show"),
                    URLQueryItem(name: "session", value: "api"),
                ])
        ).ensureString().value
        // other.test sets its own on a 303 back to api.test, which gets only its own.
        let back = try await dispatcher.future(
            from: BasicRequest(
                path: "/cookies/redirect/303",
                queryItems: [
                    URLQueryItem(
                        name: "to",
                        value:
                            "http://other.test:\(server.port)/cookies/redirect/307?to=http://api.test:\(server.port)/cookies/show&theirs=1"
                    )
                ])
        ).ensureString().value

        #expect(elsewhere.body == "")
        #expect(elsewhere.url.host == "other.test")
        #expect(back.body == "session=api")
        #expect(Set(jar.cookies().map { "\($0.domain) \($0.name)" }) == ["api.test session", "other.test theirs"])
        withExtendedLifetime(provider) {}
    }

    @Test func tlsChecksTheCertificateAgainstTheHostNameNotTheAddress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try TestCertificateAuthority()
        let caFile = folder.appendingPathComponent("ca.pem")
        try Data(try authority.pem.utf8).write(to: caFile)
        let named = try await TLSTests.Server.start(try authority.issue(for: "api.test").serverConfiguration())
        let misnamed = try await TLSTests.Server.start(try authority.issue(for: "elsewhere.test").serverConfiguration())
        let transport = try transport(
            ["api.test:\(named.port)": "127.0.0.1", "api.test:\(misnamed.port)": "127.0.0.1"],
            tls: TLSSettings(caCertificateFile: caFile.path))
        defer {
            named.stop()
            misnamed.stop()
            Task { try? await transport.shutdown() }
        }

        func get(_ port: Int) async -> Result<String, any Error> {
            let provider = TestEnvironment(URL(string: "https://api.test:\(port)")!)
            defer { withExtendedLifetime(provider) {} }
            do {
                return .success(
                    try await NetworkDispatcher(serverProvider: provider, transport: transport)
                        .future(from: BasicRequest(path: "/")).ensureString().value.body)
            } catch {
                return .failure(error)
            }
        }

        #expect(try await get(named.port).get() == "secure")
        guard case .failure(let error) = await get(misnamed.port) else {
            Issue.record("a certificate for another name was accepted")
            return
        }
        #expect("\(error)".contains("is not for api.test"), "\(error)")
    }
}

/// `proxyTunnel` (curl's `-p`): plain http goes through an HTTP proxy in a `CONNECT` tunnel
/// instead of in absolute form; the default stays the absolute form. Through the recording proxy.
@Suite struct ProxyTunnelTests {
    @Test(arguments: [false, true])
    func plainHTTPGoesInAbsoluteFormUnlessTheTunnelIsAskedFor(tunnel: Bool) async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        let transport = AsyncHTTPClientTransport(
            configuration: .init(proxy: .server(host: "127.0.0.1", port: proxy.port), proxyTunnel: tunnel))
        defer {
            Task {
                await server.stop()
                await proxy.stop()
                try? await transport.shutdown()
            }
        }

        let response = try await NetworkDispatcher(serverProvider: server.environment, transport: transport)
            .future(from: BasicRequest(path: "/echo/tunnelled")).ensureValidResponse().ensureString().value

        #expect(response.body.contains("tunnelled"))
        #expect(
            proxy.records.map(\.requestLine) == [
                tunnel
                    ? "CONNECT 127.0.0.1:\(server.port) HTTP/1.1"
                    : "GET http://127.0.0.1:\(server.port)/echo/tunnelled HTTP/1.1"
            ])
    }
}
