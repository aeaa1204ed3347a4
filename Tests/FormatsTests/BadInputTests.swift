import Foundation
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Nothing a user can type makes the workspace crash: every input gives a value or a clear error.
@Suite struct BadInputTests {
    @Test func everyPrefixOfACollectionLoadsOrFailsWithALocation() {
        let text = issueExampleYAML
        var failures = 0
        for length in stride(from: 0, through: text.count, by: 7) {
            do {
                _ = try CollectionLoader.parse(String(text.prefix(length)), file: "p.yaml")
            } catch let error as CollectionError {
                failures += 1
                #expect(error.description.hasPrefix("p.yaml:"))
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(failures > 0)
    }

    @Test func everyPrefixOfEveryFixtureCurlImportsOrFailsClearly() throws {
        let importer = CurlImporter(baseDirectory: Fixtures.url("curl"))
        for expected in try ExpectedCurl.all() {
            for length in stride(from: 0, through: expected.curl.count, by: 5) {
                do {
                    let result = try importer.importCommand(String(expected.curl.prefix(length)))
                    _ = try writtenAndReadBack(result.collection)
                } catch is ImportError {
                    // a clear sentence is enough
                } catch {
                    Issue.record("unexpected error \(error) for \(expected.curl.prefix(length))")
                }
            }
        }
    }

    @Test func everyPrefixOfTheHTTPFixturesImportsOrFailsClearly() throws {
        for fixture in ["http/petstore.http", "http/github-issues.http"] {
            let text = try Fixtures.text(fixture)
            for length in stride(from: 0, through: text.count, by: 11) {
                do {
                    let result = try HTTPFileImporter().importText(String(text.prefix(length)))
                    _ = try writtenAndReadBack(result.collection)
                } catch is ImportError {
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
    }

    @Test func templatesWithOddBracesAreLiteral() throws {
        #expect(Template("a {{ b").segments == [.literal("a {{ b")])
        #expect(Template("{{}}x").segments == [.literal("{{}}"), .literal("x")])
        #expect(Template("{{ a }}{{b}}").variableNames == ["a", "b"])
        let scope = VariableScope(collectionVariables: [KeyValue("a", "1")])
        #expect(try scope.expand("x{{a}}y{{ a }}").text == "x1y1")
    }
}
