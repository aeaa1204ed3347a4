import Contract
import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Checks
@testable import Terminal
@testable import Workspace

/// The TUI shows what the check against the collection's OpenAPI document found: `✗ 2 schema`
/// in the status line, a Schema tab listing each violation by pointer in the body and the
/// document, and Enter there shows the place in the Body tab.
@Suite struct SchemaTabTests {
    private static let body = #"{"data":[{"id":1,"name":"Ada"},{"id":"2","tags":[],"name":"Alan"}],"next":null}"#

    private func checkedState() throws -> AppState {
        var state = try tuiState(width: 110, height: 30)
        let id = tuiReceive(
            &state, tuiResponse(status: 200, reason: "OK", body: Self.body, contentType: "application/json"))
        var check = SchemaCheck(
            document: "api.yaml", operation: "listUsers",
            violations: [
                ContractViolation(
                    kind: .body, instancePointer: "/data/1/id",
                    schemaPointer: "/components/schemas/User/properties/id/type",
                    message: #""2" is not of type integer"#),
                ContractViolation(
                    kind: .body, instancePointer: "/next",
                    schemaPointer:
                        "/paths/~1users/get/responses/200/content/application~1json/schema/properties/next/type",
                    message: "null is not of type string"),
            ])
        let tree = try JSONValue(parsing: Data(Self.body.utf8))
        for violation in check.violations {
            check.bodyLines[violation.instancePointer] = JSONPrettyPrinter.line(of: violation.instancePointer, in: tree)
        }
        let facts = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(Self.body.utf8),
            durationMilliseconds: 5)
        _ = AppReducer.reduce(
            &state, .checked(exchange: id, Endpoint(name: "List", path: "/users").check(facts, schema: check)))
        return state
    }

    @Test func aPointerFindsTheLineThePrinterPutsItsValueOn() throws {
        let text = #"{"a":{},"b":[1,[],{"c":{"d":[true]}}],"e":"x/y","f~g":{"h":null}}"#
        let printed = try #require(Data(text.utf8).withUnsafeBytes { JSONPrettyPrinter.prettyPrint($0) })
        let lines = String(decoding: printed, as: UTF8.self).components(separatedBy: "\n")
        let tree = try JSONValue(parsing: Data(text.utf8))
        func printedLine(_ pointer: String) -> String? {
            JSONPrettyPrinter.line(of: pointer, in: tree).map { lines[$0].trimmingCharacters(in: .whitespaces) }
        }
        #expect(printedLine("") == "{")
        #expect(printedLine("/a") == #""a": {},"#)
        #expect(printedLine("/b/1") == "[],")
        #expect(printedLine("/b/2/c/d/0") == "true")
        #expect(printedLine("/e") == #""e": "x/y","#)
        #expect(printedLine("/f~0g/h") == #""h": null"#)
        #expect(JSONPrettyPrinter.line(of: "/b/9", in: tree) == nil)
        #expect(JSONPrettyPrinter.line(of: "/nowhere", in: tree) == nil)
    }

    @Test func theStatusLineSaysHowManyViolationsBesideTheChecks() throws {
        let state = try checkedState()
        let screen = screenText(state)
        #expect(screen.contains("0/1 checks · ✗ 2 schema"))
        #expect(state.responseTabs.contains(.schema))
    }

    @Test func theSchemaTabListsEachViolationAndEnterShowsItsLineInTheBody() throws {
        var state = try checkedState()
        state.focus = .response
        while state.responseTab != .schema { tuiPress(&state, .char("]")) }
        let screen = screenText(state)
        #expect(screen.contains("✗ 2 violations of listUsers in api.yaml"))
        #expect(screen.contains(#"✗ /data/1/id  "2" is not of type integer  (body line 8)"#))
        #expect(screen.contains("#/components/schemas/User/properties/id/type"))
        #expect(screen.contains("✗ /next  null is not of type string  (body line 13)"))

        // Enter at the top: the first violation's line in the Body tab.
        tuiPress(&state, KeyPress(.enter))
        #expect(state.responseTab == .body)
        #expect(state.body.text.currentMatchLine == 7)
        let body = screenText(state)
        #expect(body.contains(#""id": "2","#))
        #expect(state.message?.contains("Body line 8: /data/1/id") == true)

        // Scrolled to the second violation, Enter shows the second.
        while state.responseTab != .schema { tuiPress(&state, .char("]")) }
        state.body.text.topLine = ResponseContent.schemaHeadLines + 2
        tuiPress(&state, KeyPress(.enter))
        #expect(state.body.text.currentMatchLine == 12)
    }

    @Test func anExchangeNotCheckedHasNoSchemaTab() throws {
        var state = try tuiState(width: 100, height: 30)
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        #expect(!state.responseTabs.contains(.schema))
        #expect(!screenText(state).contains("schema"))
    }
}
