import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `auth:` in the `.http` and Postman exports: every endpoint keeps the credentials it is sent
/// with (nearest level wins, `none` stays none), as templates, so no secret is expanded.
@Suite struct ExporterAuthTests {
    let yaml = """
        name: Auth export
        auth: { type: bearer, token: "{{token}}" }
        environments:
          - name: local
            base_url: http://127.0.0.1:9
            variables: { token: s3cret-token, password: s3cret-pass, key: k3y }
            secrets: [token, password, key]
        endpoints:
          - name: Inherited
            path: /a
          - name: Open
            path: /b
            auth: none
          - folder: Admin
            auth: { type: digest, username: ada, password: "{{password}}" }
            endpoints:
              - name: Digest
                path: /c
              - name: Basic
                path: /d
                auth: { type: basic, username: ada, password: "{{password}}" }
              - name: Own header
                path: /e
                headers: { Authorization: "Custom x" }
          - name: Key in query
            path: /f
            auth: { type: api_key, name: api_key, value: "{{key}}", in: query }
          - name: Key in header
            path: /g
            auth: { type: api_key, name: X-Api-Key, value: "{{key}}" }
        """

    private func section(_ text: String, _ id: String) -> String {
        let parts = text.components(separatedBy: "\n### ")
        return parts.first { $0.hasPrefix(id + "\n") } ?? ""
    }

    @Test func theHTTPFileWritesEachEndpointsAuthAsTheClientsReadIt() throws {
        let collection = try CollectionLoader.parse(yaml, file: "auth.yaml")
        let text = HTTPFileExporter.text(for: collection, environment: nil)

        #expect(section(text, "Inherited").contains("Authorization: Bearer {{token}}"))
        #expect(!section(text, "Open").contains("Authorization"))
        #expect(section(text, "Admin/Digest").contains("Authorization: Digest ada {{password}}"))
        #expect(section(text, "Admin/Basic").contains("Authorization: Basic ada {{password}}"))
        #expect(section(text, "Admin/Own header").contains("Authorization: Custom x"))
        #expect(!section(text, "Admin/Own header").contains("Digest"))
        #expect(section(text, "Key in query").contains("GET {{baseUrl}}/f?api_key={{key}}"))
        #expect(section(text, "Key in header").contains("X-Api-Key: {{key}}"))
        for secret in ["s3cret-token", "s3cret-pass", "k3y"] { #expect(!text.contains(secret)) }
    }

    @Test func postmanGetsEachEndpointsAuthAndReadsItBack() throws {
        let collection = try CollectionLoader.parse(yaml, file: "auth.yaml")
        let json = PostmanExporter.json(for: collection)
        for secret in ["s3cret-token", "s3cret-pass", "k3y"] { #expect(!json.contains(secret)) }

        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var auths: [String: [String: Any]] = [:]
        func walk(_ items: [[String: Any]], _ prefix: String) {
            for item in items {
                let name = prefix + (item["name"] as? String ?? "")
                if let children = item["item"] as? [[String: Any]] { walk(children, name + "/") }
                if let auth = (item["request"] as? [String: Any])?["auth"] as? [String: Any] { auths[name] = auth }
            }
        }
        walk(object["item"] as? [[String: Any]] ?? [], "")
        func values(_ name: String) -> [String: String] {
            guard let auth = auths[name], let type = auth["type"] as? String, let list = auth[type] as? [[String: Any]]
            else { return [:] }
            return Dictionary(
                uniqueKeysWithValues: list.map { ($0["key"] as? String ?? "", $0["value"] as? String ?? "") })
        }
        #expect(auths["Inherited"]?["type"] as? String == "bearer" && values("Inherited") == ["token": "{{token}}"])
        #expect(auths["Open"]?["type"] as? String == "noauth")
        #expect(
            auths["Admin/Digest"]?["type"] as? String == "digest"
                && values("Admin/Digest") == ["username": "ada", "password": "{{password}}"])
        #expect(values("Admin/Basic") == ["username": "ada", "password": "{{password}}"])
        #expect(values("Key in query") == ["key": "api_key", "value": "{{key}}", "in": "query"])
        #expect(values("Key in header") == ["key": "X-Api-Key", "value": "{{key}}", "in": "header"])

        // Postman's own reader (explorer's importer) sends the same credentials back.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "auth-\(UUID().uuidString).postman.json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try PostmanImporter().importFile(at: file).collection
        #expect(try imported.endpoint(named: "Inherited").headers == [KeyValue("Authorization", "Bearer {{token}}")])
        #expect(try imported.endpoint(named: "Open").headers.isEmpty)
        #expect(
            try imported.endpoint(named: "Admin/Digest").auth?.scheme
                == .digest(username: "ada", password: "{{password}}"))
        #expect(
            try imported.endpoint(named: "Admin/Basic").auth?.scheme
                == .basic(username: "ada", password: "{{password}}"))
        #expect(try imported.endpoint(named: "Key in query").query == [KeyValue("api_key", "{{key}}")])
        #expect(try imported.endpoint(named: "Key in header").headers == [KeyValue("X-Api-Key", "{{key}}")])
    }
}
