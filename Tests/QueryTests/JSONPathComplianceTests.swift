import Foundation
import NetworkingCore
import Testing

@testable import Query

/// Every case of the JSONPath Compliance Test Suite (`Tests/Fixtures/jsonpath/cts.json`, see
/// the fixtures README for its source and licence), read with the strict RFC 9535 grammar:
/// an invalid selector must be refused; a valid one must select the nodes the suite lists
/// (values and normalized paths), in its order, or in one of the orders it allows.
@Suite struct JSONPathComplianceTests {
    /// One case of the suite.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let selector: String
        let document: JSONValue?
        /// The node lists the query may give (several when the order is not determined).
        let results: [[JSONValue]]
        /// Their normalized paths, list for list.
        let paths: [[String]]
        let isInvalid: Bool

        var testDescription: String { name }
    }

    /// The suite's cases, in its order.
    static let cases: [Case] = {
        do {
            return try load()
        } catch {
            Issue.record("cts.json cannot be read: \(error)")
            return []
        }
    }()

    /// Reads `cts.json` with the project's own JSON reader (numbers keep their text).
    static func load() throws -> [Case] {
        let root = try JSONValue(parsing: try Data(contentsOf: fixtureURL("jsonpath/cts.json")))
        return (root["tests"]?.arrayValue ?? []).map { test in
            let results =
                test["result"].map { [$0.arrayValue ?? []] } ?? test["results"]?.arrayValue?.map { $0.arrayValue ?? [] }
                ?? []
            let pathLists = test["result_paths"].map { [$0] } ?? test["results_paths"]?.arrayValue ?? []
            return Case(
                name: test["name"]?.stringValue ?? "?",
                selector: test["selector"]?.stringValue ?? "",
                document: test["document"],
                results: results,
                paths: pathLists.map { ($0.arrayValue ?? []).compactMap(\.stringValue) },
                isInvalid: test["invalid_selector"]?.boolValue == true)
        }
    }

    /// A fixture of `Tests/Fixtures`, found from this file's path as the project's
    /// `Fixtures.url(_:)` (TestSupport) finds it: this file is in `Tests/QueryTests`, whose
    /// target does not depend on TestSupport.
    static func fixtureURL(_ relativePath: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // QueryTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Fixtures")
            .appendingPathComponent(relativePath)
    }

    @Test func theSuiteIsThere() {
        #expect(Self.cases.count >= 700, "cts.json holds \(Self.cases.count) cases")
    }

    @Test(arguments: cases)
    func compliance(_ test: Case) throws {
        if test.isInvalid {
            #expect(throws: JSONPath.Failure.self, "\(test.selector) must be refused") {
                try JSONPath(strict: test.selector)
            }
            return
        }
        let path = try JSONPath(strict: test.selector)
        let document = try #require(test.document)
        let selected = try path.locate(document)
        let values = selected.map(\.value)
        let paths = selected.map(\.path)
        let matching = test.results.indices.first { index in
            test.results[index].count == values.count
                && zip(test.results[index], values).allSatisfy { Self.same($0, $1) }
        }
        #expect(
            matching != nil,
            "\(test.selector) selected \(JSONValue.array(values).serialized()); expected \(test.results.map { JSONValue.array($0).serialized() })"
        )
        if let matching, test.paths.indices.contains(matching) {
            #expect(paths == test.paths[matching], "\(test.selector)")
        }
        #expect(try path.evaluate(document).count == values.count, "evaluate and locate select the same nodes")
    }

    /// Whether two JSON values are the same: numbers by value (1 and 1.0 are the same),
    /// objects whatever their members' order, strings scalar by scalar.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return Decimal(string: x) == Decimal(string: y) || Double(x) == Double(y)
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in
                    y.contains {
                        $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && same($0.value, member.value)
                    }
                }
        default: return false
        }
    }
}
