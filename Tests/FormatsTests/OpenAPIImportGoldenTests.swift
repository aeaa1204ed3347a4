import Foundation
import TestSupport
import Testing
import Workspace

@testable import Formats

/// What `explorer import openapi` writes for a document, kept in `Tests/Fixtures/openapi-imported`
/// as written before the collection writer got its own emitter: a change of the importer or the
/// writer that changes a byte of it shows here (regenerate the file when the change is meant).
@Suite struct OpenAPIImportGoldenTests {
    @Test(arguments: ["twilio-lookups-v2.json", "discord-openapi-reduced.json", "oai-swagger2-uber.json"])
    func anImportWritesTheSameBytesAsBefore(_ document: String) throws {
        let result = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/\(document)"))
        let prepared = try result.prepared(for: FileManager.default.temporaryDirectory)
        let expected = try Fixtures.text("openapi-imported/\(document).yaml")
        let written = try prepared.yaml()
        #expect(written == expected)
        if written != expected {
            let lines = zip(
                written.split(separator: "\n", omittingEmptySubsequences: false),
                expected.split(separator: "\n", omittingEmptySubsequences: false))
            let first = lines.enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("first different line \((first?.offset ?? 0) + 1): \(first.map { "\($0.element)" } ?? "")")
        }
    }
}
