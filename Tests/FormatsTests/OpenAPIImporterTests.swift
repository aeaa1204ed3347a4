import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

@Suite struct OpenAPIImporterTests {
    static let fixtures = [
        "openapi/oai-petstore.yaml", "openapi/oai-uspto.yaml", "openapi/twilio-lookups-v2.json",
        "openapi/assemblyai-openapi.yml",
        "openapi/oai-swagger2-petstore-expanded.json", "openapi/oai-swagger2-uber.json",
    ]

    @Test(arguments: fixtures)
    func everyFixtureImportsAndRoundTripsThroughYAML(_ fixture: String) throws {
        let result = try OpenAPIImporter().importFile(at: Fixtures.url(fixture))
        #expect(!result.collection.endpoints.isEmpty)
        #expect(!result.collection.environments.isEmpty)
        let reloaded = try writtenAndReadBack(result.collection, file: fixture)
        #expect(reloaded.warnings.isEmpty)
        #expect(Set(reloaded.endpoints.map(\.id)).count == reloaded.endpoints.count)
    }

    @Test func petstoreBecomesFoldersPerTagWithPathVariables() throws {
        let collection = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/oai-petstore.yaml")).collection
        #expect(collection.name == "Swagger Petstore")
        #expect(collection.environments.map(\.baseURLTemplate) == ["http://petstore.swagger.io/v1"])
        #expect(
            collection.endpoints.map(\.id) == [
                "pets/List all pets", "pets/Create a pet", "pets/Info for a specific pet",
            ])
        let show = try collection.endpoint(named: "Info for a specific pet")
        #expect(show.path == "/pets/{{petId}}")
        let list = try collection.endpoint(named: "List all pets")
        #expect(list.method == .get)
        let create = try collection.endpoint(named: "Create a pet")
        #expect(create.method == .post)
        guard case .json(.object(let pairs))? = create.body else {
            Issue.record("Create a pet has no JSON body: \(String(describing: create.body))")
            return
        }
        #expect(pairs.map(\.key) == ["id", "name", "tag"])
    }

    @Test func templatedServersBecomeEnvironmentVariables() throws {
        let collection = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/oai-uspto.yaml")).collection
        let environment = try #require(collection.environments.first)
        #expect(environment.baseURLTemplate == "{{scheme}}://developer.uspto.gov/ds-api")
        #expect(environment.variables == [KeyValue("scheme", "https")])
        #expect(environment.baseURL?.absoluteString == "https://developer.uspto.gov/ds-api")
        // A form body from the schema of the search operation.
        let search = try #require(collection.endpoints.first { $0.method == .post })
        guard case .form(let fields)? = search.body else {
            Issue.record("the search operation has no form body: \(String(describing: search.body))")
            return
        }
        #expect(fields.map(\.name).contains("criteria"))
    }

    @Test func refsAreResolvedIntoBodies() throws {
        // AssemblyAI uses $ref'd request schemas and 3.1 `type: [x, "null"]`.
        let collection = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/assemblyai-openapi.yml")).collection
        let create = try #require(collection.endpoints.first { $0.method == .post && $0.path == "/v2/transcript" })
        guard case .json(.object(let pairs))? = create.body else {
            Issue.record("no JSON body from the $ref'd TranscriptParams: \(String(describing: create.body))")
            return
        }
        #expect(pairs.contains { $0.key == "audio_url" })
        let transcript = try #require(
            collection.endpoints.first { $0.method == .get && $0.path == "/v2/transcript/{{transcript_id}}" })
        #expect(transcript.folderPath.count == 1)
    }

    @Test func notOpenAPIIsAClearError() {
        #expect(throws: ImportError.self) {
            try OpenAPIImporter().importText("swagger: \"1.2\"\ninfo: {title: x, version: '1'}\npaths: {}\n")
        }
        #expect(throws: ImportError.self) { try OpenAPIImporter().importText("{ not json") }
    }
}

