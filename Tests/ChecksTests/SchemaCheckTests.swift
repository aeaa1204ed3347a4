import Contract
import Foundation
import NetworkingCore
import Synchronization
import Testing

@testable import Checks
@testable import Workspace

/// Responses checked against an OpenAPI document: which operation an endpoint answers to, what
/// a report counts, the `schema` assertion, and the document's mistakes told once.
@Suite struct SchemaCheckTests {
    private static let document = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "servers": [{"url": "https://api.example/v2"}],
         "paths": {
           "/pets/{petId}": {"get": {"operationId": "showPet", "responses": {
             "200": {"description": "a pet", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
             "default": {"description": "an error", "content": {"application/json": {"schema": {"type": "object", "required": ["code"]}}}}}}},
           "/pets/mine": {"get": {"responses": {"200": {"description": "mine", "content": {"application/json": {"schema": {"type": "array"}}}}}}},
           "/broken": {"get": {"operationId": "broken", "responses": {"200": {"description": "x", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Gone"}}}}}}}
         },
         "components": {"schemas": {"Pet": {"type": "object", "required": ["id", "name"],
           "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tag": {"type": "string", "nullable": true}}}}}}
        """#

    private func contract(warn: @escaping @Sendable (String) -> Void = { _ in }) throws -> ResponseContract {
        ResponseContract(
            try OpenAPIContract(document: try JSONValue(parsing: Data(Self.document.utf8))), document: "pets.json",
            warn: warn)
    }

    private func response(_ body: String, status: Int = 200, type: String = "application/json") -> CheckedResponse {
        CheckedResponse(
            status: status, headers: HTTPHeaders([("Content-Type", type)]), body: Data(body.utf8),
            durationMilliseconds: 1)
    }

    private func endpoint(_ path: String, operation: String? = nil, assertions: [String] = []) throws -> Endpoint {
        var endpoint = Endpoint(name: "E", path: path)
        endpoint.operation = operation
        endpoint.assertions = try assertions.map { try Assertion(parsing: $0) }
        return endpoint
    }

    @Test func anEndpointAnswersToTheOperationItNamesOrTheTemplateItsPathFits() throws {
        let contract = try contract()
        func found(_ path: String, operation: String? = nil, url: String = "") throws -> String? {
            try? contract.operation(
                for: endpoint(path, operation: operation), request: BasicRequest(path: path), url: url
            ).get().name
        }
        #expect(try found("/anything", operation: "showPet") == "showPet")
        #expect(try found("/anything", operation: "GET /pets/mine") == "GET /pets/mine")
        #expect(try found("/pets/7") == "showPet")
        // The most literal template wins.
        #expect(try found("/pets/mine") == "GET /pets/mine")
        // The whole URL path after the document's base path, when the request path alone does not fit.
        #expect(try found("/x", url: "https://api.example/v2/pets/7") == "showPet")
        let missing = contract.operation(
            for: try endpoint("/pets/7", operation: "listPets"), request: BasicRequest(path: "/pets/7"), url: "")
        #expect(throws: SchemaLookupFailure(message: "operation: listPets names no operation of pets.json")) {
            try missing.get()
        }
    }

    @Test func aConformingResponsePassesAndABrokenOneCountsAsOneFailedCheck() throws {
        let validation = ResponseValidation(try contract(), everyResponse: true)
        let endpoint = try endpoint("/pets/{{id}}")
        let resolved = BasicRequest(path: "/pets/7")
        let good = validation.contract.check(
            endpoint, request: resolved, url: "", response: response(#"{"id": 7, "name": "Rex", "tag": null}"#),
            isRequired: false)
        #expect(good.passed && good.violations.isEmpty && good.operation == "showPet")
        let report = endpoint.check(response(#"{"id": 7, "name": "Rex"}"#), schema: good)
        #expect(report.passed && report.summary == "1/1 checks")

        let bad = validation.contract.check(
            endpoint, request: resolved, url: "", response: response(#"{"id": "7"}"#), isRequired: false)
        #expect(bad.badge == "✗ 2 schema")
        let failed = endpoint.check(response(#"{"id": "7"}"#), schema: bad)
        #expect(!failed.passed && failed.summary == "0/1 checks")
        #expect(
            failed.failureLines == [
                "✗ schema: 2 violations of showPet in pets.json",
                "    /id: \"7\" is not of type integer (#/components/schemas/Pet/properties/id/type)",
                "    (body): the required property \"name\" is missing (#/components/schemas/Pet/required)",
            ])

        // `default` covers an undeclared status; its own schema is then checked.
        let error = validation.contract.check(
            endpoint, request: resolved, url: "", response: response(#"{"message": "x"}"#, status: 500),
            isRequired: false)
        #expect(error.violations.map(\.message) == [#"the required property "code" is missing"#])
    }

    @Test func anUndescribedEndpointIsANoteUnlessItAsksToBeChecked() throws {
        let contract = try contract()
        let loose = contract.check(
            try endpoint("/health"), request: BasicRequest(path: "/health"), url: "", response: response("{}"),
            isRequired: false)
        #expect(loose.passed && loose.unmatched == "pets.json describes no operation for GET /health")
        // Not counted as a check that passed.
        #expect(try endpoint("/health").check(response("{}"), schema: loose).summary == nil)

        let strict = try endpoint("/health", assertions: ["status == 200", "schema"])
        let check = contract.check(
            strict, request: BasicRequest(path: "/health"), url: "", response: response("{}"), isRequired: true)
        #expect(!check.passed)
        let report = strict.check(response("{}"), schema: check)
        #expect(report.summary == "1/2 checks")
        #expect(report.failureLines == ["✗ schema: pets.json describes no operation for GET /health"])
    }

    @Test func theSchemaAssertionIsWrittenAloneAndFailsWithoutADocument() throws {
        let assertion = try Assertion(parsing: "  schema ")
        #expect(assertion.query == .schema && assertion.text == "schema")
        #expect(throws: CheckSyntaxError.self) { try Assertion(parsing: "schema == 1") }
        let endpoint = try endpoint("/pets/7", assertions: ["schema"])
        let report = endpoint.check(response("{}"))
        #expect(!report.passed)
        #expect(
            report.assertions.first?.reason == "the collection names no openapi: document to check the response against"
        )
    }

    @Test func theDocumentsOwnMistakesAreToldOnceEach() throws {
        let told = Mutex<[String]>([])
        let contract = try contract { warning in told.withLock { $0.append(warning) } }
        let endpoint = try endpoint("/broken")
        for _ in 0..<3 {
            _ = contract.check(
                endpoint, request: BasicRequest(path: "/broken"), url: "", response: response("{}"), isRequired: false)
        }
        let warnings = told.withLock { $0 }
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasPrefix(
                "pets.json: #/paths/~1broken/get/responses/200/content/application~1json/schema/$ref") == true)
    }

    @Test func aCheckReadsBackFromItsJSON() throws {
        let contract = try contract()
        let check = contract.check(
            try endpoint("/pets/7"), request: BasicRequest(path: "/pets/7"), url: "",
            response: response(#"{"id": "7"}"#), isRequired: true)
        #expect(SchemaCheck(jsonObject: check.jsonObject) == check)
    }
}
