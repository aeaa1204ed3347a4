import Contract
import Foundation
import NetworkingCore
import Testing
import Workspace

@testable import Demo

/// `schema/collection.schema.json` against the loader: every key the loader accepts is in the
/// schema at the same place (and no other), and every collection the repository shows (the
/// YAML blocks of docs/*.md that are collections, collection files under Examples/ and
/// Tests/Fixtures, the demo's) passes the schema, read by the project's own engine.
@Suite struct CollectionSchemaTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where each of the loader's places (`CollectionLoader.acceptedKeys`) is in the schema: a
    /// JSON pointer, and for an `auth` the `type` its branch has.
    static let schemaPlaces: [String: String] = [
        "collection": "",
        "compare": "/properties/compare",
        "environment": "/$defs/environment",
        "environment.tls": "/$defs/environment/properties/tls",
        "environment.proxy": "/$defs/environment/properties/proxy",
        "folder": "/$defs/folder",
        "endpoint": "/$defs/endpoint",
        "endpoint.body": "/$defs/endpoint/properties/body",
        "endpoint.disabled": "/$defs/endpoint/properties/disabled",
        "endpoint.graphql": "/$defs/endpoint/properties/graphql",
        "endpoint.capture": "/$defs/capture",
        "endpoint.retry": "/$defs/endpoint/properties/retry",
        "endpoint.requires": "/$defs/endpoint/properties/requires",
        "multipart part": "/$defs/multipartPart",
        "endpoint.messages": "/$defs/webSocketMessage",
        "protos": "/properties/protos",
    ]

    /// The repository's schema; `EXPLORER_COLLECTION_SCHEMA` names another copy (a changed one,
    /// to see these tests fail on it without touching the tree).
    static func schemaDocument() throws -> JSONValue {
        let other = ProcessInfo.processInfo.environment["EXPLORER_COLLECTION_SCHEMA"].map { URL(fileURLWithPath: $0) }
        return try JSONValue(
            parsing: Data(contentsOf: other ?? root.appendingPathComponent("schema/collection.schema.json")))
    }

    @Test func everyKeyTheLoaderAcceptsIsInTheSchemaAndNoOther() throws {
        let schema = try Self.schemaDocument()
        for (place, keys) in CollectionLoader.acceptedKeys.sorted(by: { $0.key < $1.key }) {
            let names: Set<String>
            if place.hasPrefix("auth.") {
                let type = String(place.dropFirst("auth.".count))
                let auth = try #require(schema.at("/$defs/auth"))
                names = Self.propertyNames(auth, in: schema, typeConst: type)
            } else {
                let pointer = try #require(Self.schemaPlaces[place], "no place in the schema for the loader's \(place)")
                let node = try #require(schema.at(pointer), "\(pointer) is not in the schema")
                names = Self.propertyNames(node, in: schema)
            }
            let missing = Set(keys).subtracting(names).sorted()
            #expect(missing.isEmpty, "the schema's \(place) lacks \(missing.joined(separator: ", "))")
            let extra = names.subtracting(keys).sorted()
            #expect(
                extra.isEmpty,
                "the schema's \(place) has \(extra.joined(separator: ", ")), which the loader does not accept")
        }
    }

    @Test func everyExampleCollectionPassesTheSchema() throws {
        let schema = JSONSchema(try Self.schemaDocument())
        #expect(schema.warnings.isEmpty, "\(schema.warnings)")
        let examples = try Self.exampleCollections()
        #expect(examples.count(where: { $0.place.hasPrefix("docs/") }) >= 8)
        for example in examples {
            let value = try CollectionLoader.yamlValue(of: example.text, file: example.place)
            let violations = schema.validate(value)
            #expect(
                violations.isEmpty,
                "\(example.place) does not pass the schema:\n\(violations.map { "  \($0)" }.joined(separator: "\n"))")
            // And the loader reads it: an example that the schema takes and the loader does not
            // would be the schema being too loose.
            #expect(throws: Never.self, "\(example.place)") { try CollectionLoader.parse(example.text) }
        }
    }

    /// What a user may keep beside the loader's keys: `x-` keys (notes, anchors for `<<`), at
    /// each level the loader lets them through.
    @Test func extensionKeysPassTheSchema() throws {
        let schema = JSONSchema(try Self.schemaDocument())
        let text = """
            name: Extensions
            x-defaults: &defaults { method: GET }
            environments:
              - name: local
                base_url: http://127.0.0.1:8080
                x-note: the laptop
                tls: { insecure: true, x-why: self-signed }
                proxy: { url: "http://127.0.0.1:3128", x-owner: ops }
            compare: { ignore: [$.id], x-note: ids change }
            auth: { type: bearer, token: "{{token}}", x-note: from the vault }
            endpoints:
              - folder: Users
                x-owner: team
                endpoints:
                  - name: List
                    <<: *defaults
                    path: /users
                    x-note: paged
                    disabled: { query: { page: "1" }, x-note: off }
                    graphql: { query: "{ users { id } }", x-note: one }
            """
        _ = try CollectionLoader.parse(text)
        let violations = schema.validate(try CollectionLoader.yamlValue(of: text))
        #expect(violations.isEmpty, "\(violations)")
    }

    // MARK: - The examples

    struct Example {
        let place: String
        let text: String
    }

    /// The collections the repository shows: fenced YAML blocks of docs/*.md and README.md
    /// whose top level is a collection's, YAML files of Examples/ and Tests/Fixtures that are
    /// collections (not another tool's YAML, such as Insomnia's), and the demo's collection.
    static func exampleCollections() throws -> [Example] {
        var examples: [Example] = []
        let documents =
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" } + ["README.md"]
        for document in documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            var block: [String]?
            var start = 0
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if block == nil, trimmed == "```yaml" || trimmed == "```yml" {
                    block = []
                    start = number + 2
                } else if block != nil, trimmed == "```" {
                    if let yaml = collection(of: block!) {
                        examples.append(Example(place: "\(document):\(start)", text: yaml))
                    }
                    block = nil
                } else if block != nil {
                    block!.append(String(line))
                }
            }
        }
        for folder in ["Examples", "Tests/Fixtures"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard ["yaml", "yml"].contains(file.pathExtension) else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                if try isCollection(text) {
                    examples.append(Example(place: "\(folder)\(file.path.dropFirst(base.path.count))", text: text))
                }
            }
        }
        let ports = [8080, 8081, 8082]
        let environments = zip(["local", "staging", "production"], ports).map { DemoEnvironment(name: $0, port: $1) }
        examples.append(Example(place: "the demo's collection", text: DemoCollection.yaml(for: environments)))
        return examples
    }

    /// A mapping with environments or endpoints, and no key a collection cannot have.
    static func isCollection(_ yaml: String) throws -> Bool {
        guard case .object(let members) = (try? CollectionLoader.yamlValue(of: yaml)) ?? .null else { return false }
        let keys = members.map(\.key)
        return (keys.contains("environments") || keys.contains("endpoints")) && allAccepted(keys, at: "collection")
    }

    static func allAccepted(_ keys: [String], at place: String) -> Bool {
        let accepted = CollectionLoader.acceptedKeys[place] ?? []
        return !keys.isEmpty && keys.allSatisfy { accepted.contains($0) || $0.hasPrefix("x-") }
    }

    /// A documentation block as a whole collection: a block of a collection's top-level keys
    /// as it is; a list of endpoints under `endpoints:`; an environment's keys as the one
    /// environment (with a name and base URL when the block has none). Nil for anything else
    /// (another file's YAML, a block of alternatives that repeats a key, a single key's value).
    static func collection(of block: [String]) -> String? {
        let indent =
            block.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        let lines = block.map { String($0.dropFirst(min(indent, $0.prefix(while: { $0 == " " }).count))) }
        let text = lines.joined(separator: "\n")
        func indented(_ spaces: Int) -> String {
            lines.map { String(repeating: " ", count: spaces) + $0 }.joined(separator: "\n")
        }
        switch try? CollectionLoader.yamlValue(of: text) {
        case .object(let members)? where allAccepted(members.map(\.key), at: "collection"):
            return text
        case .array(let items)? where items.allSatisfy({ $0.member("name") != nil || $0.member("folder") != nil }):
            return "endpoints:\n" + indented(2)
        case .object(let members)? where allAccepted(members.map(\.key), at: "environment"):
            var head = "environments:\n  -\n"
            head += members.contains { $0.key == "name" } ? "" : "    name: example\n"
            head += members.contains { $0.key == "base_url" } ? "" : "    base_url: https://api.example.com\n"
            return head + indented(4)
        default:
            return nil
        }
    }

    // MARK: - Reading the schema

    /// The property names a schema node lets an object have: its `properties`, and those of
    /// the schemas it refers to or combines (`$ref`, `oneOf`, `anyOf`, `allOf`); with
    /// `typeConst`, only branches whose `type` is that constant (an `auth` of one type).
    static func propertyNames(_ node: JSONValue, in document: JSONValue, typeConst: String? = nil) -> Set<String> {
        var names: Set<String> = []
        if case .string(let reference)? = node.member("$ref"), reference.hasPrefix("#"),
            let target = document.at(String(reference.dropFirst()))
        {
            names.formUnion(propertyNames(target, in: document, typeConst: typeConst))
        }
        for combinator in ["oneOf", "anyOf", "allOf"] {
            if case .array(let branches)? = node.member(combinator) {
                for branch in branches { names.formUnion(propertyNames(branch, in: document, typeConst: typeConst)) }
            }
        }
        // A list of mappings (`requires:`): its items' keys.
        if let items = node.member("items") {
            names.formUnion(propertyNames(items, in: document, typeConst: typeConst))
        }
        if case .object(let properties)? = node.member("properties") {
            if let typeConst {
                guard case .string(typeConst)? = node.member("properties")?.member("type")?.member("const") else {
                    return names
                }
            }
            names.formUnion(properties.map(\.key))
        }
        return names
    }
}

extension JSONValue {
    fileprivate func member(_ name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == name }?.value
    }

    /// The value at a JSON pointer (RFC 6901), `""` being the whole document.
    fileprivate func at(_ pointer: String) -> JSONValue? {
        var value: JSONValue? = self
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            value = value?.member(name)
        }
        return value
    }
}
