import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// The connection settings of environments and endpoints: `follow_redirects:` (the endpoint's
/// over the environment's), `resolve:` and `proxy_tunnel:`, read, checked and written back.
@Suite struct ConnectionSettingsTests {
    let yaml = """
        name: c
        environments:
          - name: follows
            base_url: http://127.0.0.1:8080
          - name: stays
            base_url: http://127.0.0.1:8080
            follow_redirects: false
        endpoints:
          - name: Plain
            path: /plain
          - name: Login
            method: POST
            path: /login
            follow_redirects: true
          - name: Peek
            path: /peek
            follow_redirects: false
        """

    @Test func theEndpointsFollowRedirectsWinsOverTheEnvironmentsAndFollowingIsTheDefault() throws {
        let collection = try CollectionLoader.parse(yaml)
        var seen: [String] = []
        for environment in collection.environments {
            for name in ["Plain", "Login", "Peek"] {
                let resolved = try RequestResolver().resolve(
                    try collection.endpoint(named: name), in: collection, environment: environment)
                let policy = resolved.dispatcher(transport: AsyncHTTPClientTransport.shared, prompt: { _ in })
                    .redirectPolicy
                #expect(policy.followsRedirects == resolved.followsRedirects)
                seen.append("\(environment.name) \(name) \(resolved.followsRedirects)")
            }
        }
        #expect(
            seen == [
                "follows Plain true", "follows Login true", "follows Peek false",
                "stays Plain false", "stays Login true", "stays Peek false",
            ])
    }

    @Test func aValueOtherThanTrueOrFalseIsAnErrorNamingTheKeyAndLine() {
        #expect {
            try CollectionLoader.parse(
                yaml.replacingOccurrences(of: "follow_redirects: false\n", with: "follow_redirects: sometimes\n"))
        } throws: { error in
            "\(error)".contains("follow_redirects") && "\(error)".contains("true or false")
                && "\(error)".contains(":7:")
        }
    }

    @Test func writingBackKeepsEachSettingWhereItWasWritten() throws {
        let collection = try CollectionLoader.parse(yaml)
        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection))
        #expect(reread == collection)
        #expect(reread.environments.map(\.followRedirects) == [nil, false])
        #expect(
            try ["Plain", "Login", "Peek"].map { try reread.endpoint(named: $0).followRedirects } == [nil, true, false])
    }

    let resolving = """
        name: r
        environments:
          - name: staging
            base_url: https://api.example.com
            proxy_tunnel: true
            resolve:
              "API.example.com:443": 127.0.0.1
              "[::1]:8443": "::1"
          - name: plain
            base_url: http://127.0.0.1:8080
        endpoints:
          - name: Health
            path: /health
        """

    @Test func resolveAndProxyTunnelAreReadInOrderAndGivenToTheTransportAsHostPort() throws {
        let collection = try CollectionLoader.parse(resolving)
        let staging = collection.environments[0]
        #expect(staging.resolve == [KeyValue("API.example.com:443", "127.0.0.1"), KeyValue("[::1]:8443", "::1")])
        #expect(staging.resolvedAddresses == ["api.example.com:443": "127.0.0.1", "[::1]:8443": "::1"])
        #expect(staging.proxyTunnel)
        #expect(collection.environments[1].resolve.isEmpty && !collection.environments[1].proxyTunnel)
    }

    @Test(arguments: [
        ("\"api.example.com\": 127.0.0.1", "is not HOST:PORT"),
        ("\"api.example.com:99999\": 127.0.0.1", "is not HOST:PORT"),
        ("\"api.example.com:443\": localhost", "\"localhost\" is not an IP address"),
    ])
    func aResolveEntryThatCannotBeUsedIsAnErrorNamingItsLine(entry: String, problem: String) {
        let yaml = resolving.replacingOccurrences(of: "\"API.example.com:443\": 127.0.0.1", with: entry)
        #expect { try CollectionLoader.parse(yaml) } throws: { error in
            "\(error)".contains(":7:") && "\(error)".contains("resolve") && "\(error)".contains(problem)
        }
        #expect {
            try CollectionLoader.parse(
                resolving.replacingOccurrences(of: "proxy_tunnel: true", with: "proxy_tunnel: 1"))
        } throws: { error in
            "\(error)".contains("proxy_tunnel") && "\(error)".contains("true or false")
        }
    }

    @Test func writingBackKeepsResolveAndProxyTunnel() throws {
        let collection = try CollectionLoader.parse(resolving)
        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection))
        #expect(reread == collection)
        #expect(
            reread.environments[0].resolve == [
                KeyValue("API.example.com:443", "127.0.0.1"), KeyValue("[::1]:8443", "::1"),
            ])
        #expect(reread.environments[0].proxyTunnel && !reread.environments[1].proxyTunnel)
    }
}
