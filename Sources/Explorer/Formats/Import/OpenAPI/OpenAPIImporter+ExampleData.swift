import NetworkingCore

/// Example values are data, never references: a `$ref` inside one is a member of the data
/// (SCIM's `members[].$ref`, in GitHub's own description, is a URL), as the OpenAPI
/// Specification decided (OAI/OpenAPI-Specification#666) and swagger-client reads it.
///
/// What is data: `example`, `default`, `const`, `enum`, a JSON Schema's `examples` list, the
/// `value` (`dataValue`, `serializedValue`) of an Example Object (under an `examples` map,
/// `components/examples` included), Swagger 2.0's `examples` keyed by media type, and every
/// `x-` extension (`x-example`, `x-examples` …). A key of a map of names (`properties`,
/// `schemas`, `responses` …) is a name, whatever it is spelt: a property called `example` is
/// a schema.
extension OpenAPIImporter {
    /// The members whose keys are names, not keywords.
    private static let nameMaps: Set<String> = [
        "properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "schemas", "responses",
        "parameters", "headers", "requestBodies", "securitySchemes", "links", "callbacks", "pathItems", "paths",
        "webhooks", "content", "encoding", "variables", "mapping", "scopes", "securityDefinitions",
    ]

    /// The members of an Example Object that hold the example itself.
    private static let exampleValueKeys: Set<String> = ["value", "dataValue", "serializedValue"]

    /// Whether the member `key` (holding `value`) of the object at `keys` is data rather than
    /// description, so that no `$ref` under it is a reference.
    ///
    /// - Parameters:
    ///   - key: the member's key.
    ///   - value: the member's value (a JSON Schema's `examples` is a list of data; OpenAPI's is
    ///     a map of Example Objects).
    ///   - keys: where the object holding the member is, from the document's root.
    static func holdsData(_ key: String, _ value: JSONValue, at keys: [String]) -> Bool {
        let parent = keys.last
        if let parent, nameMaps.contains(parent) { return false }
        if parent == "examples" {
            // A name in a map of Example Objects, or (Swagger 2.0) a media type keying the data.
            return key.contains("/")
        }
        if key.hasPrefix("x-") { return true }
        switch key {
        case "example", "default", "const", "enum":
            return true
        case "examples":
            if case .array = value { return true }
            return false
        default:
            break
        }
        if exampleValueKeys.contains(key), keys.count >= 2, keys[keys.count - 2] == "examples" {
            return keys.count < 3 || !nameMaps.contains(keys[keys.count - 3])
        }
        return false
    }

    /// Calls `body` with each `$ref` under `value` that is a reference (none in example data),
    /// in document order, with where its object is; stops when `body` returns `false`.
    ///
    /// - Returns: `false` when `body` stopped the walk.
    @discardableResult
    static func forEachReference(
        in value: JSONValue, at keys: [String], _ body: (_ reference: String, _ keys: [String]) -> Bool
    ) -> Bool {
        switch value {
        case .object(let members):
            for member in members {
                if member.key == "$ref", case .string(let reference) = member.value {
                    if !body(reference, keys) { return false }
                } else if !holdsData(member.key, member.value, at: keys) {
                    if !forEachReference(in: member.value, at: keys + [member.key], body) { return false }
                }
            }
            return true
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if !forEachReference(in: element, at: keys + [String(index)], body) { return false }
            }
            return true
        default:
            return true
        }
    }
}
