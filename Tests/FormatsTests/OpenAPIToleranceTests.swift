import Checks
import Foundation
import NetworkingCore
import Synchronization
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// One odd value costs only itself: the document is imported, with a warning naming the value's
/// JSON pointer and what was kept.
@Suite struct OpenAPIToleranceTests {
    /// A document with the values public documents get wrong, each in a schema, example or
    /// security entry no endpoint needs.
    static let quirky = """
        openapi: 3.0.3
        info: {title: Quirks, version: "1"}
        servers: [{url: "https://api.example.com"}]
        security: null
        paths:
          /items:
            post:
              summary: Create item
              security: null
              requestBody:
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/Item"}
              responses: {"200": {description: ok}}
          /items/{id}:
            get:
              summary: Get item
              parameters:
                - {name: id, in: path, required: true, schema: {type: [string, "null"]}}
                - {name: size, in: query, required: true, schema: {type: string, enum: [small, 2, large]}}
              responses: {"200": {description: ok}}
        components:
          schemas:
            Item:
              type: object
              properties:
                name: {type: string}
                tags: {type: array, items: [{type: string}, {type: integer}]}
                note: {type: null}
                seed: {type: integer, maximum: 92233720368547758070, minimum: 0}
                kind: {type: string, enum: [a, 1, true]}
        """

