import Foundation
import NetworkingCore
import Testing

@testable import Contract

/// A response checked against its operation: the status, the content type, the body.
@Suite struct OpenAPIContractTests {
    private let petstore = """
        {"openapi": "3.0.3", "servers": [{"url": "https://pets.example/v1/"}],
         "paths": {
           "/pets": {"get": {"operationId": "listPets", "responses": {
               "200": {"content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}},
               "default": {"$ref": "#/components/responses/Problem"}}}},
           "/pets/{petId}": {"get": {"responses": {
               "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
               "404": {"description": "no such pet"}}}},
           "/pets/mine": {"get": {"responses": {"2XX": {"content": {"text/*": {}}}}}}},
         "components": {
           "schemas": {"Pet": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "tag": {"type": "string", "nullable": true}}}},
           "responses": {"Problem": {"content": {"application/problem+json": {"schema": {"type": "object", "required": ["title"]}}}}}}}
        """

    private func contract() throws -> OpenAPIContract {
        try OpenAPIContract(document: try JSONValue(parsing: petstore))
    }

    @Test func operationsAreFoundByIdTemplateOrRequestPath() throws {
        let contract = try contract()
        #expect(contract.operations.map(\.name) == ["listPets", "GET /pets/{petId}", "GET /pets/mine"])
        #expect(contract.operation(id: "listPets")?.path == "/pets")
        #expect(contract.operation(method: "get", template: "/pets/{petId}")?.pointer == "/paths/~1pets~1{petId}/get")
        #expect(contract.operation(method: "GET", requestPath: "/v1/pets/42?x=1")?.path == "/pets/{petId}")
        #expect(contract.operation(method: "GET", requestPath: "/pets/mine")?.path == "/pets/mine")
        #expect(contract.operation(method: "POST", requestPath: "/pets") == nil)
    }

    @Test func aConformingResponseHasNoViolations() throws {
        let contract = try contract()
        let operation = try #require(contract.operation(id: "listPets"))
        let report = contract.check(
            operation, status: 200, contentType: "application/json; charset=utf-8",
            body: Data(#"[{"id": 1, "tag": null}]"#.utf8))
        #expect(report.violations.isEmpty)
        #expect(report.warnings.isEmpty)
    }

    @Test func theBodyIsCheckedAgainstTheResponseSchema() throws {
        let contract = try contract()
        let operation = try #require(contract.operation(id: "listPets"))
        let report = contract.check(
            operation, status: 200, contentType: "application/json", body: Data(#"[{"id": "1"}, {}]"#.utf8))
        #expect(
            report.violations.map(\.description) == [
                #"/0/id: "1" is not of type integer (#/components/schemas/Pet/properties/id/type)"#,
                #"/1: the required property "id" is missing (#/components/schemas/Pet/required)"#,
            ])
    }

    @Test func anUndeclaredStatusIsAViolationUnlessDefaultOrARangeCoversIt() throws {
        let contract = try contract()
        let pet = try #require(contract.operation(method: "GET", template: "/pets/{petId}"))
        let report = contract.check(pet, status: 500, contentType: "application/json", body: Data("{}".utf8))
        #expect(
            report.violations.map(\.description) == [
                "status 500 is not declared for GET /pets/{petId} (declared: 200, 404) (#/paths/~1pets~1{petId}/get/responses)"
            ])
        #expect(contract.check(pet, status: 404, contentType: "text/html", body: Data("gone".utf8)).violations.isEmpty)
        let mine = try #require(contract.operation(method: "GET", template: "/pets/mine"))
        #expect(contract.check(mine, status: 204, contentType: "text/plain", body: Data()).violations.isEmpty)
    }

    @Test func defaultAndResponseReferencesAreFollowed() throws {
        let contract = try contract()
        let list = try #require(contract.operation(id: "listPets"))
        let report = contract.check(
            list, status: 503, contentType: "application/problem+json", body: Data(#"{"detail": "down"}"#.utf8))
        #expect(
            report.violations.map(\.description) == [
                #"(body): the required property "title" is missing (#/components/responses/Problem/content/application~1problem+json/schema/required)"#
            ])
    }

    @Test func anUndeclaredContentTypeOrABodyThatIsNotJSONIsAViolation() throws {
        let contract = try contract()
        let list = try #require(contract.operation(id: "listPets"))
        let html = contract.check(list, status: 200, contentType: "text/html", body: Data("<p>".utf8))
        #expect(html.violations.map(\.kind) == [.contentType])
        #expect(
            html.violations.first?.message
                == "content type text/html is not declared for status 200 of listPets (declared: application/json)")
        let broken = contract.check(list, status: 200, contentType: "application/json", body: Data("[1,".utf8))
        #expect(broken.violations.map(\.kind) == [.body])
        #expect(broken.violations.first?.message.hasPrefix("the body is not JSON: line 1") == true)
    }

    @Test func aDocumentWithoutOpenAPIOrSwaggerIsRefused() throws {
        #expect(throws: ContractError.notOpenAPI) { try OpenAPIContract(document: ["paths": [:]]) }
    }

    @Test func swagger2SchemasAndProducesAreRead() throws {
        let document = try JSONValue(
            parsing: """
                {"swagger": "2.0", "basePath": "/api", "produces": ["application/json"],
                 "paths": {"/users/{id}": {"get": {"responses": {"200": {"schema": {"$ref": "#/definitions/User"}}}}}},
                 "definitions": {"User": {"type": "object", "properties": {"age": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}}}}
                """)
        let contract = try OpenAPIContract(document: document)
        let operation = try #require(contract.operation(method: "GET", requestPath: "/api/users/7"))
        #expect(
            contract.check(operation, status: 200, contentType: "application/json", body: Data(#"{"age": 0}"#.utf8))
                .violations.map(\.description)
                == ["/age: 0 is not greater than 0 (#/definitions/User/properties/age/minimum)"])
        #expect(
            contract.check(operation, status: 200, contentType: "text/xml", body: Data("<a/>".utf8)).violations.map(
                \.kind) == [.contentType])
    }
}
