import Demo
import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import ExplorerCLI
@testable import History
@testable import Workspace

/// The environment's `proxy:` reaches the transport wherever requests are sent: `explorer
/// send`/`run` (through `ExchangeSender`) and the TUI (`TransportPool.transport(for:)`),
/// against the demo API and a recording proxy on 127.0.0.1.
@Suite struct ProxyWiringTests {
    private func collection(demoPort: Int, proxyPort: Int) throws -> APICollection {
        try CollectionLoader.parse(
            """
            name: wiring
            environments:
              - name: corp
                base_url: http://127.0.0.1:\(demoPort)/v1
                variables: { proxy_password: "hunter22" }
                proxy: { url: "http://ada:{{proxy_password}}@127.0.0.1:\(proxyPort)", no_proxy: [] }
              - name: direct
                base_url: http://127.0.0.1:\(demoPort)/v1
                proxy: none
              - name: plain
                base_url: http://127.0.0.1:\(demoPort)/v1
            endpoints:
              - name: user
                path: /users/1
            """, file: "/tmp/wiring.yaml")
    }

    private let expected = "Basic " + Data("ada:hunter22".utf8).base64EncodedString()

    /// Runs `body` with the demo API and a proxy that wants ada's credentials.
    private func withServers(_ body: (_ demoPort: Int, _ proxy: RecordingProxy) async throws -> Void) async throws {
        let demo = try await DemoServer.start(port: 0)
        let proxy = try await RecordingProxy.start(requiredAuthorization: expected)
        do {
            let port = try #require(demo.environments.first { $0.name == "local" }?.baseURL.port)
            try await body(port, proxy)
        } catch {
            await demo.stop()
            await proxy.stop()
            throw error
        }
        await demo.stop()
        await proxy.stop()
    }

    @Test func sendGoesThroughTheEnvironmentsProxyWithItsCredentialsAndHistoryKeepsNoPassword() async throws {
        try await withServers { demoPort, proxy in
            let collection = try collection(demoPort: demoPort, proxyPort: proxy.port)
            let corp = collection.environments[0]
            var sender = ExchangeSender(timeout: 10)
            try sender.useProxy(of: corp, overrides: [:])
            let transport = AsyncHTTPClientTransport(configuration: sender.transportConfiguration)
            let resolved = try RequestResolver().resolve(
                try collection.endpoint(named: "user"), in: collection, environment: corp)
            let entry = await HistoryEntry.sending(
                resolved, through: transport, options: TransferOptions(), collectionPath: "/tmp/wiring.yaml")
            try await transport.shutdown()

            #expect(entry.transportError == nil)
            #expect(entry.status == 200)
            #expect(proxy.records.map(\.requestLine) == ["GET http://127.0.0.1:\(demoPort)/v1/users/1 HTTP/1.1"])
            #expect(proxy.records.first?.proxyAuthorization == expected)
            let kept =
                "\(entry.url) \(entry.requestHeaders) \(String(decoding: entry.responseBody ?? Data(), as: UTF8.self))"
            #expect(!kept.contains("hunter22"))

            // A --var override reaches the proxy's credentials too: the proxy refuses them.
            var wrong = ExchangeSender(timeout: 10)
            try wrong.useProxy(of: corp, overrides: ["proxy_password": "wrong-one"])
            let refusing = AsyncHTTPClientTransport(configuration: wrong.transportConfiguration)
            let refused = await HistoryEntry.sending(
                resolved, through: refusing, options: TransferOptions(), collectionPath: nil)
            try await refusing.shutdown()
            #expect(
                refused.transportError?.contains(
                    "(from the proxy: of environment \"corp\") refused its user and password (407") == true,
                "\(refused.transportError ?? "no error")")
            #expect(refused.transportError?.contains("wrong-one") == false)
        }
    }

    @Test func proxyNoneAndNoSettingLeaveTheTransportsOwnChoice() async throws {
        try await withServers { demoPort, proxy in
            let collection = try collection(demoPort: demoPort, proxyPort: proxy.port)
            var direct = ExchangeSender(timeout: 10)
            try direct.useProxy(of: collection.environments[1], overrides: [:])
            #expect(direct.transportConfiguration.proxy == AsyncHTTPClientTransport.Configuration.Proxy.none)
            let transport = AsyncHTTPClientTransport(configuration: direct.transportConfiguration)
            let resolved = try RequestResolver().resolve(
                try collection.endpoint(named: "user"), in: collection, environment: collection.environments[1])
            let entry = await HistoryEntry.sending(
                resolved, through: transport, options: TransferOptions(), collectionPath: nil)
            try await transport.shutdown()
            #expect(entry.status == 200)
            #expect(proxy.records.isEmpty)

            var plain = ExchangeSender(timeout: 10)
            try plain.useProxy(of: collection.environments[2], overrides: [:])
            #expect(plain.transportConfiguration.proxy == AsyncHTTPClientTransport.Configuration.Proxy.environment)
        }
    }

    @Test func theTUIsTransportForAnEnvironmentCarriesItsProxy() async throws {
        try await withServers { demoPort, proxy in
            let collection = try collection(demoPort: demoPort, proxyPort: proxy.port)
            let shared = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
            let program = ExplorerProgram(
                transport: shared, history: nil, collectionPath: "/tmp/wiring.yaml", clipboardWriter: nil)
            let corp = try program.transports.transport(for: collection.environments[0])
            #expect(corp !== shared)
            #expect(try program.transports.transport(for: collection.environments[0]) === corp, "made once")
            #expect(try program.transports.transport(for: collection.environments[2]) === shared)

            let resolved = try RequestResolver().resolve(
                try collection.endpoint(named: "user"), in: collection, environment: collection.environments[0])
            let entry = await HistoryEntry.sending(
                resolved, through: corp, options: TransferOptions(), collectionPath: nil)
            #expect(entry.status == 200)
            #expect(proxy.records.map(\.proxyAuthorization) == [expected])

            // The Request pane says which proxy a request goes through, its password masked.
            let note = program.transports.proxyNote(for: collection.environments[0], url: resolved.url)
            #expect(note == "via proxy http://ada:••••••@127.0.0.1:\(proxy.port) (the proxy: of environment \"corp\")")
            #expect(program.transports.proxyNote(for: collection.environments[1], url: resolved.url) == nil)
            await program.shutdown()
        }
    }
}