@Suite struct OpenAPISecurityTests {
    @Test func securitySchemesBecomeSecretCredentialsFromTheProcessEnvironment() throws {
        let collection = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/assemblyai-openapi.yml")).collection
        let environment = try #require(collection.environments.first)
        #expect(environment.variables[named: "api_key"] == "{{env.API_KEY}}")
        #expect(environment.secrets == ["api_key"])
        let list = try #require(collection.endpoints.first { $0.path == "/v2/transcript" && $0.method == .get })
        #expect(list.headers[named: "Authorization"] == "{{api_key}}")
        let resolved = try RequestResolver(processEnvironment: ["API_KEY": "key-123456"]).resolve(list, in: collection)
        #expect(resolved.request.headers["Authorization"] == "key-123456")
        #expect(resolved.masked.headers["Authorization"] == "••••••")

        let twilio = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/twilio-lookups-v2.json")).collection
        #expect(twilio.endpoints.allSatisfy { $0.headers[named: "Authorization"] == "Basic {{basic_auth}}" })
    }

    @Test func aDocumentOfWebhooksSaysWhyItHasNoEndpoint() throws {
        let result = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/oai-webhook-example.yaml"))
        #expect(result.collection.endpoints.isEmpty)
        #expect(
            result.warnings.first
                == "The document's webhooks are requests its API sends, not ones sent to it, so they are not endpoints here: newPet."
        )
    }

    @Test func aParameterWithNamedExamplesTakesTheFirstTheDocumentLists() throws {
        // Fields lists 17 named examples (caller_name first); OpenAPIKit hands them back in the
        // process's hash order and puts one of them, not the first, in `example`.
        let twilio = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/twilio-lookups-v2.json")).collection
        let fetch = try #require(twilio.endpoints.first { $0.operation == "FetchPhoneNumber" })
        #expect(fetch.query[named: "Fields"] == "caller_name")
        #expect(fetch.query[named: "LastVerifiedDate"] == "20201227")
    }
}

@Suite struct OpenAPIRecursionAndSwaggerTests {
    @Test func discordsRecursiveErrorDetailsNoLongerStopsTheImport() throws {
        // 15 of the document's paths and every component they reach, ErrorDetails' cycle
        // included (the whole 1.2 MB document takes ~40 s of one core in a debug build, which
        // starves the timing tests running beside it; `explorer bench import` imports it whole).
        let result = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/discord-openapi-reduced.json"))
        // Every operation of the document becomes an endpoint, and it writes and reads back.
        #expect(result.collection.endpoints.count == 21)
        _ = try writtenAndReadBack(result.collection)
        // ErrorDetails is reached only from error responses, which no endpoint is built from:
        // nothing needed cutting (a request body that contains itself is cut: see below).
        #expect(!result.warnings.contains { $0.contains("contain themselves") })
    }

    @Test func aRequestBodyThatContainsItselfIsCutWhereItRecursWithAWarning() throws {
        let result = try OpenAPIImporter().importText(
            """
            openapi: 3.0.3
            info: {title: Trees, version: '1'}
            paths:
              /nodes:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/Node'}
                  responses: {'201': {description: created}}
            components:
              schemas:
                Node:
                  type: object
                  properties:
                    name: {type: string, example: root}
                    children: {type: array, items: {$ref: '#/components/schemas/Node'}}
            """)
        #expect(result.warnings.contains { $0.contains("Node") && $0.contains("contain themselves") })
        let create = try #require(result.collection.endpoints.first)
        guard case .json(.object(let pairs))? = create.body else {
            Issue.record("no JSON body: \(String(describing: create.body))")
            return
        }
        // The node inside stops where Node recurs.
        #expect(pairs.map(\.key) == ["name", "children"])
        #expect(pairs.last?.value == .array([.null]))
    }

