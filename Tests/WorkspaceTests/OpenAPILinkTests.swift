import Foundation
import Testing

@testable import Workspace

/// `openapi:` and `validate:` at the top of a collection and `operation:` on an endpoint: read,
/// written back the same, and a wrong type reported at its line.
@Suite struct OpenAPILinkTests {
    static let yaml = """
        name: Pets
        openapi: specs/petstore.json
        validate: true
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
        endpoints:
          - name: List pets
            path: /pets
            operation: listPets
          - name: One pet
            path: /pets/1
            operation: GET /pets/{petId}
          - name: Health
            path: /health
        """

    @Test func theDocumentAndEachOperationAreRead() throws {
        let collection = try CollectionLoader.parse(Self.yaml, file: "pets.yaml")
        #expect(collection.openAPI == "specs/petstore.json")
        #expect(collection.validatesResponses)
        #expect(collection.endpoints.map(\.operation) == ["listPets", "GET /pets/{petId}", nil])
        #expect(collection.warnings.isEmpty)
    }

    @Test func writingAndReadingBackKeepsTheLinks() throws {
        let collection = try CollectionLoader.parse(Self.yaml, file: "pets.yaml")
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("openapi: specs/petstore.json\nvalidate: true\n"))
        #expect(written.contains("  path: /pets\n  operation: listPets\n"))
        let again = try CollectionLoader.parse(written, file: "again.yaml")
        #expect(again == collection)
    }

    @Test func aCollectionWithoutThemSaysNothingOfThem() throws {
        let collection = try CollectionLoader.parse(
            "name: Plain\nendpoints:\n  - name: A\n    path: /a\n", file: "plain.yaml")
        #expect(collection.openAPI == nil)
        #expect(!collection.validatesResponses)
        let written = try CollectionWriter.yaml(for: collection)
        #expect(!written.contains("openapi") && !written.contains("validate") && !written.contains("operation"))
    }

    @Test func aValidateThatIsNotAFlagIsAnErrorAtItsLine() {
        do {
            _ = try CollectionLoader.parse("name: Pets\nvalidate: [yes]\n", file: "bad.yaml")
            Issue.record("a list as validate: was accepted")
        } catch {
            #expect(String(describing: error).hasPrefix("bad.yaml:2:"), "\(error)")
        }
    }
}