    @Test func aDocumentWithOddValuesIsImportedWithAWarningForEach() throws {
        let result = try OpenAPIImporter().importText(Self.quirky, path: "q.yaml")
        #expect(result.collection.endpoints.map(\.name).sorted() == ["Create item", "Get item"])
        let get = try result.collection.endpoint(named: "Get item")
        #expect(get.path == "/items/{{id}}")
        #expect(get.query == [KeyValue("size", "small")])
        let warnings = result.warnings.joined(separator: "\n")
        #expect(
            warnings.contains("q.yaml#/security: `security` is null, not a list; no security requirement is read here.")
        )
        #expect(warnings.contains("q.yaml#/paths/~1items/post/security: `security` is null"))
        #expect(
            warnings.contains(
                "q.yaml#/paths/~1items~1{id}/get/parameters/0/schema/type: `type` is a list; read as \"string\" that may be null."
            ))
        #expect(
            warnings.contains(
                "q.yaml#/paths/~1items~1{id}/get/parameters/1/schema/enum: an `enum` of text holds numbers or booleans; they are read as text."
            ))
        #expect(
            warnings.contains(
                "q.yaml#/components/schemas/Item/properties/tags/items: `items` is a list of 2 schemas; the first is kept."
            ))
        #expect(
            warnings.contains(
                "q.yaml#/components/schemas/Item/properties/note/type: `type` is null; the schema is read without a type."
            ))
        #expect(
            warnings.contains(
                "q.yaml#/components/schemas/Item/properties/seed/maximum: 92233720368547758070 is not an integer this importer can hold; `maximum` dropped."
            ))
        let create = try result.collection.endpoint(named: "Create item")
        guard case .json(let body)? = create.body else {
            Issue.record("no JSON body: \(result.warnings)")
            return
        }
        #expect(body["name"] == .string(""))
        #expect(body["tags"] == .array([.string("")]))
        #expect(body["kind"] == .string("a"))
    }

    @Test func aValueNoEndpointReadsCostsNothing() throws {
        // `minLength: "many"` is not a length; a sample does not read it, so nothing is lost
        // (the whole document used to be decoded first, which refused the schema).
        let text = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "paths": {"/a": {"post": {"operationId": "makeA",
               "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                 "properties": {"good": {"type": "string", "example": "kept"}, "bad": {"type": "string", "minLength": "many"}}}}}},
               "responses": {}}}}}
            """
        let result = try OpenAPIImporter().importText(text, path: "t.json")
        let endpoint = try #require(result.collection.endpoints.first)
        guard case .json(let body)? = endpoint.body else {
            Issue.record("no JSON body")
            return
        }
        #expect(body["good"] == .string("kept"))
        #expect(body["bad"] == .string(""))
        #expect(!result.warnings.contains { $0.contains("bad") }, "\(result.warnings)")
    }

    @Test func yamlQuirksAreReadAsTheAuthorsToolsReadThemWithAWarning() throws {
        let text =
            "openapi: 3.0.0\ninfo:\n  title: \"Bell\u{07} and line\u{2028}separator\"\n  version: \"1\"\n  description: |\n    text\n\tindented by a tab\npaths:\n  /a:\n    get:\n      summary: A\n      responses: {}\n"
        let result = try OpenAPIImporter().importText(text, path: "y.yaml")
        #expect(result.collection.name == "Bell\u{FFFD} and line separator")
        #expect(result.collection.endpoints.map(\.name) == ["A"])
        #expect(
            result.warnings.contains(
                "y.yaml: control characters on line 3 were read as U+FFFD (YAML does not allow them)."))
        #expect(result.warnings.contains("y.yaml: Unicode line or paragraph separators on line 3 were read as spaces."))
        #expect(result.warnings.contains("y.yaml: a tab in the indentation of line 7 was read as spaces."))
    }

    @Test func yamlIsReadWithTheCoreSchema() throws {
        let text =
            "openapi: 3.1.0\ninfo: {title: T, version: 1.0}\npaths:\n  /a:\n    get:\n      summary: A\n      parameters:\n        - {name: answer, in: query, required: true, schema: {type: string, enum: [no, yes]}}\n        - {name: big, in: query, required: true, schema: {type: integer, example: 9223372036854775807}}\n      responses: {}\n"
        let result = try OpenAPIImporter().importText(text, path: "c.yaml")
        #expect(
            result.collection.endpoints.first?.query == [
                KeyValue("answer", "no"), KeyValue("big", "9223372036854775807"),
            ])
    }

    @Test func aSpecSplitOverFilesIsReadFromItsFolder() throws {
        let url = Fixtures.url("openapi-multifile/digitalocean/DigitalOcean-public.v2.yaml")
        let result = try OpenAPIImporter().importFile(at: url)
        #expect(result.collection.name == "DigitalOcean API")
        #expect(
            result.collection.endpoints.map(\.id).sorted() == [
                "1-Click Applications/List 1-Click Applications", "Account/Get User Information",
                "Droplets/Create a New Droplet", "Droplets/Deleting Droplets by Tag", "Droplets/List All Droplets",
            ])
        let create = try result.collection.endpoint(named: "Droplets/Create a New Droplet")
        guard case .json(let body)? = create.body else {
            Issue.record("no JSON body")
            return
        }
        #expect(body["region"] == .string("nyc3"))
        #expect(create.headers == [KeyValue("Authorization", "Bearer {{token}}")])
    }

    @Test func aSwaggerSpecSplitOverFilesHasItsParametersReadBeforeItIsRewritten() throws {
        // OAI's petstore-separate: `parameters: [$ref: 'parameters.yaml#/tagsParam', …]` in
        // Swagger's own shape; read after the rewriting to 3.0, both were dropped with a warning.
        let url = Fixtures.url("openapi-multifile/oai-petstore-separate/spec/swagger.yaml")
        let result = try OpenAPIImporter().importFile(at: url)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.collection.endpoints.map(\.id) == ["findPets", "addPet", "find pet by id", "deletePet"])
        let find = try result.collection.endpoint(named: "findPets")
        #expect(find.query.isEmpty)  // both optional, without an example
        let add = try result.collection.endpoint(named: "addPet")
        guard case .json(let body)? = add.body else {
            Issue.record("no JSON body")
            return
        }
        // NewPet.yaml: allOf Pet.yaml (id, name, tag) and its own description.
        #expect(body.members?.map(\.key) == ["id", "name", "tag", "description"])
    }

    @Test func aCollectionsLinkedSpecSplitOverFilesChecksResponsesWithItsSharedParts() throws {
        // The 401 of GET /v2/1-clicks is a $ref to shared/responses/unauthorized.yml, whose
        // schema is a $ref to shared/models/error.yml (id and message required).
        let folder = Fixtures.url("openapi-multifile/digitalocean")
        var collection = APICollection(name: "DO", sourceURL: folder.appendingPathComponent("explorer.yaml"))
        collection.openAPI = "DigitalOcean-public.v2.yaml"
        let warnings = Mutex<[String]>([])
        let contract = try #require(
            try ResponseContract.loading(for: collection) { warning in warnings.withLock { $0.append(warning) } })
        var endpoint = Endpoint(name: "List", path: "/v2/1-clicks")
        endpoint.operation = "oneClicks_list"
        func check(_ body: String) -> SchemaCheck {
            contract.check(
                endpoint, request: BasicRequest(path: "/v2/1-clicks"), url: "",
                response: CheckedResponse(
                    status: 401, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(body.utf8),
                    durationMilliseconds: 1),
                isRequired: false)
        }
        #expect(check(#"{"id": "unauthorized", "message": "Unable to authenticate you."}"#).passed)
        #expect(
            check(#"{"id": "unauthorized"}"#).violations.map(\.message) == [
                #"the required property "message" is missing"#
            ])
        #expect(warnings.withLock { $0 }.isEmpty)
    }

    @Test func aLinkedDocumentThatCannotBeReadIsNamed() throws {
        var collection = APICollection(name: "C", sourceURL: URL(fileURLWithPath: "/nonexistent-folder/explorer.yaml"))
        collection.openAPI = "api.yaml"
        #expect {
            _ = try ResponseContract.loading(for: collection)
        } throws: { error in
            "\(error)".hasPrefix("/nonexistent-folder/api.yaml: ")
                && "\(error)".contains("relative to the collection's folder")
        }
        collection.openAPI = "https://example.com/openapi.json"
        #expect(throws: ImportError.self) { _ = try ResponseContract.loading(for: collection) }
    }

    @Test func aBrokenReferenceNamesItsFileAndPointer() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let folder = directory.url
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("paths"), withIntermediateDirectories: true)
        let root = folder.appendingPathComponent("api.yaml")
        try "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: paths/a.yaml\n".write(
            to: root, atomically: true, encoding: .utf8)
        try "get:\n  summary: A\n  requestBody:\n    $ref: '../bodies.yaml#/missing'\n  responses: {}\n".write(
            to: folder.appendingPathComponent("paths/a.yaml"), atomically: true, encoding: .utf8)
        try "present: {}\n".write(to: folder.appendingPathComponent("bodies.yaml"), atomically: true, encoding: .utf8)
        #expect {
            try OpenAPIImporter().importFile(at: root)
        } throws: { error in
            "\(error)"
                == "\(folder.standardizedFileURL.path)/paths/a.yaml#/paths/~1a/get/requestBody: the OpenAPI document cannot be imported: the $ref \"../bodies.yaml#/missing\" names /missing, which bodies.yaml does not have."
        }
        try "get:\n  summary: A\n  requestBody:\n    $ref: '../../secret.yaml'\n  responses: {}\n".write(
            to: folder.appendingPathComponent("paths/a.yaml"), atomically: true, encoding: .utf8)
        #expect {
            try OpenAPIImporter().importFile(at: root)
        } throws: { error in
            "\(error)".contains("leads outside the document's folder")
        }
    }

    /// The folder check is on where a file really is: a link in the folder to a file outside
    /// it leads outside (a cloned repository's `schemas.yaml -> ~/.aws/credentials`).
    @Test func aReferenceThroughASymbolicLinkOutOfTheFolderIsRefused() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let base = directory.url
        let folder = base.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let secret = base.appendingPathComponent("secret.yaml")
        try "Token: {type: string, example: sk-live-outside}\n".write(to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("schemas.yaml").path, withDestinationPath: secret.path)
        let root = folder.appendingPathComponent("api.yaml")
        try """
        openapi: 3.0.0
        info: {title: T, version: '1'}
        paths:
          /a:
            post:
              requestBody: {content: {application/json: {schema: {$ref: 'schemas.yaml#/Token'}}}}
              responses: {}
        """.write(to: root, atomically: true, encoding: .utf8)
        #expect {
            try OpenAPIImporter().importFile(at: root)
        } throws: { error in
            "\(error)".contains("leads outside the document's folder") && !"\(error)".contains("sk-live-outside")
        }
        // A link that stays in the folder is read.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("schemas.yaml"))
        try FileManager.default.moveItem(at: secret, to: folder.appendingPathComponent("real.yaml"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("schemas.yaml").path, withDestinationPath: "real.yaml")
        #expect(throws: Never.self) { try OpenAPIImporter().importFile(at: root) }
    }

    /// The document responses are checked against is read where it really is as it is read:
    /// `openapi: api.yaml` swapped for a link out of the folder after the collection was
    /// trusted is refused, not read on that trust's word.
    @Test func aLinkedDocumentSwappedForALinkOutOfTheFolderIsNotRead() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let base = directory.url
        let folder = base.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = base.appendingPathComponent("outside.yaml")
        try "openapi: 3.0.0\ninfo: {title: Outside, version: '1'}\npaths: {}\n".write(
            to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("api.yaml").path, withDestinationPath: outside.path)
        var collection = APICollection(name: "C", sourceURL: folder.appendingPathComponent("explorer.yaml"))
        collection.openAPI = "api.yaml"
        #expect {
            _ = try ResponseContract.loading(for: collection)
        } throws: { error in
            "\(error)".contains("outside the collection's folder") && "\(error)".contains("explorer trust")
        }
    }

    @Test func schemasThatFanOutToAnEnormousBodyAreCutWithAWarning() throws {
        // Eight levels of 60 properties, each naming the next level: 60^8 values if expanded.
        var schemas: [String] = []
        for level in 0..<8 {
            let properties = (0..<60).map { "\"p\($0)\": {\"$ref\": \"#/components/schemas/L\(level + 1)\"}" }.joined(
                separator: ", ")
            schemas.append("\"L\(level)\": {\"type\": \"object\", \"properties\": {\(properties)}}")
        }
        schemas.append("\"L8\": {\"type\": \"string\"}")
        let text = """
            {"openapi": "3.1.0", "info": {"title": "Fan", "version": "1"},
             "paths": {"/a": {"post": {"operationId": "wide", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/L0"}}}}, "responses": {}}}},
             "components": {"schemas": {\(schemas.joined(separator: ", "))}}}
            """
        let result = try OpenAPIImporter().importText(text, path: "fan.json")
        let endpoint = try #require(result.collection.endpoints.first)
        guard case .json(let body)? = endpoint.body else {
            Issue.record("no JSON body")
            return
        }
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .object(let members): return 1 + members.reduce(0) { $0 + count($1.value) }
            case .array(let elements): return 1 + elements.reduce(0) { $0 + count($1) }
            default: return 1
            }
        }
        #expect(count(body) <= 2 * OpenAPIImporter.Samples.maximumValues)
        #expect(
            result.warnings.contains(
                "The example bodies of 1 operation (POST /a) stop at 5000 values; their schemas name more than that."),
            "\(result.warnings)")
    }

    @Test func aBillionLaughsInADocumentIsRefusedWithItsLine() {
        let bomb = "openapi: 3.0.0\n" + billionLaughs
        #expect {
            try OpenAPIImporter().importText(bomb, path: "bomb.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("bomb.yaml: the OpenAPI document cannot be imported: line ")
                && text.contains("EXPLORER_MAX_YAML_ALIAS_NODES")
        }
    }
}

/// A "billion laughs" in about 1 KB.
let billionLaughs: String = {
    var lines = ["lol0: &lol0 \"lol\""]
    for level in 1...9 {
        lines.append(
            "lol\(level): &lol\(level) [" + Array(repeating: "*lol\(level - 1)", count: 10).joined(separator: ", ")
                + "]")
    }
    lines.append("paths: *lol9")
    return lines.joined(separator: "\n") + "\n"
}()
