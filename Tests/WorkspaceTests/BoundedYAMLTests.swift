import Foundation
import Testing

@testable import Workspace

/// A "billion laughs": nine levels of ten aliases each, about 1 KB of text that would expand to
/// 10^9 nodes.
let billionLaughsYAML: String = {
    var lines = ["name: bomb", "lol0: &lol0 \"lol\""]
    for level in 1...9 {
        let aliases = Array(repeating: "*lol\(level - 1)", count: 10).joined(separator: ", ")
        lines.append("lol\(level): &lol\(level) [\(aliases)]")
    }
    lines.append("endpoints: *lol9")
    return lines.joined(separator: "\n") + "\n"
}()

@Suite struct BoundedYAMLTests {
    @Test func aBillionLaughsIsRefusedAtTheLineOfTheAliasNotExpanded() {
        #expect(billionLaughsYAML.utf8.count < 1100)
        #expect {
            try BoundedYAML.compose(billionLaughsYAML, file: "bomb.yaml")
        } throws: { error in
            guard let error = error as? DocumentLimitError else { return false }
            return error.location.file == "bomb.yaml" && error.location.line > 2
                && error.description.contains("more than 1000000 nodes")
                && error.description.contains("EXPLORER_MAX_YAML_ALIAS_NODES")
        }
    }

    @Test func theCollectionLoaderRefusesABillionLaughsWithFileAndLine() {
        #expect {
            try CollectionLoader.parse(billionLaughsYAML, file: "bomb.yaml")
        } throws: { error in
            let text = (error as? CollectionError)?.description ?? ""
            return text.hasPrefix("bomb.yaml:") && text.contains("\"billion laughs\"")
                && text.contains("EXPLORER_MAX_YAML_ALIAS_NODES=")
        }
    }

    @Test func aliasesWithinTheLimitAreRead() throws {
        let limits = DocumentLimits(maxAliasNodes: 1_000)
        let root = try #require(
            try BoundedYAML.compose(
                billionLaughsYAML.replacingOccurrences(of: "endpoints: *lol9", with: "x: 1"),
                file: "a.yaml", limits: DocumentLimits(maxAliasNodes: 10_000_000_000)))
        #expect(root.mapping?.count == 12)
        // lol2 alone is 10 aliases of lol1 (11 nodes each): 110 nodes added, then lol3 adds 10 × 111.
        let small = "a: &a [1, 2]\nb: [*a, *a]\n"
        #expect(try BoundedYAML.compose(small, file: "s.yaml", limits: limits)?.mapping?.count == 2)
        #expect(throws: DocumentLimitError.self) {
            try BoundedYAML.compose(small, file: "s.yaml", limits: DocumentLimits(maxAliasNodes: 5))
        }
    }

    @Test func deepNestingIsRefusedWithTheLine() {
        let deep = "a: 1\nb: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"
        #expect {
            try BoundedYAML.compose(deep, file: "deep.yaml", limits: DocumentLimits(maxDepth: 20))
        } throws: { error in
            (error as? DocumentLimitError).map {
                $0.location.line == 2 && $0.description.contains("deeper than 20 levels")
                    && $0.description.contains("EXPLORER_MAX_DOCUMENT_DEPTH")
            } ?? false
        }
        // Past libyaml's own limit, whatever the setting says.
        let deeper = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n"
        #expect {
            try BoundedYAML.compose(deeper, file: "deeper.yaml", limits: DocumentLimits(maxDepth: 100_000))
        } throws: { error in
            (error as? DocumentLimitError)?.description.contains("the YAML reader's own limit") ?? false
        }
    }

    @Test func aDocumentOverTheSizeLimitIsRefusedBeforeItIsRead() {
        #expect {
            try BoundedYAML.compose(
                String(repeating: "a: b\n", count: 100), file: "big.yaml", limits: DocumentLimits(maxBytes: 100))
        } throws: { error in
            (error as? DocumentLimitError)?.description
                == "big.yaml:1:1: the document is 500 bytes, over the limit of 100 bytes. If the file is trusted, set EXPLORER_MAX_DOCUMENT_SIZE=500 to read it."
        }
    }

    @Test func anAliasAsAMappingKeyIsRefused() {
        let yaml = "a: &big [1, 2, 3]\nb:\n  *big : x\n"
        #expect {
            try BoundedYAML.compose(yaml, file: "k.yaml")
        } throws: { error in
            (error as? DocumentLimitError).map {
                $0.location.line == 3 && $0.description.contains("alias is used as a mapping key")
            } ?? false
        }
        // A star in text or a list of aliases is not a key.
        #expect(BoundedYAML.aliasKeyLine(in: "a: &x 1\nb: \"*x: y\"\nc:\n  - *x\n") == nil)
    }

    @Test func theLimitsAreReadFromTheEnvironment() {
        let limits = DocumentLimits(environment: [
            "EXPLORER_MAX_DOCUMENT_SIZE": "128M", "EXPLORER_MAX_DOCUMENT_DEPTH": "900",
            "EXPLORER_MAX_YAML_ALIAS_NODES": "5000000",
        ])
        #expect(limits == DocumentLimits(maxBytes: 128 << 20, maxDepth: 900, maxAliasNodes: 5_000_000))
        #expect(DocumentLimits(environment: ["EXPLORER_MAX_DOCUMENT_SIZE": "lots"]) == DocumentLimits())
    }
}
