import Foundation
import Testing
import Workspace

@testable import Measure

/// A collection's `compare:` as the loader reads it and the writer writes it back.
@Suite struct CompareRulesLoadingTests {
    let yaml = """
        name: Drift
        compare:
          ignore:
            - $.requestId
            - "$.items[*].updatedAt"
            - header Date
        environments:
          - name: a
            base_url: http://127.0.0.1:1
        endpoints:
          - name: Ping
            path: /ping

        """

    @Test func rulesAreReadAsQueriesAndHeaders() throws {
        let collection = try CollectionLoader.parse(yaml, file: "drift.yaml")
        #expect(
            collection.compareRules.ignore == [.path("$.requestId"), .path("$.items[*].updatedAt"), .header("Date")])
        #expect(collection.warnings.isEmpty)
    }

    @Test func aCollectionWithoutCompareIgnoresNothing() throws {
        let collection = try CollectionLoader.parse(
            yaml.replacingOccurrences(
                of: "compare:\n  ignore:\n    - $.requestId\n    - \"$.items[*].updatedAt\"\n    - header Date\n",
                with: ""))
        #expect(collection.compareRules.isEmpty)
    }

    @Test func theRulesRoundTripThroughTheWriter() throws {
        let collection = try CollectionLoader.parse(yaml)
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("compare:"))
        let again = try CollectionLoader.parse(written)
        #expect(again == collection)
    }

    @Test func aRuleThatIsNeitherAQueryNorAHeaderIsAnErrorAtItsLine() {
        let bad = yaml.replacingOccurrences(of: "- header Date", with: "- requestId")
        #expect {
            try CollectionLoader.parse(bad, file: "drift.yaml")
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("drift.yaml:6:") && text.contains("compare.ignore") && text.contains("requestId")
        }
        let broken = yaml.replacingOccurrences(of: "- $.requestId", with: "- $.items[")
        #expect {
            try CollectionLoader.parse(broken, file: "drift.yaml")
        } throws: { error in
            String(describing: error).hasPrefix("drift.yaml:4:") && String(describing: error).contains("JSONPath")
        }
    }

    @Test func anUnknownKeyUnderCompareIsAWarning() throws {
        let collection = try CollectionLoader.parse(
            yaml.replacingOccurrences(of: "compare:\n", with: "compare:\n  ignor: []\n"))
        #expect(collection.warnings.map(\.description).contains { $0.contains("unknown key \"ignor\" in compare") })
    }
}
