import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Contract

/// A real OpenAPI 3.0 document and its real examples: Stripe's `spec3.json` and the resources
/// of its `fixtures3.json` (Tests/Fixtures/stripe, see the fixtures README), each checked
/// against the component schema of its name.
@Suite struct StripeDocumentTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ContractTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/stripe")

    /// Stripe's 6 MB document, read off the cooperative pool (see offCooperativePool).
    static func document() async throws -> JSONValue {
        try await offCooperativePool {
            try JSONValue(parsing: Data(contentsOf: folder.appendingPathComponent("spec3.json")))
        }
    }

    @Test func everyFixtureResourcePassesItsComponentSchema() async throws {
        let document = try await Self.document()
        let resources = try #require(
            try JSONValue(parsing: Data(contentsOf: Self.folder.appendingPathComponent("fixtures3.json")))["resources"]?
                .members)
        let named = resources.filter { document["components"]?["schemas"]?[$0.key] != nil }
        #expect(named.count >= 100)
        let pointers = named.map { "/components/schemas/" + JSONPointer.escape($0.key) }
        let (warnings, results) = try await offCooperativePool {
            let set = SchemaSet(document: document, pointers: pointers, dialect: .openAPI30, assertsFormats: true)
            let results = zip(named, pointers).map { resource, pointer in
                (resource.key, set.schemas[pointer].map { $0.validate(resource.value).map(\.description) })
            }
            return (set.warnings.count, results)
        }
        #expect(warnings == 0)
        for (name, violations) in results {
            #expect(violations == [], "\(name): \(violations?.joined(separator: "; ") ?? "no schema compiled")")
        }
    }

    @Test func aChangedFixtureIsCaughtWhereItChanged() async throws {
        let document = try await Self.document()
        let resources = try JSONValue(parsing: Data(contentsOf: Self.folder.appendingPathComponent("fixtures3.json")))[
            "resources"]
        guard case .object(var members) = try #require(resources?["charge"]) else {
            Issue.record("charge is not an object")
            return
        }
        let amount = try #require(members.firstIndex { $0.key == "amount" })
        members[amount].value = "100"
        members.removeAll { $0.key == "currency" }
        let pointer = "/components/schemas/charge"
        let schema = try #require(
            SchemaSet(document: document, pointers: [pointer], dialect: .openAPI30).schemas[pointer])
        let violations = schema.validate(.object(members))
        #expect(violations.map(\.instancePointer) == ["/amount", ""])
        #expect(
            violations.map(\.schemaPointer) == [
                "/components/schemas/charge/properties/amount/type", "/components/schemas/charge/required",
            ])
        #expect(
            violations.map(\.message) == [
                #""100" is not of type integer"#, #"the required property "currency" is missing"#,
            ])
    }
}
