import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// An inherited `auth:` goes only to the environment's own server, in every export as when
/// explorer sends: an endpoint whose path is a whole URL of another server gets none written.
@Suite struct ExportOriginTests {
    private let yaml = """
        name: Origins
        environments:
          - name: local
            base_url: https://api.example.test/v1
            variables: { cdn: "https://cdn.example.test", same: "https://API.example.test:443" }
        auth: { type: bearer, token: inherited-t0ken }
        endpoints:
          - name: Own
            path: /me
          - name: Elsewhere
            path: https://cdn.example.test/upload
          - name: Through a variable
            path: "{{cdn}}/upload"
          - name: Same origin written out
            path: "{{same}}/v1/me"
          - name: Its own auth
            path: https://cdn.example.test/signed
            auth: { type: bearer, token: own-t0ken }
        """

    private func text(_ format: String, of endpoint: String) throws -> String {
        let whole = try CollectionLoader.parse(yaml)
        var collection = whole
        collection.items = whole.items.filter {
            if case .endpoint(let e) = $0 { return e.name == endpoint } else { return false }
        }
        let local = collection.environments.first
        switch format {
        case "http": return HTTPFileExporter.text(for: collection, environment: local)
        case "hurl": return HurlExporter.text(for: collection.endpoints, in: collection, environment: local)
        case "postman": return PostmanExporter.json(for: collection, environment: local)
        case "curl":
            let resolved = try RequestResolver(processEnvironment: [:]).resolve(collection.endpoints[0], in: collection)
            return CurlExporter.command(for: resolved, revealSecrets: true)
        default:
            let resolved = try RequestResolver(processEnvironment: [:]).resolve(collection.endpoints[0], in: collection)
            return HARExporter.json(for: [resolved], revealSecrets: true)
        }
    }

    @Test(arguments: ["http", "hurl", "postman", "curl", "har"])
    func anInheritedAuthIsWrittenOnlyForTheEnvironmentsServer(_ format: String) throws {
        #expect(
            try text(format, of: "Own").contains("inherited-t0ken"),
            "\(format): the endpoint on the environment's server")
        #expect(
            try text(format, of: "Same origin written out").contains("inherited-t0ken"),
            "\(format): the same origin, spelled otherwise")
        #expect(
            try !text(format, of: "Elsewhere").contains("inherited-t0ken"), "\(format): a whole URL of another server")
        #expect(
            try !text(format, of: "Through a variable").contains("inherited-t0ken"),
            "\(format): another server through a variable")
        #expect(
            try text(format, of: "Its own auth").contains("own-t0ken"),
            "\(format): an endpoint's own auth goes where it goes")
    }

    @Test func postmanIsToldNotToInheritWhatWasLeftOut() throws {
        let json = try JSONValue(parsing: Data(try text("postman", of: "Elsewhere").utf8))
        #expect(json["item"]?[0]?["request"]?["auth"]?["type"]?.stringValue == "noauth")
    }

    @Test func theRuleIsTheResolversOne() throws {
        let base = try #require(URL(string: "https://api.example.test/v1"))
        #expect(RequestResolver.inheritedAuthGoes(toPath: "/me", isWholeURL: false, baseURL: base))
        #expect(
            RequestResolver.inheritedAuthGoes(toPath: "https://API.example.test:443/x", isWholeURL: true, baseURL: base)
        )
        #expect(
            !RequestResolver.inheritedAuthGoes(toPath: "http://api.example.test/x", isWholeURL: true, baseURL: base))
        #expect(
            !RequestResolver.inheritedAuthGoes(
                toPath: "https://api.example.test:8443/x", isWholeURL: true, baseURL: base))
        #expect(
            !RequestResolver.inheritedAuthGoes(toPath: "https://cdn.example.test/x", isWholeURL: true, baseURL: nil))
    }
}
