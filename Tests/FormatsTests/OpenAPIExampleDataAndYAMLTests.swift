import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Public descriptions that were refused: an example value holding a `"$ref"` key (GitHub's
/// SCIM examples), a Markdown `*item:` line inside a description (Jira's), a block scalar whose
/// text starts with a tab (Adyen's Checkout API). Each is read as the tools it is written for
/// read it.
@Suite struct OpenAPIExampleDataAndYAMLTests {
    /// The shape of GitHub's `components/examples/scim-enterprise-group-list` (its members name
    /// users by URL under `$ref`, as SCIM does: github/rest-api-description#188).
    static let scimDocument = """
        {"openapi": "3.0.3", "info": {"title": "GitHub v3 REST API", "version": "1.1.4"},
         "servers": [{"url": "https://api.github.com"}],
         "paths": {"/scim/v2/enterprises/{enterprise}/Groups": {"get": {
           "summary": "List provisioned SCIM groups for an enterprise",
           "parameters": [{"name": "enterprise", "in": "path", "required": true, "schema": {"type": "string"}}],
           "responses": {"200": {"description": "Response", "content": {"application/scim+json": {
             "schema": {"type": "object"},
             "examples": {"default": {"$ref": "#/components/examples/scim-enterprise-group-list"}}}}}}},
           "post": {"summary": "Provision a SCIM enterprise group",
             "requestBody": {"content": {"application/json": {"schema": {"type": "object"},
               "example": {"displayName": "octo-org", "members": [
                 {"value": "92b58aaa", "$ref": "https://api.github.com/scim/v2/enterprises/octo-corp/Users/92b58aaa"}]}}}},
             "responses": {"201": {"description": "Response"}}}}},
         "components": {"examples": {"scim-enterprise-group-list": {"value": {
           "schemas": ["urn:ietf:params:scim:api:messages:2.0:ListResponse"], "totalResults": 1,
           "Resources": [{"id": "abcd27f8", "displayName": "octo-org", "members": [
             {"value": "92b58aaa-a1d6-11ea-8227-b9ce9e023ccc",
              "$ref": "https://api.github.com/scim/v2/enterprises/octo-corp/Users/92b58aaa-a1d6-11ea-8227-b9ce9e023ccc",
              "display": "octocat@github.com"}]}]}}},
           "schemas": {"Group": {"type": "object", "properties": {"example": {"$ref": "#/components/schemas/Member"}}},
             "Member": {"type": "object", "properties": {"$ref": {"type": "string"}}}}}}
        """

    @Test func aRefKeyInsideAnExampleValueIsDataNotAReference() throws {
        let result = try OpenAPIImporter().importText(Self.scimDocument, path: "api.github.com.json")
        #expect(result.collection.endpoints.count == 2)
        let post = try result.collection.endpoint(named: "Provision a SCIM enterprise group")
        guard case .json(let body)? = post.body else {
            Issue.record("the example body is not JSON: \(String(describing: post.body))")
            return
        }
        #expect(body.serialized(pretty: false).contains(#""$ref":"https://api.github.com/scim/v2/enterprises"#))
    }

    @Test func aDocumentOnDiskWithARefInAnExampleIsReadWithoutLookingForOtherFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.github.com.json")
        try Self.scimDocument.write(to: file, atomically: true, encoding: .utf8)
        #expect(try OpenAPIImporter().importFile(at: file).collection.endpoints.count == 2)
        #expect(OpenAPIImporter.hasExternalReference(try JSONValue(parsing: Self.scimDocument)) == false)
    }

    @Test func whatIsDataAndWhatIsANameAreToldApart() {
        // Data: examples, defaults, Example Objects' values, extensions, Swagger 2.0's media-type examples.
        #expect(OpenAPIImporter.holdsData("example", .object([]), at: ["components", "schemas", "A"]))
        #expect(OpenAPIImporter.holdsData("x-example", .object([]), at: ["paths", "/a", "get"]))
        #expect(OpenAPIImporter.holdsData("value", .object([]), at: ["components", "examples", "list"]))
        #expect(OpenAPIImporter.holdsData("examples", .array([]), at: ["components", "schemas", "A"]))
        #expect(OpenAPIImporter.holdsData("application/json", .object([]), at: ["responses", "200", "examples"]))
        // Names: a property called example, a component called value, an examples map.
        #expect(!OpenAPIImporter.holdsData("example", .object([]), at: ["components", "schemas", "A", "properties"]))
        #expect(!OpenAPIImporter.holdsData("examples", .object([]), at: ["paths", "/a", "get", "content", "x"]))
        #expect(!OpenAPIImporter.holdsData("default", .object([]), at: ["paths", "/a", "get", "responses"]))
        #expect(
            !OpenAPIImporter.holdsData("value", .object([]), at: ["components", "schemas", "examples", "properties"]))
    }

    /// Jira's descriptions are Markdown in folded scalars: a list item such as `*Note: …` at the
    /// start of a line is text, not an alias used as a key (an anchor of that name even exists).
    @Test func aStarLineInsideABlockOrQuotedScalarIsTextNotAnAliasKey() throws {
        let yaml = """
            openapi: 3.0.1
            info: {title: The Jira Cloud platform REST API, version: 1001.0.0-SNAPSHOT}
            servers: [{url: "https://your-domain.atlassian.net"}]
            x-defaults: &Note {a: 1}
            paths:
              /rest/api/3/attachment/{id}:
                delete:
                  description: >-
                    Deletes an attachment from an issue.

                    *Note: this cannot be undone.
                  summary: Delete attachment
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses: {"204": {description: ok}}
                get:
                  description: "Returns the metadata for an attachment.
                    *Note: the attachment itself is not returned."
                  summary: Get attachment metadata
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses: {"200": {description: ok}}
            """
        #expect(BoundedYAML.aliasKeyLine(in: yaml) == nil)
        let result = try OpenAPIImporter().importText(yaml, path: "jira.yaml")
        #expect(result.collection.endpoints.count == 2)
        // A real alias used as a key is still refused, with its line.
        #expect(BoundedYAML.aliasKeyLine(in: "a: &big [1, 2]\nb: |\n  *big: text\nc:\n  *big : x\n") == 5)
    }

    /// Adyen's Checkout API v68: a description block whose first line of text starts with a tab.
    @Test func aBlockScalarWhoseTextStartsWithATabIsReadAsPyYAMLReadsIt() throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: Adyen Checkout API, version: "68"}
            servers: [{url: "https://checkout-test.adyen.com/v68"}]
            paths:
              /payments:
                post:
                  summary: Start a transaction
                  description: |
                    \tThe payment method details.
                    Sent as they were given.
                  responses: {"200": {description: OK}}
            """
        let result = try OpenAPIImporter().importText(yaml, path: "adyen.yaml")
        #expect(result.collection.endpoints.map(\.name) == ["Start a transaction"])
        var warnings: [String] = []
        let tree = try OpenAPIImporter.documentTree(yaml, path: "adyen.yaml", limits: .current, warnings: &warnings)
        #expect(
            tree["paths"]?["/payments"]?["post"]?["description"]
                == .string("\tThe payment method details.\nSent as they were given.\n"))
        #expect(
            result.warnings.contains(
                "adyen.yaml: the tab that starts the block text of line 9 was read as text, "
                    + "as PyYAML reads it (libyaml refuses it)."))
    }
}
