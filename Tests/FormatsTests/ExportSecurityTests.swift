import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// What an export must never write: the value of a variable a credential reads, even when
/// the collection forgot to list it in `secrets:`; and what a collection's names must never
/// do to the file: start a request or a section of their own.
@Suite struct ExportSecurityTests {
    private let yaml = """
        name: Leaky
        environments:
          - name: local
            base_url: http://127.0.0.1:9
            variables: { tkn: "{{raw}}", raw: t0ken-v4lue, key: k3y-v4lue, user: ada, creds: "ada:pa55", plain: visible }
            headers: { X-Auth-Token: "{{key}}" }
        variables: { api_secret: s3cr3t-v4lue, page: "2" }
        auth: { type: bearer, token: "{{tkn}}" }
        endpoints:
          - name: Me
            path: /me
          - name: Encoded
            path: /enc
            headers: { Authorization: "Basic {{base64 creds}}" }
        """

    @Test func aVariableACredentialReadsIsASecretWhereverItIsListed() throws {
        let collection = try CollectionLoader.parse(yaml)
        let local = try #require(collection.environments.first)
        #expect(collection.secretVariableNames(in: local) == ["tkn", "raw", "key", "creds", "api_secret"])
    }

    @Test(arguments: ["http", "postman", "hurl"])
    func noExportWritesTheirValues(_ format: String) throws {
        let collection = try CollectionLoader.parse(yaml)
        let local = collection.environments.first
        let text =
            switch format {
            case "http": HTTPFileExporter.text(for: collection, environment: local)
            case "postman": PostmanExporter.json(for: collection, environment: local)
            default: HurlExporter.text(for: collection.endpoints, in: collection, environment: local)
            }
        for value in ["t0ken-v4lue", "k3y-v4lue", "ada:pa55", "s3cr3t-v4lue"] {
            #expect(!text.contains(value), "\(format) wrote \(value)")
        }
        #expect(text.contains("visible"), "a variable no credential reads is still exported")
    }

    @Test(arguments: ["http", "hurl"])
    func aNameWithALineBreakStaysOnItsLine(_ format: String) throws {
        let endpoint = Endpoint(
            name: "Me\nDELETE http://127.0.0.1:9/everything", path: "/me\r\nX-Evil: 1",
            headers: [KeyValue("X-Note", "a\u{2028}b")])
        let collection = APICollection(name: "Names\nGET http://evil", items: [.endpoint(endpoint)])
        let text =
            format == "http"
            ? HTTPFileExporter.text(for: collection, environment: nil)
            : HurlExporter.text(for: collection.endpoints, in: collection, environment: nil)
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(
            !lines.contains { $0.hasPrefix("DELETE") || $0.hasPrefix("GET http://evil") || $0.hasPrefix("X-Evil") },
            "\(text)")
        #expect(text.contains(#"Me\nDELETE"#) && text.contains(#"a\u{2028}b"#))
    }
}
