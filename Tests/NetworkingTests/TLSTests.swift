import Foundation
import Hummingbird
import HummingbirdHTTP2
import HummingbirdTLS
import NIOSSL
import Networking
import Testing

/// TLS against a real TLS server on 127.0.0.1 (swift-nio-ssl through Hummingbird) whose CA and
/// certificates are made at test time: a CA to trust, mutual TLS, an expired certificate, a
/// wrong host name, `insecure`, and HTTP/2 negotiated by ALPN. Each failure names the host,
/// why, and the setting that fixes it.
@Suite struct TLSTests {
    /// A TLS server answering `GET /` with "secure" until stopped.
    struct Server {
        let port: Int
        let task: Task<Void, any Error>
        let listener: ServerListener
        func stop() { Task { [task, listener] in await listener.stop(task) } }

        static func start(_ tls: TLSConfiguration, http2: Bool = false) async throws -> Server {
            let router = Router()
            router.get("/") { _, _ in "secure" }
            // An OAuth2 token endpoint and an API that wants its token, both behind the TLS.
            router.post("token") { _, _ -> Response in
                let token = #"{"access_token":"tls-token","token_type":"Bearer","expires_in":3600}"#
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: token)))
            }
            // A redirect to the URL in ?url= (an http one, for the https → http rule).
            router.get("redirect") { request, _ -> Response in
                Response(
                    status: .found, headers: [.location: request.uri.queryParameters["url"].map(String.init) ?? "/"])
            }
            router.get("me") { request, _ -> Response in
                let authorized = request.headers[.authorization] == "Bearer tls-token"
                return Response(
                    status: authorized ? .ok : .unauthorized,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: authorized ? "me" : "no")))
            }
            let listener = ServerListener()
            let app = Application(
                router: router,
                server: http2 ? try .http2Upgrade(tlsConfiguration: tls) : try .tls(.http1(), tlsConfiguration: tls),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: listener.running)
            let task = listener.run(app)
            guard let port = await listener.port(), port > 0 else {
                task.cancel()
                throw CancellationError()
            }
            return Server(port: port, task: task, listener: listener)
        }
    }

    let folder: URL
    let authority: TestCertificateAuthority
    let caFile: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        authority = try TestCertificateAuthority()
        caFile = folder.appendingPathComponent("ca.pem").path
        try Data(try authority.pem.utf8).write(to: URL(fileURLWithPath: caFile))
    }

    /// GET https://localhost:port/ with these settings; the body, or the error.
    private func get(_ server: Server, _ settings: TLSSettings?) async -> Result<
        NetworkingCore.Response<Data?>, any Error
    > {
        do {
            let transport = AsyncHTTPClientTransport(
                configuration: .init(proxy: .none, tls: try settings?.tlsConfiguration()))
            defer { Task { try? await transport.shutdown() } }
            let provider = TestEnvironment(URL(string: "https://localhost:\(server.port)")!)
            let response = try await NetworkDispatcher(serverProvider: provider, transport: transport).future(
                from: BasicRequest(path: "/")
            ).value
            withExtendedLifetime(provider) {}
            return .success(response)
        } catch {
            return .failure(error)
        }
    }

    private func tlsFailure(_ result: Result<NetworkingCore.Response<Data?>, any Error>) -> TLSFailure? {
        guard case .failure(let error) = result, case .tlsFailure(_, let reason)? = error as? TransportError else {
            return nil
        }
        return reason
    }

    private func sentence(_ result: Result<NetworkingCore.Response<Data?>, any Error>) -> String {
        if case .failure(let error) = result {
            return (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        }
        return "no error"
    }

    @Test func aServerSignedByAnUnknownCAFailsNamingTheHostAndTheSettingThatFixesIt() async throws {
        let server = try await Server.start(try authority.issue(for: "localhost").serverConfiguration())
        defer { server.stop() }

        let refused = await get(server, TLSSettings?.none)
        #expect(sentence(refused).contains("localhost"))
        #expect(
            sentence(refused).hasPrefix(
                "The secure connection to localhost failed: its certificate is not signed by a CA this machine trusts"))
        #expect(
            sentence(refused).contains(
                "set TLSSettings.caCertificateFile to the CA's PEM file (TLSSettings.insecure skips the check"),
            "\(sentence(refused))")
        #expect(
            tlsFailure(refused) == .untrustedCertificate
                && tlsFailure(refused)?.settings == [.caCertificateFile, .insecure])

        let trusted = await get(server, TLSSettings(caCertificateFile: caFile))
        #expect(String(decoding: (try trusted.get().body) ?? Data(), as: UTF8.self) == "secure")

        let insecure = await get(server, TLSSettings(insecure: true))
        #expect((try? insecure.get().statusCode.code) == 200)
    }

    @Test func anExpiredCertificateAndAWrongHostNameSayWhy() async throws {
        let expired = try await Server.start(
            try authority.issue(
                for: "localhost", validFrom: Date().addingTimeInterval(-7200),
                until: Date().addingTimeInterval(-3600)
            ).serverConfiguration())
        defer { expired.stop() }
        let old = await get(expired, TLSSettings(caCertificateFile: caFile))
        #expect(sentence(old).contains("expired"), "\(sentence(old))")

        let misnamed = try await Server.start(try authority.issue(for: "api.example.com").serverConfiguration())
        defer { misnamed.stop() }
        let wrong = await get(misnamed, TLSSettings(caCertificateFile: caFile))
        #expect(sentence(wrong).contains("is not for localhost"), "\(sentence(wrong))")
        #expect(tlsFailure(wrong) == .hostnameMismatch)
    }

    @Test func aServerThatRequiresAClientCertificateGetsOneAndRefusesWithout() async throws {
        var tls = try authority.issue(for: "localhost").serverConfiguration()
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates([try authority.nioCertificate])
        let server = try await Server.start(tls)
        defer { server.stop() }

        let without = await get(server, TLSSettings(caCertificateFile: caFile))
        #expect(
            sentence(without).contains(
                "it requires a client certificate; set TLSSettings.clientCertificateFile and TLSSettings.clientKeyFile"),
            "\(sentence(without))")
        #expect(tlsFailure(without) == .clientCertificateRequired)

        let client = try authority.issue(for: "explorer client").write(to: folder, named: "client")
        let with = await get(
            server,
            TLSSettings(caCertificateFile: caFile, clientCertificateFile: client.certificate, clientKeyFile: client.key)
        )
        #expect((try? with.get().statusCode.code) == 200, "\(sentence(with))")
    }

    @Test func http2IsNegotiatedByALPNAndTheMinimumVersionHolds() async throws {
        let server = try await Server.start(try authority.issue(for: "localhost").serverConfiguration(), http2: true)
        defer { server.stop() }
        let response = try await get(server, TLSSettings(caCertificateFile: caFile, minimumVersion: .tls1_3)).get()
        #expect(response.httpVersion == "HTTP/2")
    }

    @Test func aSettingWhoseFileDoesNotReadIsNamed() throws {
        #expect(throws: TLSSettings.Failure(setting: .caCertificateFile, path: "/no/such.pem", problem: .noSuchFile)) {
            try TLSSettings(caCertificateFile: "/no/such.pem").tlsConfiguration()
        }
        #expect(throws: TLSSettings.Failure(setting: .clientKeyFile, path: caFile, problem: .missingKey)) {
            try TLSSettings(clientCertificateFile: caFile).tlsConfiguration()
        }
        let notPEM = folder.appendingPathComponent("note.txt")
        try Data("hello".utf8).write(to: notPEM)
        #expect { try TLSSettings(caCertificateFile: notPEM.path).tlsConfiguration() } throws: { error in
            String(describing: error).hasPrefix(
                "TLSSettings.caCertificateFile \(notPEM.path) cannot be used: it is not PEM")
        }
    }

    @Test func aFailureIsWordedWithTheNamesTheCallerGivesItsSettings() {
        let missing = TLSSettings.Failure(setting: .clientKeyFile, path: "/etc/client.pem", problem: .missingKey)
        #expect(
            missing.description
                == "TLSSettings.clientKeyFile /etc/client.pem cannot be used: a client certificate needs its key: add TLSSettings.clientKeyFile."
        )
        #expect(
            missing.description(naming: { "key_" + $0.rawValue })
                == "key_clientKeyFile /etc/client.pem cannot be used: a client certificate needs its key: add key_clientKeyFile."
        )
        let locked = TLSSettings.Failure(
            setting: .clientKeyFile, path: "/k.pem", problem: .encryptedKey(passwordGiven: false))
        #expect(locked.description.hasSuffix("the key is encrypted and no TLSSettings.clientKeyPassword is set."))
        #expect(
            TLSFailure.noCommonVersion.description(host: "h", naming: { "<\($0.rawValue)>" })
                == "the server refused the handshake: no TLS version both accept; check <minimumVersion>")
        #expect(
            TLSFailure.notTLS.settings.isEmpty
                && TLSFailure.alert("TLSV1_ALERT_ACCESS_DENIED").settings.contains(.minimumVersion))
    }

    @Test func anOAuth2TokenIsObtainedOverTheSameTLSSettingsAsTheRequest() async throws {
        let server = try await Server.start(try authority.issue(for: "localhost").serverConfiguration())
        defer { server.stop() }
        let base = URL(string: "https://localhost:\(server.port)")!
        func me(_ settings: TLSSettings?) async -> Result<NetworkingCore.Response<Data?>, any Error> {
            do {
                let transport = AsyncHTTPClientTransport(
                    configuration: .init(proxy: .none, tls: try settings?.tlsConfiguration()))
                defer { Task { try? await transport.shutdown() } }
                let oauth2 = OAuth2Configuration(
                    grant: .clientCredentials, tokenURL: base.appendingPathComponent("token"), clientID: "cli",
                    clientSecret: "s3cret")
                let authenticator = OAuth2Authenticator(
                    client: OAuth2Client(configuration: oauth2, transport: transport), cacheKey: "tls")
                let provider = TestEnvironment(base)
                let dispatcher = NetworkDispatcher(
                    serverProvider: provider, transport: transport, requestAdapters: [authenticator],
                    challengeHandler: authenticator)
                let response = try await dispatcher.future(from: BasicRequest(path: "/me")).value
                withExtendedLifetime(provider) {}
                return .success(response)
            } catch {
                return .failure(error)
            }
        }
        let trusted = await me(TLSSettings(caCertificateFile: caFile))
        #expect(String(decoding: (try trusted.get().body) ?? Data(), as: UTF8.self) == "me", "\(sentence(trusted))")
        // Without the CA the token request itself is refused, with the setting that fixes it.
        let refused = await me(nil)
        #expect(sentence(refused).contains("TLSSettings.caCertificateFile"), "\(sentence(refused))")
    }
}
