import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Contract

/// Every case of the JSON Schema Test Suite's files for the keywords the engine supports
/// (`Tests/Fixtures/json-schema-test-suite`, see the fixtures README for the source, the
/// licence, and which files were left out). The cases that still fail are listed in
/// `known-failures.txt` beside them, one `dialect/file: group / test` a line: a case that
/// fails and is not listed fails this test, and so does a listed case that now passes.
@Suite struct JSONSchemaTestSuiteTests {
    struct Case: Sendable {
        let name: String
        let schema: JSONValue
        let data: JSONValue
        let valid: Bool
        let dialect: SchemaDialect
        let assertsFormats: Bool
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ContractTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/json-schema-test-suite")

    /// The suite's cases: `draft2020-12/*.json`, `draft2020-12/optional/format/*.json` (formats
    /// asserted) and `draft4/*.json`.
    static func cases() throws -> [Case] {
        var cases: [Case] = []
        let sources: [(String, SchemaDialect, Bool)] = [
            ("draft2020-12", .draft2020_12, false),
            ("draft2020-12/optional/format", .draft2020_12, true),
            ("draft4", .draft4, false),
        ]
        for (subfolder, dialect, assertsFormats) in sources {
            let directory = folder.appendingPathComponent(subfolder)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasSuffix(".json")
            }.sorted()
            for file in files {
                let groups = try JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(file)))
                for group in groups.arrayValue ?? [] {
                    let description = group["description"]?.stringValue ?? "?"
                    for test in group["tests"]?.arrayValue ?? [] {
                        cases.append(
                            Case(
                                name:
                                    "\(subfolder)/\(file): \(description) / \(test["description"]?.stringValue ?? "?")",
                                schema: group["schema"] ?? true, data: test["data"] ?? nil,
                                valid: test["valid"]?.boolValue ?? false, dialect: dialect,
                                assertsFormats: assertsFormats))
                    }
                }
            }
        }
        return cases
    }

    static func knownFailures() throws -> Set<String> {
        let text = try String(contentsOf: folder.appendingPathComponent("known-failures.txt"), encoding: .utf8)
        return Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    @Test func everyCaseOfTheSupportedKeywordsGivesTheSuitesAnswer() async throws {
        let cases = try Self.cases()
        #expect(cases.count > 1_000)
        // Seconds of computing: off the cooperative pool (see offCooperativePool).
        let failing = try await offCooperativePool {
            var failing: [String] = []
            for testCase in cases {
                let schema = JSONSchema(
                    testCase.schema, dialect: testCase.dialect, assertsFormats: testCase.assertsFormats)
                let violations = schema.validate(testCase.data)
                let quick = schema.isValid(testCase.data)
                if violations.isEmpty != testCase.valid || quick != testCase.valid {
                    failing.append(testCase.name)
                }
            }
            return failing
        }
        let known = try Self.knownFailures()
        let unexpected = failing.filter { !known.contains($0) }
        let fixed = known.subtracting(failing)
        #expect(unexpected.isEmpty, "failing and not in known-failures.txt:\n\(unexpected.joined(separator: "\n"))")
        #expect(fixed.isEmpty, "in known-failures.txt but passing now:\n\(fixed.sorted().joined(separator: "\n"))")
        print(
            "JSON Schema Test Suite: \(cases.count - failing.count) of \(cases.count) cases pass; \(failing.count) known failures"
        )
    }
}
