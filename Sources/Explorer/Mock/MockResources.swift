import Contract
import NetworkingCore

/// One kind of resource the document describes: a collection path (`/users`) and its item
/// path (`/users/{id}`), both served, and the member of a resource that holds its id.
package struct MockResourceKind: Sendable, Hashable {
    /// `/users`: a POST here creates, a GET lists.
    package var collection: String
    /// `/users/{id}`: GET, PUT, PATCH and DELETE of one resource.
    package var item: String
    /// The member of a resource that holds its id (`id`, or the path parameter's name when the
    /// schema declares one by that name), or `nil` when the schema declares none: the id is then
    /// only in the path.
    package var idMember: String?
    /// How a new id is made when a created resource has none.
    package var idKind: IDKind

    package init(collection: String, item: String, idMember: String?, idKind: IDKind) {
        self.collection = collection
        self.item = item
        self.idMember = idMember
        self.idKind = idKind
    }

    /// How the mock makes a new id.
    package enum IDKind: String, Sendable, Hashable {
        /// 1, 2, 3 … (after the highest integer id stored).
        case integer
        /// A random UUID, in lower case.
        case uuid
        /// "1", "2", "3" … as strings.
        case string
    }
}

/// The resources of a plan: each collection path with its item path, found in the routes
/// (`/users` and `/users/{id}`, both served), the id member read from the schemas.
package struct MockResources: Sendable {
    /// Each kind, by collection path.
    package private(set) var kinds: [String: MockResourceKind] = [:]
    /// The collection path of each item path.
    private var collectionOfItem: [String: String] = [:]

    /// No resources (a mock without state).
    package init() {}

    /// The resource kinds of a plan's routes.
    package init(plan: MockPlan) {
        let templates = Set(plan.routes.map(\.template))
        let document = plan.contract?.document ?? .null
        for template in templates.sorted() {
            var segments = template.split(separator: "/", omittingEmptySubsequences: false)
            guard segments.count > 1, let last = segments.last, MockPlan.isParameter(last) else { continue }
            segments.removeLast()
            let collection = segments.joined(separator: "/")
            guard !collection.isEmpty, templates.contains(collection), kinds[collection] == nil else { continue }
            let parameter = String(last.dropFirst().dropLast())
            // The item's schema: what GET of the item answers, else what POST to the collection takes.
            let schemas = [("GET", template, true), ("POST", collection, true), ("POST", collection, false)]
                .compactMap { method, path, response in
                    plan.routes.first { $0.method == method && $0.template == path }?.operation.flatMap {
                        Self.jsonSchema(of: $0, response: response, document: document)
                    }
                }
            var idMember: String?
            var idKind = MockResourceKind.IDKind.string
            for schema in schemas {
                let properties = Self.properties(of: schema, document: document)
                guard let name = [parameter, "id"].first(where: { properties[$0] != nil }) else { continue }
                idMember = name
                let property = MockExample.dereferenced(properties[name]!, in: document)
                let type = property["type"]?.stringValue ?? property["type"]?.arrayValue?.first?.stringValue
                if type == "integer" || type == "number" {
                    idKind = .integer
                } else if property["format"]?.stringValue == "uuid" {
                    idKind = .uuid
                }
                break
            }
            kinds[collection] = MockResourceKind(
                collection: collection, item: template, idMember: idMember, idKind: idKind)
            collectionOfItem[template] = collection
        }
    }

    /// The kind whose collection path is `template`.
    package func kind(collection template: String) -> MockResourceKind? { kinds[template] }

    /// The kind whose item path is `template`.
    package func kind(item template: String) -> MockResourceKind? {
        collectionOfItem[template].flatMap { kinds[$0] }
    }

    /// The JSON schema of an operation's first success response, or of its request body.
    static func jsonSchema(of operation: OpenAPIContract.Operation, response: Bool, document: JSONValue) -> JSONValue? {
        let pointer = operation.pointer + (response ? "/responses" : "/requestBody")
        guard let value = JSONPointer.resolve(pointer, in: document) else { return nil }
        let holder: JSONValue
        if response {
            guard
                let success = (value.members ?? []).filter({ $0.key.hasPrefix("2") }).sorted(by: { $0.key < $1.key })
                    .first
            else { return nil }
            holder = MockExample.dereferenced(success.value, in: document)
        } else {
            holder = MockExample.dereferenced(value, in: document)
        }
        let media = holder["content"]?.members?.first { OpenAPIContractMedia.isJSON($0.key) }
        return media?.value["schema"] ?? holder["schema"]
    }

    /// The declared properties of an object schema (`allOf` entries merged), by name.
    static func properties(of schema: JSONValue, document: JSONValue, depth: Int = 0) -> [String: JSONValue] {
        let resolved = MockExample.dereferenced(schema, in: document)
        var properties: [String: JSONValue] = [:]
        for member in resolved["properties"]?.members ?? [] { properties[member.key] = member.value }
        guard depth < 8 else { return properties }
        for part in resolved["allOf"]?.arrayValue ?? [] {
            properties.merge(Self.properties(of: part, document: document, depth: depth + 1)) { first, _ in first }
        }
        return properties
    }
}

