import Foundation
import NetworkingCore
import Testing

@testable import Contract

/// What the test suite does not check: where a violation is (in the body and in the
/// document), its message, OpenAPI 3.0's dialect, schemas inside a larger document, the
/// document's own mistakes, and the limits.
@Suite struct JSONSchemaTests {
    private func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    /// A small OpenAPI 3.0 document: a pet and a list of pets.
    private let petstore = """
        {"openapi": "3.0.3",
         "paths": {"/pets": {"get": {"responses": {"200": {"content": {"application/json": {"schema":
             {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}}},
         "components": {"schemas": {
             "Pet": {"type": "object", "required": ["id", "name"],
                     "properties": {"id": {"type": "integer", "minimum": 1},
                                    "name": {"type": "string", "minLength": 1},
                                    "tag": {"type": "string", "nullable": true},
                                    "owner": {"$ref": "#/components/schemas/Owner"}},
                     "additionalProperties": false},
             "Owner": {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}}}}}
        """
    private let listPointer = "/paths/~1pets/get/responses/200/content/application~1json/schema"

    @Test func aViolationNamesItsPlaceInTheBodyAndInTheDocument() throws {
        let set = SchemaSet(document: try json(petstore), pointers: [listPointer], dialect: .openAPI30)
        let schema = try #require(set.schemas[listPointer])
        let violations = schema.validate(
            try json(#"[{"id": 1, "name": "Rex"}, {"id": 0, "name": "", "colour": "red"}, {"name": "Tom"}]"#))
        #expect(violations.map(\.instancePointer) == ["/1/id", "/1/name", "/1/colour", "/2"])
        #expect(
            violations.map(\.schemaPointer) == [
                "/components/schemas/Pet/properties/id/minimum",
                "/components/schemas/Pet/properties/name/minLength",
                "/components/schemas/Pet/additionalProperties",
                "/components/schemas/Pet/required",
            ])
        #expect(
            violations.map(\.message) == [
                "0 is not at least 1",
                #""" is shorter than 1 characters"#,
                #"the property "colour" is not allowed"#,
                #"the required property "id" is missing"#,
            ])
        #expect(
            violations[0].description == "/1/id: 0 is not at least 1 (#/components/schemas/Pet/properties/id/minimum)")
        #expect(set.warnings.isEmpty)
    }

    @Test func nullableLetsNullThroughInOpenAPI30Only() throws {
        let set = SchemaSet(document: try json(petstore), pointers: [listPointer], dialect: .openAPI30)
        let schema = try #require(set.schemas[listPointer])
        #expect(schema.isValid(try json(#"[{"id": 2, "name": "Rex", "tag": null}]"#)))
        let strict = SchemaSet(document: try json(petstore), pointers: [listPointer], dialect: .draft2020_12)
        let violations = try #require(strict.schemas[listPointer]).validate(
            try json(#"[{"id": 2, "name": "Rex", "tag": null}]"#))
        #expect(violations.map(\.instancePointer) == ["/0/tag"])
        #expect(violations.first?.message == "null is not of type string")
    }

    @Test func formatsAreCheckedOnlyWhenAsked() throws {
        let body = try json(#"[{"id": 3, "name": "Rex", "owner": {"email": "not an address"}}]"#)
        let annotated = SchemaSet(document: try json(petstore), pointers: [listPointer], dialect: .openAPI30)
        #expect(try #require(annotated.schemas[listPointer]).isValid(body))
        let asserted = SchemaSet(
            document: try json(petstore), pointers: [listPointer], dialect: .openAPI30, assertsFormats: true)
        let violations = try #require(asserted.schemas[listPointer]).validate(body)
        #expect(violations.map(\.instancePointer) == ["/0/owner/email"])
        #expect(violations.map(\.schemaPointer) == ["/components/schemas/Owner/properties/email/format"])
        #expect(violations.first?.message == #""not an address" is not a valid email"#)
    }

    @Test func anUnresolvableReferenceIsOneWarningAndAcceptsAnything() throws {
        let document = try json(
            """
            {"a": {"$ref": "#/components/schemas/Missing"}, "b": {"type": "array", "items": {"$ref": "#/components/schemas/Missing"}},
             "c": {"pattern": "(unclosed"}}
            """)
        let set = SchemaSet(document: document, pointers: ["/a", "/b", "/c", "/nothing"], dialect: .openAPI30)
        #expect(
            set.warnings.map(\.description) == [
                "#/a/$ref: cannot resolve '#/components/schemas/Missing': it accepts any value",
                "#/b/items/$ref: cannot resolve '#/components/schemas/Missing': it accepts any value",
                "#/c/pattern: '(unclosed' is not a regular expression this engine reads: left out",
                "#/nothing: no schema at this pointer",
            ])
        #expect(try #require(set.schemas["/a"]).isValid(42))
        #expect(try #require(set.schemas["/b"]).isValid([1, "two"]))
        #expect(try #require(set.schemas["/b"]).validate("x").map(\.message) == [#""x" is not of type array"#])
        #expect(set.schemas["/nothing"] == nil)
    }

    @Test func aSchemaReachedTwiceIsCompiledOnce() throws {
        let document = try json(##"{"s": {"$ref": "#/d"}, "t": {"items": {"$ref": "#/d"}}, "d": {"type": "string"}}"##)
        let set = SchemaSet(document: document, pointers: ["/s", "/t"], dialect: .draft2020_12)
        #expect(set.program.nodes.count == 4)  // s, t, t/items, d
        #expect(try #require(set.schemas["/t"]).validate([1]).map(\.schemaPointer) == ["/d/type"])
    }

    @Test func aSelfReferenceThatNeverStepsIntoTheValueIsALoopNotACrash() throws {
        let schema = JSONSchema(
            try json(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##))
        let violations = schema.validate(1)
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("loops") == true)
    }

    @Test func recursiveSchemasFollowTheValueDown() throws {
        let schema = JSONSchema(
            try json(##"{"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}"##))
        let value = try json(#"{"child": {"child": {"child": {"n": 1.5}}}}"#)
        #expect(schema.validate(value).map(\.instancePointer) == ["/child/child/child/n"])
    }

    @Test func violationsStopAtTheLimit() throws {
        let schema = JSONSchema(try json(#"{"items": {"type": "string"}}"#))
        let value = JSONValue.array((0..<1_000).map { JSONValue($0) })
        #expect(schema.validate(value).count == 100)
        #expect(schema.validate(value, limit: 3).map(\.instancePointer) == ["/0", "/1", "/2"])
        #expect(!schema.isValid(value))
    }

    @Test func combinatorsSayWhatDidNotMatch() throws {
        let schema = JSONSchema(try json(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}], "not": {"const": 5}}"#))
        #expect(schema.validate(3).map(\.message) == ["3 matches more than one of the schemas of oneOf"])
        #expect(schema.validate(-1.5).map(\.message) == ["-1.5 matches none of the 2 schemas of oneOf"])
        #expect(schema.validate(5.0).map(\.schemaPointer) == ["/oneOf", "/not"])
    }

    @Test func pointersEscapeTildeAndSlash() throws {
        let schema = JSONSchema(try json(#"{"properties": {"a/b": {"properties": {"c~d": {"type": "null"}}}}}"#))
        let violations = schema.validate(try json(#"{"a/b": {"c~d": 1}}"#))
        #expect(violations.map(\.instancePointer) == ["/a~1b/c~0d"])
        #expect(violations.map(\.schemaPointer) == ["/properties/a~1b/properties/c~0d/type"])
        #expect(
            JSONPointer.resolve(
                "/properties/a~1b/properties/c~0d",
                in: try json(#"{"properties": {"a/b": {"properties": {"c~d": {"type": "null"}}}}}"#)) == [
                    "type": "null"
                ])
    }

    @Test func numbersCompareByValueAndMultiplesAreExact() throws {
        #expect(JSONSchema(try json(#"{"enum": [1, "a"]}"#)).isValid(try json("1.0")))
        #expect(JSONSchema(try json(#"{"multipleOf": 0.01}"#)).isValid(try json("19.99")))
        #expect(!JSONSchema(try json(#"{"multipleOf": 0.01}"#)).isValid(try json("19.995")))
        #expect(JSONSchema(try json(#"{"type": "integer"}"#)).isValid(try json("1e3")))
        #expect(
            JSONSchema(try json(#"{"uniqueItems": true}"#)).validate(
                .array((0..<40).map { JSONValue($0) } + [JSONValue.number("3.0")])
            ).map(\.message)
                == ["items 3 and 40 are equal; the items must be unique"])
    }
}
