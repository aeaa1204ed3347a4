import Foundation
import Networking
import Testing

/// Proxies: `NO_PROXY` read as curl reads it, proxy URLs, the choice per request from the
/// proxy variables, and requests through a real recording proxy on 127.0.0.1 (plain http in
/// absolute form and https tunnelled with CONNECT, Basic credentials, 407, a proxy that is not
/// there, WebSocket).
@Suite struct ProxyTests {
    // MARK: - NO_PROXY

    @Test(arguments: [
        // (list, host, port, bypassed)
        ("*", "anything.example", 443, true),
        ("*, example.com", "other.org", 80, false),  // `*` only alone (as curl)
        ("example.com", "example.com", 80, true),
        ("example.com", "api.example.com", 443, true),
        ("example.com", "a.b.example.com", 443, true),
        ("example.com", "notexample.com", 80, false),
        ("example.com", "example.com.evil.org", 80, false),
        (".example.com", "example.com", 80, true),  // a leading dot changes nothing
        (".example.com", "www.example.com", 80, true),
        ("*.example.com", "www.example.com", 80, true),
        ("EXAMPLE.com", "Api.Example.COM", 80, true),  // case does not count
        ("example.com.", "example.com", 80, true),  // nor a trailing dot
        ("example.com", "example.com.", 80, true),
        ("localhost, 127.0.0.1 ,::1", "127.0.0.1", 8080, true),
        ("localhost,127.0.0.1,::1", "::1", 8080, true),
        ("localhost,127.0.0.1,::1", "[::1]", 8080, true),
        ("localhost 127.0.0.1", "localhost", 1, true),  // spaces separate too
        ("10.0.0.0/8", "10.200.3.4", 80, true),
        ("10.0.0.0/8", "11.0.0.1", 80, false),
        ("192.168.0.0/16", "192.168.44.1", 80, true),
        ("192.168.1.0/24", "192.168.2.1", 80, false),
        ("172.16.0.0/12", "172.31.255.255", 80, true),
        ("172.16.0.0/12", "172.32.0.1", 80, false),
        ("0.0.0.0/0", "8.8.8.8", 80, true),
        ("10.0.0.0/8", "ten.example", 80, false),  // names are not resolved
        ("fd00::/8", "fd12:3456::1", 80, true),
        ("fd00::/8", "fe80::1", 80, false),
        ("2001:db8::/32", "2001:db8:ffff::1", 443, true),
        ("127.0.0.1", "127.0.0.2", 80, false),
        ("localhost:8080", "localhost", 8080, true),  // a port matches that port only
        ("localhost:8080", "localhost", 9090, false),
        ("[::1]:8080", "::1", 8080, true),
        ("[::1]:8080", "::1", 80, false),
        ("10.0.0.0/8:8443", "10.1.1.1", 8443, true),
        ("", "example.com", 80, false),
        (" , ,", "example.com", 80, false),
        ("10.0.0.0/99", "10.0.0.1", 80, false),  // a bad range matches nothing
    ])
    func noProxyMatchesAsCurlReadsIt(list: String, host: String, port: Int, bypassed: Bool) {
        #expect(NoProxyList(list).matches(host: host, port: port) == bypassed, "NO_PROXY=\(list) \(host):\(port)")
    }

    @Test func noProxyReadsTheURLsDefaultPort() {
        let list = NoProxyList("secure.example:443")
        #expect(list.matches(URL(string: "https://secure.example/x")!))
        #expect(!list.matches(URL(string: "http://secure.example/x")!))
    }

    // MARK: - Proxy URLs

    @Test func aProxyURLIsReadAsCurlReadsIt() throws {
        let full = try ProxyServer(parsing: "http://ada:s%40cret@proxy.corp:3128/", source: "test")
        #expect(full.host == "proxy.corp" && full.port == 3128)
        #expect(full.username == "ada" && full.password == "s@cret")
        #expect(full.authorizationHeader == "Basic " + Data("ada:s@cret".utf8).base64EncodedString())
        #expect(full.description == "http://ada:••••••@proxy.corp:3128")

        let bare = try ProxyServer(parsing: "proxy.corp", source: "test")
        #expect(bare.port == 1080 && bare.username == nil && bare.authorizationHeader == nil)
        let v6 = try ProxyServer(parsing: "http://[::1]:8888", source: "test")
        #expect(v6.host == "::1" && v6.port == 8888 && v6.description == "http://[::1]:8888")
    }

