import Foundation
import NetworkingCore
import ProtoCodec
import TestSupport
import Testing

/// The schema and the cases `scripts/generate-proto-fixtures` wrote from Python's protobuf.
enum ProtoFixtures {
    /// The gRPC interop protos and the explorer's test protos, from `testing.protoset`.
    static let schema: ProtoSchema = {
        do {
            return try ProtoSchema(descriptorSet: Data(contentsOf: Fixtures.url("proto/testing.protoset")))
        } catch {
            preconditionFailure("Tests/Fixtures/proto/testing.protoset: \(error)")
        }
    }()

    static let file: JSONValue = {
        do {
            return try JSONValue(parsing: Data(contentsOf: Fixtures.url("proto/cases.json")))
        } catch {
            preconditionFailure("Tests/Fixtures/proto/cases.json: \(error)")
        }
    }()

    /// A message Python encoded and wrote back as JSON.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let type: String
        let input: JSONValue
        let binary: [UInt8]
        let json: JSONValue
        var testDescription: String { name }
    }

    /// A JSON input ProtoCodec must refuse, naming `fieldPath`.
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let type: String
        let input: JSONValue
        let fieldPath: String
        var testDescription: String { name }
    }

    static let cases: [Case] = (file["cases"]?.arrayValue ?? []).map { entry in
        Case(
            name: entry["name"]?.stringValue ?? "",
            type: entry["type"]?.stringValue ?? "",
            input: entry["input"] ?? .null,
            binary: [UInt8](Data(base64Encoded: entry["binary"]?.stringValue ?? "") ?? Data()),
            json: entry["json"] ?? .null
        )
    }

    static let errorCases: [ErrorCase] = (file["errors"]?.arrayValue ?? []).map { entry in
        ErrorCase(
            name: entry["name"]?.stringValue ?? "",
            type: entry["type"]?.stringValue ?? "",
            input: entry["input"] ?? .null,
            fieldPath: entry["fieldPath"]?.stringValue ?? ""
        )
    }

    /// Whether two JSON values are the same data: numbers by value (`1.0` is `1`; a float's
    /// digits may differ where both read back as the same float: `1e-45`, `1.4013e-45`), object
    /// members in any order (a map's order is not the format's).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || Double(x) == Double(y) || (Float(x) == Float(y) && Float(x)?.isSubnormal == true)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { member in y.contains { $0.key == member.key && same($0.value, member.value) } }
        default: return a == b
        }
    }
}