    @Test func aReferenceThatNamesNothingCostsOnlyWhatUsesIt() throws {
        let result = try OpenAPIImporter().importText(
            """
            openapi: 3.1.0
            info: {title: Broken, version: '1'}
            paths:
              /pets/{id}:
                parameters:
                  - {$ref: '#/components/parameters/Id'}
                  - {$ref: '#/components/parameters/Gone'}
                put:
                  requestBody:
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            name: {type: string, example: Rex}
                            owner: {$ref: '#/components/schemas/Missing'}
                  responses: {'204': {description: done}}
              /pets:
                get:
                  responses: {'200': {description: ok}}
            components:
              parameters:
                Id: {name: id, in: path, required: true, schema: {type: integer, example: 7}}
            """)
        #expect(result.collection.endpoints.count == 2)
        let put = try #require(result.collection.endpoints.first)
        #expect(result.collection.variables[named: "id"] == "7")
        #expect(put.body == .json(.object([(key: "name", value: .string("Rex")), (key: "owner", value: .null)])))
        #expect(
            result.warnings.contains { $0.contains("#/components/parameters/Gone") && $0.contains("PUT /pets/{id}") },
            "\(result.warnings)")
        #expect(result.warnings.contains { $0.contains("#/components/schemas/Missing") }, "\(result.warnings)")
    }

    @Test func everythingComesInTheDocumentsOrder() throws {
        // Decoded whole, the document's maps came back in the process's hash order: which
        // content type was sent, the order of an example's members and of a server's variables
        // changed from one import to the next.
        let result = try OpenAPIImporter().importText(
            """
            {"openapi": "3.0.3", "info": {"title": "Order", "version": "1"},
             "servers": [{"url": "https://{region}.example.com/{version}",
                          "variables": {"region": {"default": "eu"}, "version": {"default": "v2"}, "zone": {"default": "a"}}}],
             "paths": {"/users": {"post": {"operationId": "createUser",
               "requestBody": {"content": {
                 "application/json": {"schema": {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}},
                                      "examples": {"first": {"value": {"zeta": 1, "alpha": 2, "mid": 3}}, "second": {"value": {"other": 1}}}},
                 "application/scim+json": {"schema": {"type": "object"}}}},
               "responses": {}}}}}
            """)
        #expect(result.collection.environments.first?.variables.map(\.name) == ["region", "version", "zone"])
        let create = try #require(result.collection.endpoints.first)
        #expect(create.headers[named: "Content-Type"] == nil)
        #expect(
            create.body
                == .json(
                    .object([
                        (key: "zeta", value: .number("1")), (key: "alpha", value: .number("2")),
                        (key: "mid", value: .number("3")),
                    ])))
    }

    @Test func aRequiredNameWithoutAPropertyIsSentAsNullAndANullDefaultIsNone() throws {
        let result = try OpenAPIImporter().importText(
            """
            openapi: 3.0.3
            info: {title: Required, version: '1'}
            paths:
              /logs:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [endpoint]
                          properties:
                            token: {type: string, example: abc}
                            options: {type: object, nullable: true, default: null, properties: {usage: {type: boolean}}}
                            note: {type: string, nullable: true, example: null}
                  responses: {}
            """)
        let create = try #require(result.collection.endpoints.first)
        #expect(
            create.body
                == .json(
                    .object([
                        (key: "token", value: .string("abc")),
                        (key: "options", value: .object([(key: "usage", value: .bool(false))])),
                        (key: "note", value: .string("")), (key: "endpoint", value: .null),
                    ])))
    }

    /// A JSON document whose request body reaches `Pet.Input` and, through
    /// it, `Tag`; `Problem` is reached only from a response.
    static let prunable = """
        {"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
         "paths": {"/pets": {"post": {
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet.Input"}}}},
            "responses": {"400": {"$ref": "#/components/responses/Bad"}}}}},
         "components": {
            "schemas": {
              "Pet.Input": {"type": "object", "properties": {
                 "zone": {"type": "string", "example": "north"},
                 "age": {"type": "integer"},
                 "tag": {"$ref": "#/components/schemas/Tag"}}},
              "Tag": {"type": "object", "properties": {"label": {"type": "string", "example": "good"}}},
              "Problem": {"type": "object", "properties": {"detail": {"$ref": "#/components/schemas/Problem"}}}},
            "responses": {"Bad": {"description": "bad", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}},
            "securitySchemes": {"key": {"type": "apiKey", "name": "X-Key", "in": "header"}}}}
        """

    @Test func aDocumentIsDecodedWithoutWhatNoEndpointUses() throws {
        var warnings: [String] = []
        let pruned = try OpenAPIImporter.preparedTree(
            Self.prunable, path: "p.json", file: nil, limits: DocumentLimits(), warnings: &warnings)
        #expect(pruned["openapi"] == .string("3.1.0"))
        // Responses and what only they reach are gone; what the request body reaches, directly
        // or through another component, and the security schemes stay.
        #expect(pruned["paths"]?["/pets"]?["post"]?["responses"] == .object([]))
        #expect(pruned["components"]?["schemas"]?.members?.map(\.key) == ["Pet.Input", "Tag"])
        #expect(pruned["components"]?["responses"] == .object([]))
        #expect(pruned["components"]?["securitySchemes"]?["key"] != nil)
        #expect(warnings.isEmpty)
    }

    @Test func aJSONDocumentsExampleBodyKeepsItsPropertiesInTheDocumentsOrder() throws {
        let result = try OpenAPIImporter().importText(Self.prunable)
        let create = try #require(result.collection.endpoints.first)
        #expect(
            create.body
                == .json(
                    .object([
                        (key: "zone", value: .string("north")), (key: "age", value: .number("0")),
                        (key: "tag", value: .object([(key: "label", value: .string("good"))])),
                    ])))
        #expect(result.warnings.allSatisfy { !$0.contains("contain themselves") })
    }

    @Test func aSwaggerNameWrittenAsANumberIsKeptAsWritten() throws {
        // YAML reads `name: 2024` as a number; the rewriting to 3.0 reads it as its text.
        let result = try OpenAPIImporter().importText(
            """
            swagger: '2.0'
            info: {title: Numbers, version: '1'}
            host: api.example.com
            paths:
              /years:
                get:
                  parameters:
                    - {name: 2024, in: query, required: true, type: string}
                    - {name: limit, in: query, required: true, type: number, default: 1.50}
                  responses: {'200': {description: ok}}
            """)
        let list = try #require(result.collection.endpoints.first)
        #expect(list.query == [KeyValue("2024", "{{2024}}"), KeyValue("limit", "1.50")])
    }

    @Test func swagger2IsReadAsTheOpenAPIDocumentItDescribes() throws {
        let collection = try OpenAPIImporter().importFile(
            at: Fixtures.url("openapi/oai-swagger2-petstore-expanded.json")
        ).collection
        #expect(collection.name == "Swagger Petstore")
        #expect(collection.environments.map(\.baseURLTemplate) == ["http://petstore.swagger.io/api"])
        #expect(collection.endpoints.count == 4)
        let add = try #require(collection.endpoints.first { $0.method == .post })
        guard case .json(.object(let pairs))? = add.body else {
            Issue.record("the body parameter did not become a JSON body: \(String(describing: add.body))")
            return
        }
        #expect(pairs.map(\.key).contains("name"))
        #expect(collection.endpoints.contains { $0.path == "/pets/{{id}}" && $0.method == .delete })
    }

    @Test func swagger2EndpointsComeInTheDocumentsOrder() throws {
        // Converting to OpenAPI 3 goes through Foundation's dictionaries; the order is put back.
        let uber = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/oai-swagger2-uber.json")).collection
        #expect(uber.endpoints.map(\.path) == ["/products", "/estimates/price", "/estimates/time", "/me", "/history"])
        let petstore = try OpenAPIImporter().importFile(at: Fixtures.url("openapi/oai-swagger2-petstore-expanded.json"))
            .collection
        #expect(
            petstore.endpoints.map { "\($0.method.rawValue) \($0.path)" } == [
                "GET /pets", "POST /pets", "GET /pets/{{id}}", "DELETE /pets/{{id}}",
            ])
    }
}
