import Contract
import Foundation
import Testing

@testable import Checks
@testable import Workspace

/// `tags:` on endpoints and folders, and `explorer run --tag` / `--exclude-tag`: a folder's tags
/// apply to everything in it; any `--tag` keeps an endpoint, any `--exclude-tag` leaves it out
/// and wins; a tag nobody has is named with the closest one.
@Suite struct TagSelectionTests {
    private let text = """
        name: Tags
        environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
        endpoints:
          - { name: Health, path: /health, tags: [smoke] }
          - folder: Users
            tags: [users]
            endpoints:
              - { name: List, path: /users, tags: [smoke] }
              - { name: Export, path: /export, tags: [slow] }
              - folder: Admin
                tags: admin
                endpoints:
                  - { name: Purge, path: /purge, tags: [smoke, slow] }
          - { name: Untagged, path: /other }
        """

    private func names(_ tags: [String], excluding: [String] = [], paths: [String] = []) throws -> [String] {
        let collection = try CollectionLoader.parse(text, file: "tags.yaml")
        return try collection.endpoints(
            try collection.endpoints(selectedBy: paths), tagged: tags, excluding: excluding
        ).map(\.id)
    }

    @Test func aFoldersTagsApplyToEverythingInIt() throws {
        let collection = try CollectionLoader.parse(text, file: "tags.yaml")
        let tags = collection.tagsByEndpoint
        #expect(tags["Health"] == ["smoke"])
        #expect(tags["Users/List"] == ["smoke", "users"])
        #expect(tags["Users/Admin/Purge"] == ["smoke", "slow", "users", "admin"])
        #expect(tags["Untagged"] == [])
    }

    @Test func anyTagKeepsAnEndpointAndAnExcludedTagWins() throws {
        #expect(try names([]) == ["Health", "Users/List", "Users/Export", "Users/Admin/Purge", "Untagged"])
        #expect(try names(["smoke"]) == ["Health", "Users/List", "Users/Admin/Purge"])
        #expect(try names(["admin", "slow"]) == ["Users/Export", "Users/Admin/Purge"], "any of them")
        #expect(try names(["smoke"], excluding: ["slow"]) == ["Health", "Users/List"])
        #expect(try names([], excluding: ["users"]) == ["Health", "Untagged"])
        #expect(try names(["smoke"], paths: ["Users"]) == ["Users/List", "Users/Admin/Purge"], "with folders")
    }

    @Test func aTagNobodyHasOrNothingLeftIsOneSentence() {
        #expect(
            throws: TagSelectionError.unknown(
                "smok", known: ["smoke", "users", "slow", "admin"], suggestions: ["smoke"])
        ) {
            try names(["smok"])
        }
        #expect(
            TagSelectionError.unknown("smok", known: ["smoke", "users"], suggestions: ["smoke"]).description
                == "No endpoint or folder of the collection is tagged \"smok\" (its tags are smoke, users). "
                + "Did you mean \"smoke\"?")
        #expect(throws: TagSelectionError.nothingLeft(tags: ["admin"], excluded: ["slow"])) {
            try names(["admin"], excluding: ["slow"])
        }
        #expect(
            TagSelectionError.nothingLeft(tags: ["admin"], excluded: ["slow"]).description
                == "No endpoint selected is tagged admin and not slow: nothing to run.")
    }

    @Test func tagsRoundTripThroughTheWriterAndPassTheSchema() throws {
        let collection = try CollectionLoader.parse(text, file: "tags.yaml")
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("tags: [smoke, slow]"), "\(written)")
        let again = try CollectionLoader.parse(written, file: "again.yaml")
        #expect(again == collection)
        #expect(again.tagsByEndpoint == collection.tagsByEndpoint)
        let schema = JSONSchema(try CollectionSchemaTests.schemaDocument())
        #expect(schema.validate(try CollectionLoader.yamlValue(of: text)).isEmpty)
        #expect(
            !schema.validate(try CollectionLoader.yamlValue(of: "endpoints: [{ name: A, path: /, tags: [a b] }]"))
                .isEmpty)
    }

    @Test func aTagThatIsNotAWordIsRefusedAtItsLine() {
        for bad in ["[\"two words\"]", "[\"\"]", "{ a: b }", "[[a]]", "[\"a,b\"]"] {
            #expect(throws: CollectionError.self) {
                try CollectionLoader.parse("endpoints:\n  - { name: A, path: /, tags: \(bad) }\n", file: "t.yaml")
            }
        }
        #expect(throws: CollectionError.self) {
            try CollectionLoader.parse(
                "endpoints:\n  - { folder: F, tags: [\"x y\"], endpoints: [] }\n", file: "t.yaml")
        }
    }
}