extension MockResources {
    /// The resources the document's own examples show (none generated): the items of each
    /// collection's list example, and each item's example unless a listed one has its id; each
    /// given the members its schema requires and the example lacks (generated).
    package func seeds(of plan: MockPlan) -> [(kind: MockResourceKind, value: JSONValue)] {
        guard let contract = plan.contract else { return [] }
        let document = contract.document
        var seeds: [(kind: MockResourceKind, value: JSONValue)] = []
        for kind in kinds.values.sorted(by: { $0.collection < $1.collection }) {
            let item = plan.routes.first { $0.method == "GET" && $0.template == kind.item }?.operation
            let schema = item.flatMap { Self.jsonSchema(of: $0, response: true, document: document) }
            var values: [JSONValue] = []
            if let list = plan.routes.first(where: { $0.method == "GET" && $0.template == kind.collection })?
                .operation, let example = Self.documentedExample(of: list, contract: contract)
            {
                values = Self.listItems(in: example)?.items ?? []
            }
            if let item, let example = Self.documentedExample(of: item, contract: contract) {
                let id = kind.idMember.flatMap { example[$0] }
                if id == nil || !values.contains(where: { value in kind.idMember.flatMap { value[$0] } == id }) {
                    values.append(example)
                }
            }
            seeds += values.filter { $0.members != nil }.map { value in
                (kind, schema.map { Self.completed(value, schema: $0, document: document) } ?? value)
            }
        }
        return seeds
    }

    /// The document's own example of an operation's first success response, when its content
    /// is JSON: named, the media type's, or its schema's (never one generated).
    static func documentedExample(of operation: OpenAPIContract.Operation, contract: OpenAPIContract) -> JSONValue? {
        let document = contract.document
        guard
            let responses = JSONPointer.resolve(operation.pointer + "/responses", in: document)?.members,
            let success = responses.filter({ $0.key.hasPrefix("2") }).sorted(by: { $0.key < $1.key }).first,
            let media = MockExample.dereferenced(success.value, in: document)["content"]?.members?
                .first(where: { OpenAPIContractMedia.isJSON($0.key) })
        else { return nil }
        if let named = MockExample.named(in: media.value, document: document).first { return named.value }
        if let example = media.value["example"] { return example }
        let schema = media.value["schema"].map { MockExample.dereferenced($0, in: document) }
        return schema?["example"] ?? schema?["examples"]?.arrayValue?.first
    }

    /// The value with each member its object schema requires and it lacks, generated from the
    /// member's schema (`allOf` entries read too).
    package static func completed(_ value: JSONValue, schema: JSONValue, document: JSONValue) -> JSONValue {
        guard value.members != nil else { return value }
        var result = value
        let properties = properties(of: schema, document: document)
        for name in required(by: schema, document: document) where result[name] == nil {
            let generated = properties[name].map { MockExample.generated(from: $0, document: document) } ?? .null
            result = result.setting(name, to: generated)
        }
        return result
    }

    /// The members an object schema requires (`allOf` entries merged).
    static func required(by schema: JSONValue, document: JSONValue, depth: Int = 0) -> [String] {
        let resolved = MockExample.dereferenced(schema, in: document)
        var names = (resolved["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard depth < 8 else { return names }
        for part in resolved["allOf"]?.arrayValue ?? [] {
            names += required(by: part, document: document, depth: depth + 1).filter { !names.contains($0) }
        }
        return names
    }

    /// The items of a list answer: the array itself, or the array member of an object (`items`,
    /// `data`, `results` first), with the member's name.
    static func listItems(in value: JSONValue) -> (items: [JSONValue], member: String?)? {
        if let items = value.arrayValue { return (items, nil) }
        guard let members = value.members else { return nil }
        let arrays = members.filter { $0.value.arrayValue != nil }
        let preferred = ["items", "data", "results", "content", "records"]
        guard let chosen = arrays.first(where: { preferred.contains($0.key) }) ?? arrays.first else { return nil }
        return (chosen.value.arrayValue ?? [], chosen.key)
    }
}
