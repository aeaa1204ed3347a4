import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

@Suite struct ExporterTests {
    let resolver = RequestResolver(
        processEnvironment: ["DEMO_TOKEN": "s3cret-token"], now: Date(timeIntervalSince1970: 0), uuid: "u-1")

    @Test func curlExportMasksSecretsUnlessRevealed() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let resolved = try resolver.resolve(try collection.endpoint(named: "Create user"), in: collection)
        let masked = CurlExporter.command(for: resolved)
        #expect(masked.contains("'Authorization: Bearer ••••••'"))
        #expect(!masked.contains("s3cret-token"))
        let revealed = CurlExporter.command(for: resolved, revealSecrets: true)
        #expect(revealed.contains("'Authorization: Bearer s3cret-token'"))
        #expect(revealed.hasPrefix("curl http://127.0.0.1:8080/v1/users \\\n"))
        #expect(revealed.contains(#"--data-binary '{"name":"Ada","email":"ada@example.com"}'"#))
    }

    @Test func curlExportIsShellSafeAndReadsBackAsTheSameRequest() throws {
        let yaml = """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                method: PATCH
                path: /it's
                query: { q: "a b&c" }
                headers: { X-Quote: "it's \\"quoted\\" $HOME `cmd`" }
                body: "line1\\nline2\\ttab 'single'"
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try resolver.resolve(try collection.endpoint(named: "p"), in: collection)
        let command = CurlExporter.command(for: resolved, revealSecrets: true)
        let parsed = try CurlImporter().parse(command)
        #expect(parsed.method == .patch)
        #expect(parsed.url == resolved.url)
        #expect(parsed.headers.first { $0.name == "X-Quote" }?.value == "it's \"quoted\" $HOME `cmd`")
        #expect(parsed.body == "line1\nline2\ttab 'single'")
    }

    @Test func httpExportReadsBackThroughTheImporter() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let text = HTTPFileExporter.text(for: collection, environment: collection.environments[0])
        #expect(text.contains("@baseUrl = http://127.0.0.1:8080/v1"))
        #expect(text.contains("@token = {{$processEnv DEMO_TOKEN}}"))
        #expect(text.contains("X-Request-Id: {{$guid}}"))
        let reimported = try HTTPFileImporter().importText(text).collection
        #expect(reimported.endpoints.map(\.method) == collection.endpoints.map(\.method))
        let getUser = try reimported.endpoint(named: "Get_user")
        #expect(getUser.path == "/users/{{user_id}}")
        #expect(getUser.headers == [KeyValue("Authorization", "Bearer {{token}}")])
    }

    @Test func httpExportLeavesSecretValuesOut() throws {
        let yaml = """
            name: x
            environments:
              - name: prod
                base_url: https://api.example.com
                secrets: [token]
                variables: { token: "literal-secret-value", region: eu }
            endpoints: [{ name: p, path: /p }]
            """
        let collection = try CollectionLoader.parse(yaml)
        let text = HTTPFileExporter.text(for: collection, environment: nil)
        #expect(!text.contains("literal-secret-value"))
        #expect(text.contains("@region = eu"))
        #expect(text.contains("# @token is a secret"))
    }
}