    @Test func aProxyURLThatCannotBeUsedSaysWhyWithItsPasswordMasked() throws {
        func reason(_ text: String) -> String {
            do {
                _ = try ProxyServer(parsing: text, source: "the HTTPS_PROXY variable")
                return "no error"
            } catch {
                return String(describing: error)
            }
        }
        #expect(
            reason("socks4://proxy:1080")
                == "the HTTPS_PROXY variable is \"socks4://proxy:1080\", which cannot be used as a proxy: only http:// and socks5:// proxies are supported, not socks4://."
        )
        #expect(
            reason("socks5://ada:hunter2@proxy").contains("a SOCKS5 proxy with a user and password is not supported"))
        #expect(try ProxyServer(parsing: "socks5h://proxy", source: "t").description == "socks5://proxy:1080")
        #expect(reason("https://ada:hunter2@proxy:443").contains("https://ada:••••••@proxy:443"))
        #expect(!reason("https://ada:hunter2@proxy:443").contains("hunter2"))
        #expect(reason("http://proxy:99999").contains("the port \"99999\" is not a number from 1 to 65535"))
        #expect(reason("http://:3128").contains("it names no host"))
    }

    // MARK: - The choice per request

    @Test func theVariablesChooseAProxyPerScheme() throws {
        let rules = try #require(
            ProxyRules.environment([
                "HTTP_PROXY": "http://plain:1", "https_proxy": "http://secure:2", "HTTPS_PROXY": "http://ignored:3",
                "no_proxy": "internal.corp",
            ]))
        #expect(try rules.proxy(for: URL(string: "http://api.example/x")!)?.host == "plain")
        #expect(try rules.proxy(for: URL(string: "https://api.example/x")!)?.host == "secure")
        #expect(try rules.proxy(for: URL(string: "wss://api.example/x")!)?.source == "the https_proxy variable")
        #expect(try rules.proxy(for: URL(string: "https://db.internal.corp/x")!) == nil)

        let fallback = try #require(
            ProxyRules.environment(["ALL_PROXY": "http://all:9", "http_proxy": "http://plain:1"]))
        #expect(try fallback.proxy(for: URL(string: "http://a/")!)?.host == "plain")
        #expect(try fallback.proxy(for: URL(string: "https://a/")!)?.source == "the ALL_PROXY variable")

        #expect(ProxyRules.environment(["PATH": "/bin", "HTTPS_PROXY": " "]) == nil)
        let onlyHTTPS = try #require(ProxyRules.environment(["HTTPS_PROXY": "http://secure:2"]))
        #expect(try onlyHTTPS.proxy(for: URL(string: "http://a/")!) == nil)
    }

    @Test func aVariableThatNamesNoUsableProxyFailsTheRequestsThatWouldUseIt() async throws {
        let rules = try #require(ProxyRules.environment(["HTTPS_PROXY": "socks4://s:1"]))
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .rules(rules)))
        defer { Task { try? await transport.shutdown() } }
        #expect(
            throws: TransportError.invalidProxy(
                "the HTTPS_PROXY variable is \"socks4://s:1\", which cannot be used as a proxy: only http:// and socks5:// proxies are supported, not socks4://."
            )
        ) {
            _ = try transport.proxy(for: URL(string: "https://a.example/")!)
        }
        #expect(try transport.proxy(for: URL(string: "http://a.example/")!) == nil)
    }

    // MARK: - Through a real proxy

    /// GET `url` through a transport with these rules; the body, or the error's sentence.
    /// Generous timeouts: the suite in parallel on two cores has kept a connection's steps
    /// waiting past 5 s (async-http-client resolves a proxy's address on Dispatch's global
    /// queue, which Swift's tasks share); these tests are about routes, not time.
    private func get(_ url: URL, rules: ProxyRules?, tls: TLSSettings? = nil) async -> (body: String?, error: String?) {
        do {
            let transport = AsyncHTTPClientTransport(
                configuration: .init(
                    connectTimeout: .seconds(30), requestTimeout: .seconds(60),
                    proxy: rules.map { .rules($0) } ?? .none, tls: try tls?.tlsConfiguration()))
            defer { Task { try? await transport.shutdown() } }
            let response = try await transport.send(
                PreparedRequest(url: url), options: TransferOptions(), progress: { _ in })
            return (String(decoding: response.body ?? Data(), as: UTF8.self), nil)
        } catch {
            return (nil, (error as? LocalizedError)?.errorDescription ?? String(describing: error))
        }
    }

    @Test func anHTTPRequestGoesThroughTheProxyTheHTTPProxyVariableNames() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let rules = try #require(
            ProxyRules.environment(["http_proxy": proxy.url(), "https_proxy": "http://127.0.0.1:9"]))

        let result = await get(server.baseURL.appendingPathComponent("echo/through"), rules: rules)
        #expect(result.error == nil)
        #expect(result.body?.contains("through") == true)
        // Plain http goes to the proxy in absolute form, as curl sends it; no tunnel.
        #expect(proxy.records.map(\.requestLine) == ["GET http://127.0.0.1:\(server.port)/echo/through HTTP/1.1"])
        #expect(proxy.records.first?.proxyAuthorization == nil)
    }

    @Test func anHTTPSRequestIsTunnelledWithCONNECTToTheTLSServer() async throws {
        let authority = try TestCertificateAuthority()
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-ca-\(UUID().uuidString).pem")
        try Data(try authority.pem.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let server = try await TLSTests.Server.start(try authority.issue(for: "localhost").serverConfiguration())
        let proxy = try await RecordingProxy.start()
        defer {
            server.stop()
            Task { await proxy.stop() }
        }
        let rules = try #require(ProxyRules.environment(["HTTPS_PROXY": proxy.url(), "NO_PROXY": "example.com"]))

        let result = await get(
            URL(string: "https://localhost:\(server.port)/")!, rules: rules,
            tls: TLSSettings(caCertificateFile: caFile.path))
        #expect(result.error == nil)
        #expect(result.body == "secure")
        #expect(proxy.records.map(\.requestLine) == ["CONNECT localhost:\(server.port) HTTP/1.1"])
    }

    @Test func aHostInNoProxyIsReachedDirectly() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let rules = try #require(
            ProxyRules.environment(["HTTP_PROXY": proxy.url(), "NO_PROXY": "localhost,127.0.0.0/8"]))

        let result = await get(server.baseURL.appendingPathComponent("echo"), rules: rules)
        #expect(result.error == nil)
        #expect(proxy.records.isEmpty)
    }

    @Test func theProxysBasicCredentialsReachTheProxyAndNotTheServer() async throws {
        let server = try await TestServer.start()
        let expected = "Basic " + Data("ada:pa ss:word".utf8).base64EncodedString()
        let proxy = try await RecordingProxy.start(requiredAuthorization: expected)
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let rules = ProxyRules(
            server: ProxyServer(
                host: "127.0.0.1", port: proxy.port, username: "ada", password: "pa ss:word", source: "test"))

        let result = await get(server.baseURL.appendingPathComponent("echo"), rules: rules)
        #expect(result.error == nil)
        #expect(proxy.records.map(\.proxyAuthorization) == [expected])
        #expect(result.body?.lowercased().contains("proxy-authorization") == false)

        // In the URL, percent-encoded, as curl takes it.
        let fromURL = try ProxyServer(parsing: "http://ada:pa%20ss%3Aword@127.0.0.1:\(proxy.port)", source: "test")
        #expect(
            await get(server.baseURL.appendingPathComponent("echo"), rules: ProxyRules(server: fromURL)).error == nil)
        #expect(proxy.records.last?.proxyAuthorization == expected)
    }

    @Test func a407NamesTheProxyMaskedTheSettingAndWhatToDo() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start(alwaysRefuse: true)
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }

        let without = try #require(ProxyRules.environment(["HTTP_PROXY": proxy.url()]))
        let asked = await get(server.baseURL.appendingPathComponent("echo"), rules: without)
        #expect(
            asked.error
                == "The proxy http://127.0.0.1:\(proxy.port) (from the HTTP_PROXY variable) asks for a user and password "
                + "(407 Proxy Authentication Required): give them in the HTTP_PROXY variable (http://user:password@host:port)."
        )

        let with = try #require(ProxyRules.environment(["HTTP_PROXY": proxy.url(user: "ada", password: "hunter2")]))
        let refused = await get(server.baseURL.appendingPathComponent("echo"), rules: with)
        #expect(
            refused.error
                == "The proxy http://ada:••••••@127.0.0.1:\(proxy.port) (from the HTTP_PROXY variable) refused its user and password "
                + "(407 Proxy Authentication Required): check them in the HTTP_PROXY variable.")
        #expect(refused.error?.contains("hunter2") == false)
    }

    @Test func aProxyThatIsNotThereIsAnErrorNamingItAndItsSetting() async throws {
        let server = try await TestServer.start()
        // Not a proxy started and stopped: its port, free again, was taken by another test's
        // server, which answered.
        let gone = try RefusingPort()
        defer {
            withExtendedLifetime(gone) {}
            Task { await server.stop() }
        }
        let rules = ProxyRules(
            server: ProxyServer(
                host: "127.0.0.1", port: gone.port, username: "ada", password: "hunter2",
                source: "the proxy: of environment \"corp\""))

        let result = await get(server.baseURL.appendingPathComponent("echo"), rules: rules)
        #expect(
            result.error
                == "The proxy http://ada:••••••@127.0.0.1:\(gone.port) (from the proxy: of environment \"corp\") could not be reached: "
                + "nothing accepts connections at 127.0.0.1:\(gone.port). Check that it runs and the address is right, "
                + "or fix the proxy: of environment \"corp\".")
    }

    @Test func oneTransportUsesOneClientPerProxyAndTheDirectOne() async throws {
        let server = try await TestServer.start()
        let plain = try await RecordingProxy.start()
        let secure = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await plain.stop()
                await secure.stop()
            }
        }
        let rules = try #require(
            ProxyRules.environment(["http_proxy": plain.url(), "https_proxy": secure.url(), "no_proxy": "localhost"]))
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .rules(rules)))
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: transport)

        _ = try await dispatcher.future(from: BasicRequest(path: "/echo/1")).value
        _ = try await dispatcher.future(from: BasicRequest(path: "/echo/2")).value
        server.environment.switchTo(URL(string: "http://localhost:\(server.port)"))
        _ = try await dispatcher.future(from: BasicRequest(path: "/echo/3")).value
        try await transport.shutdown()

        // Two requests in absolute form to the http proxy; the third went directly; nothing to https.
        #expect(
            plain.records.map(\.requestLine) == [
                "GET http://127.0.0.1:\(server.port)/echo/1 HTTP/1.1",
                "GET http://127.0.0.1:\(server.port)/echo/2 HTTP/1.1",
            ])
        #expect(secure.records.isEmpty)
        #expect(server.hits("/echo/3") == 1)
    }

    @Test func aWebSocketGoesThroughTheProxyTheTransportWouldUse() async throws {
        let server = try await WebSocketTestServer.start()
        let proxy = try await RecordingProxy.start(
            requiredAuthorization: "Basic " + Data("ada:pw".utf8).base64EncodedString())
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let provider = TestEnvironment(URL(string: "http://127.0.0.1:\(server.port)")!)
        let rules = ProxyRules(
            server: ProxyServer(host: "127.0.0.1", port: proxy.port, username: "ada", password: "pw", source: "test"))
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .rules(rules)))
        defer { Task { try? await transport.shutdown() } }

        let session = try await NetworkDispatcher(serverProvider: provider, transport: transport)
            .webSocket(
                PreparedRequest(url: server.url.appendingPathComponent("echo"), headers: ["X-Test": "tunnelled"]))
        var greeting: String?
        // Bounded: a greeting that never comes fails the test instead of hanging it.
        while greeting == nil, case .event(let event?) = await session.events.next(within: .seconds(60)) {
            if case .entry(let entry) = event, entry.direction == .received { greeting = entry.text }
        }
        #expect(greeting?.hasPrefix("x-test=tunnelled") == true)
        #expect(proxy.records.map(\.requestLine) == ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"])
        try await session.close()

        let refusing = try await RecordingProxy.start(alwaysRefuse: true)
        defer { Task { await refusing.stop() } }
        var options = WebSocketOptions()
        options.proxy = ProxyServer(
            host: "127.0.0.1", port: refusing.port, username: "ada", password: "hunter2",
            source: "the HTTP_PROXY variable")
        do {
            _ = try await WebSocketSession.connect(
                PreparedRequest(url: server.url.appendingPathComponent("echo")), options: options)
            Issue.record("the upgrade went through a refusing proxy")
        } catch {
            let sentence = String(describing: error)
            #expect(
                sentence.hasPrefix(
                    "The proxy http://ada:••••••@127.0.0.1:\(refusing.port) (from the HTTP_PROXY variable) did not open a connection to 127.0.0.1:\(server.port)"
                ))
            #expect(sentence.contains("407"))
            #expect(!sentence.contains("hunter2"))
        }
    }

    @Test func aProxyThatAllowsCONNECTTo443OnlyCarriesPlainHTTPAndRefusesATunnelElsewhere() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start(connectPorts: [443])
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let rules = try #require(ProxyRules.environment(["http_proxy": proxy.url(), "https_proxy": proxy.url()]))

        let plain = await get(server.baseURL.appendingPathComponent("echo/squid"), rules: rules)
        #expect(plain.error == nil)
        #expect(plain.body?.contains("squid") == true)

        let secure = await get(URL(string: "https://127.0.0.1:\(server.port)/echo")!, rules: rules)
        #expect(
            secure.error?.hasPrefix(
                "The proxy http://127.0.0.1:\(proxy.port) (from the https_proxy variable) did not open a connection to 127.0.0.1:\(server.port): "
                    + "it refused the tunnel (its answer to CONNECT was not 2xx)") == true,
            "\(secure.error ?? "no error")")
        #expect(
            proxy.records.map(\.requestLine) == [
                "GET http://127.0.0.1:\(server.port)/echo/squid HTTP/1.1", "CONNECT 127.0.0.1:\(server.port) HTTP/1.1",
            ])
    }

    @Test func aSOCKS5ProxyCarriesHTTPHTTPSAndWebSocket() async throws {
        let server = try await TestServer.start()
        let authority = try TestCertificateAuthority()
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("socks-ca-\(UUID().uuidString).pem")
        try Data(try authority.pem.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let secure = try await TLSTests.Server.start(try authority.issue(for: "localhost").serverConfiguration())
        let sockets = try await WebSocketTestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            secure.stop()
            Task {
                await server.stop()
                await sockets.stop()
                await proxy.stop()
            }
        }
        let rules = try #require(ProxyRules.environment(["ALL_PROXY": "socks5h://127.0.0.1:\(proxy.port)"]))

        #expect(
            await get(server.baseURL.appendingPathComponent("echo/socks"), rules: rules).body?.contains("socks") == true
        )
        #expect(
            await get(
                URL(string: "https://localhost:\(secure.port)/")!, rules: rules,
                tls: TLSSettings(caCertificateFile: caFile.path)
            ).body == "secure")
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .rules(rules)))
        defer { Task { try? await transport.shutdown() } }
        let provider = TestEnvironment(sockets.url)
        let session = try await NetworkDispatcher(serverProvider: provider, transport: transport)
            .webSocket(PreparedRequest(url: sockets.url.appendingPathComponent("echo")))
        try await session.close()
        #expect(
            proxy.records.map(\.requestLine) == [
                "SOCKS5 CONNECT 127.0.0.1:\(server.port)", "SOCKS5 CONNECT localhost:\(secure.port)",
                "SOCKS5 CONNECT 127.0.0.1:\(sockets.port)",
            ])
        withExtendedLifetime(provider) {}
    }

    @Test func eachRedirectHopChoosesItsOwnProxy() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let rules = try #require(ProxyRules.environment(["http_proxy": proxy.url(), "no_proxy": "localhost"]))
        let transport = AsyncHTTPClientTransport(
            configuration: .init(connectTimeout: .seconds(30), requestTimeout: .seconds(60), proxy: .rules(rules)))
        defer { Task { try? await transport.shutdown() } }
        let target = "http://localhost:\(server.port)/echo/direct"
        let start = URL(
            string:
                "http://127.0.0.1:\(server.port)/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        )!

        let response = try await transport.send(
            PreparedRequest(
                method: .post, url: start, headers: ["Authorization": "Bearer t0ken"], body: Data("x".utf8)),
            options: TransferOptions(), progress: { _ in })
        let echo = try JSONDecoder().decode(Echo.self, from: try #require(response.body))
        // Through the proxy to 127.0.0.1 (in absolute form), then directly to localhost (in no_proxy).
        #expect(proxy.records.map(\.requestLine) == ["POST \(start.absoluteString) HTTP/1.1"])
        #expect(response.url.absoluteString == target)
        #expect(response.redirects.map(\.to.absoluteString) == [target])
        #expect(response.redirects.first?.status.code == 302)
        // As async-http-client redirects: a POST answered 302 becomes a GET; credentials stay with their origin.
        #expect(echo.method == "GET" && echo.body.isEmpty)
        #expect(echo.header("Authorization") == nil)

        // Same-origin hops keep going through the proxy, up to the limit.
        let arrived = try await transport.send(
            PreparedRequest(url: server.baseURL.appendingPathComponent("redirect/3")), options: TransferOptions(),
            progress: { _ in })
        #expect(String(decoding: arrived.body ?? Data(), as: UTF8.self) == "arrived")
        #expect(arrived.redirects.count == 3)
        await #expect(
            throws: TransportError.tooManyRedirects(
                url: server.baseURL.appendingPathComponent("redirect-loop"), limit: 10)
        ) {
            _ = try await transport.send(
                PreparedRequest(url: server.baseURL.appendingPathComponent("redirect-loop")),
                options: TransferOptions(), progress: { _ in })
        }
        let limited = AsyncHTTPClientTransport(configuration: .init(maximumRedirects: 2, proxy: .rules(rules)))
        defer { Task { try? await limited.shutdown() } }
        await #expect(
            throws: TransportError.tooManyRedirects(url: server.baseURL.appendingPathComponent("redirect/3"), limit: 2)
        ) {
            _ = try await limited.send(
                PreparedRequest(url: server.baseURL.appendingPathComponent("redirect/3")), options: TransferOptions(),
                progress: { _ in })
        }
    }

    @Test func aBodyThroughTheProxyComesWholeAtTheReadersPaceAndAReaderThatGoesClosesTheConnection() async throws {
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        let transport = AsyncHTTPClientTransport(
            configuration: .init(proxy: .rules(ProxyRules(server: ProxyServer(host: "127.0.0.1", port: proxy.port)))))
        defer { Task { try? await transport.shutdown() } }

        // Three times the body buffer, read after a pause: the exchange stops reading while the
        // buffer is full, and reads again as the reader makes room.
        let size = 3 << 20
        let streamed = try await transport.stream(
            PreparedRequest(url: server.baseURL.appendingPathComponent("bytes/\(size)")), options: TransferOptions())
        try await Task.sleep(for: .milliseconds(200))
        var received = 0
        for try await chunk in streamed.body { received += chunk.count }
        #expect(received == size)

        // A body that never ends, given up after its first chunk.
        let endless = try await transport.stream(
            PreparedRequest(url: server.baseURL.appendingPathComponent("endless")), options: TransferOptions())
        var chunks = endless.body.makeAsyncIterator()
        #expect(try await chunks.next()?.isEmpty == false)
        endless.body.cancel()
        #expect(await eventually { server.openConnections == 0 })
        #expect(
            proxy.records.map(\.requestLine) == [
                "GET http://127.0.0.1:\(server.port)/bytes/\(size) HTTP/1.1",
                "GET http://127.0.0.1:\(server.port)/endless HTTP/1.1",
            ])
    }

    @Test func theRecordingProxyForwardsAnAbsoluteFormRequest() async throws {
        // curl (and most clients) send plain http to a proxy in absolute form, not CONNECT.
        let server = try await TestServer.start()
        let proxy = try await RecordingProxy.start()
        defer {
            Task {
                await server.stop()
                await proxy.stop()
            }
        }
        // Sent to the proxy itself, with the absolute URL in the request line, as curl -x does.
        let raw = try await RawHTTP.exchange(
            port: proxy.port,
            "GET http://127.0.0.1:\(server.port)/echo/absolute HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nProxy-Authorization: Basic eDp5\r\n\r\n"
        )
        #expect(raw.hasPrefix("HTTP/1.1 200"))
        #expect(raw.contains("\"uri\":\"\\/echo\\/absolute\"") || raw.contains("\"uri\":\"/echo/absolute\""))
        #expect(!raw.lowercased().contains("proxy-authorization"))
        #expect(
            proxy.records == [
                RecordingProxy.Record(
                    requestLine: "GET http://127.0.0.1:\(server.port)/echo/absolute HTTP/1.1",
                    proxyAuthorization: "Basic eDp5", refused: false)
            ])
    }
}
