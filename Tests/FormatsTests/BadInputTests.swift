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

    /// Every prefix of a Posting request, a Thunder collection and a JetBrains environment file
    /// imports (and loads back) or is refused naming the file and the line.
    @Test func everyPrefixOfAPostingThunderOrJetBrainsFileImportsOrFailsWithItsLine() throws {
        let cases: [(fixture: String, read: (Data, String) throws -> ImportResult)] = [
            (
                "posting/sample-collections/echo-post-01.posting.yaml",
                { try PostingImporter().importRequest(String(decoding: $0, as: UTF8.self), path: $1) }
            ),
            (
                "thunder/alpyca/thunder-tests/collections/tc_col_management.json",
                { try ThunderImporter().importData($0, path: $1) }
            ),
            (
                "jetbrains/hmcts-hmpp/http-client.env.json",
                { data, path in
                    try HTTPFileImporter.addingEnvironments(
                        to: try HTTPFileImporter().importText("GET http://localhost/"), files: [(data, false, path)])
                }
            ),
        ]
        for (fixture, read) in cases {
            let data = try Data(contentsOf: Fixtures.url(fixture))
            var refused = 0
            for length in stride(from: 0, through: data.count, by: 13) {
                do {
                    _ = try writtenAndReadBack(try read(data.prefix(length), "cut.file").collection)
                } catch let error as ImportError {
                    refused += 1
                    #expect("\(error)".hasPrefix("cut.file: "), "\(fixture) cut at \(length)")
                    #expect("\(error)".contains("line "), "\(fixture) cut at \(length): \(error)")
                } catch {
                    Issue.record("unexpected error \(error) for \(fixture) cut at \(length)")
                }
            }
            #expect(refused > 0, "\(fixture)")
        }
    }

    /// Every prefix of Bruno's request fixture (a block cut off, a ''' text left open) imports
    /// or is refused naming the file and its line; what imports loads back.
    @Test func everyPrefixOfABruFileImportsOrFailsWithItsLine() throws {
        let text = try Fixtures.text("bruno/lang/request.bru")
        var refused = 0
        for length in stride(from: 0, through: text.count, by: 13) {
            do {
                let result = try BrunoImporter().importData(Data(text.prefix(length).utf8), path: "p.bru")
                _ = try writtenAndReadBack(result.collection)
            } catch let error as ImportError {
                refused += 1
                #expect(error.description.hasPrefix("p.bru"), "\(error)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(refused > 0)
    }

    /// Bruno files Bruno's own grammar refuses are refused with their line, in one sentence.
    @Test func malformedBruFilesAreRefusedWithTheirLine() {
        let cases: [(String, String)] = [
            ("meta {\n  name: x\n", "p.bru:1"),
            ("get {\n  url https://a.test\n}\n", "p.bru:2"),
            ("get {\n  body: '''\n    text\n}\n", "p.bru:2"),
            ("hello\n", "p.bru:1"),
            ("headers {\n  \"open: x\n}\n", "p.bru:2"),
            ("body:json { x\n}\n", "p.bru:1"),
        ]
        for (text, location) in cases {
            #expect {
                try BrunoImporter().importData(Data(text.utf8), path: "p.bru")
            } throws: { error in
                "\(error)".hasPrefix(location) && !"\(error)".contains("\n")
            }
        }
    }

    /// Bruno's own malformed JSON exports import what they can or are refused in a sentence.
    @Test func brunosMalformedExportsImportOrFailClearly() throws {
        for name in [
            "bruno-malformed.json", "bruno-missing-required-fields.json", "bruno-http-request-missing-url.json",
        ] {
            do {
                let result = try BrunoImporter().importFile(at: Fixtures.url("bruno/json/" + name))
                _ = try writtenAndReadBack(result.collection)
            } catch let error as ImportError {
                #expect("\(error)".contains(name))
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
