import Foundation
import TestSupport
import Testing

@testable import ExplorerCLI
@testable import Formats
@testable import Workspace

/// `explorer import` checks that what it writes loads, from the text or from the tree the
/// text was written from.
@Suite struct ImportReadBackTests {
    private func prepared(method: String) throws -> PreparedImport {
        let har = """
            {"log": {"entries": [{"request": {"method": "\(method)", "url": "https://a.test/x"}}]}}
            """
        let imported = try HARImporter().importData(Data(har.utf8))
        return try imported.prepared(for: URL(fileURLWithPath: NSTemporaryDirectory()))
    }

    @Test func aCollectionThatLoadsPassesBothWays() throws {
        let good = try prepared(method: "GET")
        let yaml = try good.yaml()
        try ImportCommand.checkLoads(good, yaml: yaml, parsesText: true)
        try ImportCommand.checkLoads(good, yaml: yaml, parsesText: false)
        let fromTree = try CollectionLoader.parse(tree: good.tree, byteCount: yaml.utf8.count)
        let fromText = try CollectionLoader.parse(yaml)
        #expect(fromTree.endpoints.map(\.id) == ["GET /x"])
        #expect(fromTree.endpoints.map(\.id) == fromText.endpoints.map(\.id))
    }

    @Test func aCollectionThatDoesNotLoadIsCaughtFromTheTree() throws {
        let bad = try prepared(method: "G ET")
        let yaml = try bad.yaml()
        for parsesText in [true, false] {
            let error = #expect(throws: CollectionError.self) {
                try ImportCommand.checkLoads(bad, yaml: yaml, parsesText: parsesText)
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains("\"G ET\" is not a valid HTTP method"))
        }
    }

    @Test func aCollectionThatDoesNotLoadFromTheTreeNamesTheLineOfItsText() throws {
        let bad = try prepared(method: "G ET")
        let yaml = try bad.yaml()
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        // The method's line (the endpoint's name, above it, says "G ET" too).
        let line = try #require(lines.firstIndex { $0.contains("method:") && $0.contains("G ET") }) + 1
        #expect(line > 1)
        let sentences = [true, false].map { parsesText in
            #expect(throws: CollectionError.self) {
                try ImportCommand.checkLoads(bad, yaml: yaml, parsesText: parsesText)
            }.map { "\($0)" }
        }
        #expect(sentences[0]?.hasPrefix("the imported collection:\(line):") == true, "\(sentences[0] ?? "")")
        #expect(sentences[1] == sentences[0])
    }

    @Test func theTreeCheckStillRefusesTextOverTheSizeLimit() throws {
        let good = try prepared(method: "GET")
        let yaml = try good.yaml() + String(repeating: "#", count: DocumentLimits.current.maxBytes)
        #expect(throws: CollectionError.self) {
            try ImportCommand.checkLoads(good, yaml: yaml, parsesText: false)
        }
    }

    @Test func smallTextOrTheVariableParsesTheText() {
        let limit = ImportCommand.readBackTextLimit
        #expect(ImportCommand.readBackParsesText(byteCount: limit - 1, environment: [:]))
        #expect(!ImportCommand.readBackParsesText(byteCount: limit, environment: [:]))
        #expect(!ImportCommand.readBackParsesText(byteCount: limit, environment: ["EXPLORER_IMPORT_REPARSE": "0"]))
        #expect(ImportCommand.readBackParsesText(byteCount: limit, environment: ["EXPLORER_IMPORT_REPARSE": "1"]))
    }

    @Test func onlyImportRunsOnOneAllocatorArena() {
        #expect(MemoryAllocator.arenaLimit(arguments: ["import", "openapi", "spec.json"]) == 1)
        #expect(MemoryAllocator.arenaLimit(arguments: ["send", "GET /import"]) == nil)
        #expect(MemoryAllocator.arenaLimit(arguments: []) == nil)
    }
}
