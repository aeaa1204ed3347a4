import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `proxy:` on an environment: read, checked at its line, written back, expanded with the
/// environment's variables when sent, its password masked; and `explorer import curl`'s
/// `-x`, `-U` and `--noproxy`.
@Suite struct ProxySettingTests {
    let yaml = """
        name: t
        environments:
          - name: corp
            base_url: https://api.example.com
            variables: { proxy_password: "hunter22" }
            proxy: http://ada:{{proxy_password}}@proxy.corp:3128
          - name: spelled
            base_url: https://api.example.com
            proxy:
              url: http://proxy.corp:3128
              user: "{{env.PROXY_USER}}"
              password: "{{proxy_password}}"
              no_proxy: [localhost, .internal.corp, 10.0.0.0/8]
          - name: direct
            base_url: http://127.0.0.1:8080
            proxy: none
          - name: default
            base_url: http://127.0.0.1:8080
        variables: { proxy_password: "s3cret-pw" }
        endpoints:
          - name: me
            path: /me
            headers: { X-Debug: "{{proxy_password}}" }
        """

    @Test func proxyIsReadInItsThreeFormsAndWrittenBack() throws {
        let collection = try CollectionLoader.parse(yaml, file: "t.yaml")
        #expect(collection.warnings.isEmpty, "\(collection.warnings)")
        guard case .server(let bare)? = collection.environments[0].proxy else {
            Issue.record("no proxy")
            return
        }
        #expect(bare.url == "http://ada:{{proxy_password}}@proxy.corp:3128")
        #expect(bare.location?.description == "t.yaml:6:12")
        guard case .server(let spelled)? = collection.environments[1].proxy else {
            Issue.record("no proxy")
            return
        }
        #expect(spelled.user == "{{env.PROXY_USER}}" && spelled.password == "{{proxy_password}}")
        #expect(spelled.noProxy == ["localhost", ".internal.corp", "10.0.0.0/8"])
        #expect(collection.environments[2].proxy == ProxySetting.none)
        #expect(collection.environments[3].proxy == nil)

        // Templates stay templates when written back.
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("proxy: http://ada:{{proxy_password}}@proxy.corp:3128"))
        #expect(written.contains("proxy: none"))
        let reread = try CollectionLoader.parse(written, file: "again.yaml")
        #expect(reread == collection)
    }

    @Test func theSettingIsExpandedWhenSentAndChoosesTheTransportsProxy() throws {
        let collection = try CollectionLoader.parse(yaml, file: "t.yaml")
        let process = ["PROXY_USER": "grace", "NO_PROXY": "ignored.example"]
        guard case .rules(let corp)? = try collection.environments[0].proxyChoice(processEnvironment: process) else {
            Issue.record("no rules")
            return
        }
        let server = try #require(try corp.proxy(for: URL(string: "https://api.example.com/me")!))
        #expect(server.host == "proxy.corp" && server.port == 3128)
        #expect(server.username == "ada" && server.password == "hunter22")
        #expect(server.source == "the proxy: of environment \"corp\"")
        // Without no_proxy:, NO_PROXY applies (as curl's -x with the variable set).
        #expect(try corp.proxy(for: URL(string: "https://ignored.example/")!) == nil)

        guard case .rules(let spelled)? = try collection.environments[1].proxyChoice(processEnvironment: process) else {
            Issue.record("no rules")
            return
        }
        let viaSpelled = try #require(try spelled.proxy(for: URL(string: "http://api.example.com/")!))
        #expect(viaSpelled.username == "grace" && viaSpelled.password == "s3cret-pw")
        #expect(try spelled.proxy(for: URL(string: "http://db.internal.corp/")!) == nil)
        #expect(try spelled.proxy(for: URL(string: "http://10.1.2.3/")!) == nil)
        #expect(try spelled.proxy(for: URL(string: "http://ignored.example/")!) != nil, "no_proxy: replaces NO_PROXY")

        #expect(
            try collection.environments[2].proxyChoice(processEnvironment: process)
                == AsyncHTTPClientTransport.Configuration.Proxy.none)
        #expect(try collection.environments[3].proxyChoice(processEnvironment: process) == nil)
    }

    @Test func anUndefinedVariableOrABadURLInTheSettingIsAnErrorAtItsLine() throws {
        let collection = try CollectionLoader.parse(
            """
            name: t
            environments:
              - name: e
                base_url: http://127.0.0.1:1
                proxy: "http://{{proxy_host}}:3128"
              - name: f
                base_url: http://127.0.0.1:1
                variables: { scheme: socks4 }
                proxy: { url: "{{scheme}}://p:1" }
            endpoints: []
            """, file: "t.yaml")
        #expect(throws: (any Error).self) { try collection.environments[0].proxyChoice(processEnvironment: [:]) }
        do {
            _ = try collection.environments[0].proxyChoice(processEnvironment: [:])
        } catch {
            #expect(
                String(describing: error).hasPrefix(
                    "t.yaml:5:12: The variable {{proxy_host}} used in the proxy of environment \"e\" is undefined"))
        }
        do {
            _ = try collection.environments[1].proxyChoice(processEnvironment: [:])
            Issue.record("a socks4 proxy was accepted")
        } catch {
            #expect(
                String(describing: error)
                    == "t.yaml:9:19: The proxy: of environment \"f\" cannot be used: \"socks4://p:1\" is not a proxy URL: only http:// and socks5:// proxies are supported, not socks4://."
            )
        }
    }

    @Test(arguments: [
        ("proxy: [a, b]", "t.yaml:5:", "a proxy URL (http://user:password@host:port), none, or a mapping"),
        ("proxy: socks4://p:1080", "t.yaml:5:", "only http:// and socks5:// proxies are supported, not socks4://"),
        (
            "proxy: socks5://ada:hunter22@p:1080", "t.yaml:5:",
            "a SOCKS5 proxy with a user and password is not supported"
        ),
        ("proxy: http://ada:hunter22@p:99999", "t.yaml:5:", "http://ada:••••••@p:99999"),
        ("proxy: { user: ada }", "t.yaml:5:", "has no \"url\""),
        ("proxy: { url: http://p:1, no_proxy: { a: b } }", "t.yaml:5:", "NO_PROXY patterns"),
        ("proxy: { url: \"https://p:1\" }", "t.yaml:5:", "use http://"),
    ])
    func aMalformedProxyIsAnErrorAtItsLine(line: String, place: String, message: String) {
        let sentence = environmentSettingError(line) ?? "it loaded"
        #expect(sentence.hasPrefix(place) && sentence.contains(message), "\(sentence)")
        #expect(!sentence.contains("hunter22"), "the password is masked")
    }

    @Test func anUnknownKeyInTheProxyIsAWarningWithADidYouMean() throws {
        let collection = try CollectionLoader.parse(
            """
            name: t
            environments:
              - name: e
                base_url: https://127.0.0.1:1
                proxy: { url: http://p:1, noproxy: [a] }
            endpoints: []
            """, file: "t.yaml")
        #expect(
            collection.warnings.map(\.description).contains {
                $0.contains("noproxy") && $0.contains("did you mean \"no_proxy\"")
            })
    }

    @Test func theProxyPasswordIsMaskedOnScreenInHistoryAndInACurlExport() throws {
        let collection = try CollectionLoader.parse(yaml, file: "t.yaml")
        let resolver = RequestResolver(processEnvironment: ["PROXY_USER": "grace"])
        for environment in collection.environments.prefix(2) {
            let resolved = try resolver.resolve(
                try collection.endpoint(named: "me"), in: collection, environment: environment)
            let password = environment.name == "corp" ? "hunter22" : "s3cret-pw"
            // A header that happens to carry it (here on purpose) is masked like a secret variable.
            #expect(resolved.request.headers["X-Debug"] == password)
            #expect(resolved.maskedHeaders["X-Debug"] == SecretMasker.mask)
            #expect(resolved.masker.secretValues.contains(password))
            let curl = CurlExporter.command(for: resolved)
            #expect(curl.contains("-x http://proxy.corp:3128"), "\(curl)")
            #expect(curl.contains(environment.name == "corp" ? "-U 'ada:••••••'" : "-U 'grace:••••••'"), "\(curl)")
            #expect(!curl.contains(password), "\(curl)")
            let shown = environment.shownVariables(processEnvironment: ["PROXY_USER": "grace"])
            #expect(!shown.contains { $0.value.contains(password) }, "\(shown)")
        }
        let direct = try resolver.resolve(
            try collection.endpoint(named: "me"), in: collection, environment: collection.environments[2])
        #expect(CurlExporter.command(for: direct).contains("--noproxy '*'"))
        #expect(CurlExporter.command(for: direct, revealSecrets: true).contains("--noproxy '*'"))
        let revealed = try resolver.resolve(
            try collection.endpoint(named: "me"), in: collection, environment: collection.environments[0])
        #expect(CurlExporter.command(for: revealed, revealSecrets: true).contains("-U ada:hunter22"))
    }

    // MARK: - explorer import curl

    private func imported(_ command: String) throws -> ImportResult {
        try CurlImporter(baseDirectory: URL(fileURLWithPath: "/work/api")).importCommand(command)
    }

    @Test func curlsProxyUserAndNoProxyBecomeTheEnvironmentsProxy() throws {
        let result = try imported(
            "curl -x http://proxy.corp:3128 -U 'ada:pa ss' --noproxy localhost,.internal https://api.example.com/v1/me")
        #expect(
            result.collection.environments.first?.proxy
                == .server(
                    ProxySetting.Server(
                        url: "http://proxy.corp:3128", user: "ada", password: "pa ss",
                        noProxy: ["localhost", ".internal"])))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: result.collection))
        #expect(reread == result.collection)

        let inline = try imported("curl --proxy http://ada:pw@proxy.corp:3128 --proxytunnel https://api.example.com/")
        #expect(
            inline.collection.environments.first?.proxy
                == .server(ProxySetting.Server(url: "http://ada:pw@proxy.corp:3128")))
        #expect(inline.warnings.isEmpty, "\(inline.warnings)")
    }

    @Test func curlsWaysOfGoingWithoutAProxyBecomeProxyNone() throws {
        #expect(
            try imported("curl -x '' https://api.example.com/").collection.environments.first?.proxy
                == ProxySetting.none)
        #expect(
            try imported("curl --noproxy '*' https://api.example.com/").collection.environments.first?.proxy
                == ProxySetting.none)
        #expect(try imported("curl https://api.example.com/").collection.environments.first?.proxy == nil)
    }

    @Test func proxyOptionsThatCannotBeKeptAreClearWarnings() throws {
        let tls = try imported("curl -x http://p:3128 --proxy-cacert ca.pem --proxy-insecure https://api.example.com/")
        #expect(
            tls.warnings.contains { $0.contains("--proxy-cacert ca.pem, --proxy-insecure") && $0.contains("not kept") },
            "\(tls.warnings)")

        // Digest to the proxy: the credentials are dropped rather than sent as Basic.
        let digest = try imported("curl -x http://p:3128 --proxy-digest -U ada:pw https://api.example.com/")
        #expect(digest.collection.environments.first?.proxy == .server(ProxySetting.Server(url: "http://p:3128")))
        #expect(
            digest.warnings.contains { $0.contains("--proxy-digest") && $0.contains("not kept") }, "\(digest.warnings)")
        let inURL = try imported("curl -x http://ada:pw@p:3128 --proxy-ntlm https://api.example.com/")
        #expect(inURL.collection.environments.first?.proxy == .server(ProxySetting.Server(url: "http://p:3128")))

        let socks4 = try imported("curl -x socks4://p:1080 https://api.example.com/")
        #expect(socks4.collection.environments.first?.proxy == nil)
        #expect(
            socks4.warnings.contains {
                $0.contains("-x socks4://p:1080 was not kept: only http:// and socks5:// proxies are supported")
            }, "\(socks4.warnings)")
        let socks5 = try imported("curl -x socks5h://p:1080 https://api.example.com/")
        #expect(socks5.collection.environments.first?.proxy == .server(ProxySetting.Server(url: "socks5h://p:1080")))
        #expect(socks5.warnings.isEmpty, "\(socks5.warnings)")
        let socksOption = try imported("curl --socks5-hostname p:1080 https://api.example.com/")
        #expect(
            socksOption.collection.environments.first?.proxy == .server(ProxySetting.Server(url: "socks5h://p:1080")))
        let socksUser = try imported("curl -x socks5://p:1080 -U ada:pw https://api.example.com/")
        #expect(socksUser.collection.environments.first?.proxy == .server(ProxySetting.Server(url: "socks5://p:1080")))
        #expect(
            socksUser.warnings.contains { $0.contains("SOCKS5 proxy with a user and password is not supported") },
            "\(socksUser.warnings)")

        let alone = try imported("curl -U ada:pw --noproxy example.com https://api.example.com/")
        #expect(alone.collection.environments.first?.proxy == nil)
        #expect(alone.warnings.contains { $0.contains("-U/--proxy-user without -x") })
        #expect(alone.warnings.contains { $0.contains("--noproxy without -x") })

        let noPassword = try imported("curl -x http://p:3128 -U ada https://api.example.com/")
        #expect(noPassword.warnings.contains { $0.contains("add proxy.password") })
    }
}
