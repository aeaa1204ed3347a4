import Contract
import Foundation
import NetworkingCore

// Validation time against parse time for a large JSON body (scripts/bench-validate).
//
// The body is a Stripe charge list (`GET /v1/charges`, 200) scaled to the size asked for by
// repeating the charge of Stripe's own fixtures; it is checked against that operation's
// response schema in Stripe's OpenAPI document. Parse and validation are timed in the same
// run, each the median of the runs; the target is validation under 0.5x the parse.

let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else {
        return nil
    }
    return arguments[arguments.index(after: index)]
}
let fixtures = URL(fileURLWithPath: option("--fixtures") ?? "Tests/Fixtures/stripe")
let megabytes = Double(option("--megabytes") ?? "10") ?? 10
let runs = Int(option("--runs") ?? "5") ?? 5

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

do {
    let documentData = try Data(contentsOf: fixtures.appendingPathComponent("spec3.json"))
    let document = try JSONValue(parsing: documentData)
    let pointer = "/paths/~1v1~1charges/get/responses/200/content/application~1json/schema"
    var set: SchemaSet?
    let compileTime = seconds {
        set = SchemaSet(document: document, pointers: [pointer], dialect: .openAPI30, assertsFormats: true)
    }
    guard let schema = set?.schemas[pointer] else { throw CocoaError(.fileReadCorruptFile) }

    let resources = try JSONValue(parsing: Data(contentsOf: fixtures.appendingPathComponent("fixtures3.json")))[
        "resources"]
    guard let charge = resources?["charge"] else { throw CocoaError(.fileReadCorruptFile) }
    let one = charge.serialized().utf8.count
    let count = max(1, Int(megabytes * 1_000_000) / (one + 1))
    let body = JSONValue.object([
        (key: "object", value: "list"),
        (key: "data", value: .array(Array(repeating: charge, count: count))),
        (key: "has_more", value: false),
        (key: "url", value: "/v1/charges"),
    ])
    let text = Data(body.serialized().utf8)

    var parses: [Double] = []
    var validations: [Double] = []
    var quick: [Double] = []
    var violations: [SchemaViolation] = []
    var parsed: JSONValue = nil
    for _ in 0..<runs {
        parses.append(try seconds { parsed = try JSONValue(parsing: text) })
        validations.append(seconds { violations = schema.validate(parsed) })
        quick.append(seconds { _ = schema.isValid(parsed) })
    }
    let parse = median(parses)
    let validation = median(validations)
    print(
        "document: Stripe spec3.json (\(documentData.count / 1000) KB), "
            + "schema compiled in \(String(format: "%.1f", compileTime * 1000)) ms, \(set!.warnings.count) warnings"
    )
    print(
        "body: \(String(format: "%.1f", Double(text.count) / 1e6)) MB, \(count) charges, \(violations.count) violations"
    )
    print(String(format: "parse:              %8.1f ms (median of %d)", parse * 1000, runs))
    print(String(format: "validate:           %8.1f ms  = %.2fx parse", validation * 1000, validation / parse))
    print(String(format: "isValid (first no): %8.1f ms  = %.2fx parse", median(quick) * 1000, median(quick) / parse))
    for violation in violations.prefix(5) { print("  \(violation)") }
    print(validation / parse < 0.5 ? "target (< 0.5x parse): met" : "target (< 0.5x parse): NOT met")
} catch {
    FileHandle.standardError.write(Data("bench-validate: \(error)\n".utf8))
    exit(1)
}
