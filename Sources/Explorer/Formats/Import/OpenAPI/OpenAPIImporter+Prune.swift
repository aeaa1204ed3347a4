import Foundation
import NetworkingCore

/// What the importer reads: only the parts an endpoint is built from.
///
/// Most of a large document is what no endpoint uses: the responses of every operation and the
/// components only they refer to (Discord's document loses 56 % of its bytes). The ordered tree
/// is pruned before endpoints are read from it, so that what they reference is found among
/// fewer members and the rest is not kept in memory.
extension OpenAPIImporter {
    /// The order of each object's members in the document, for what Foundation's objects hand
    /// back as dictionaries (the Swagger 2.0 rewriting works on them): without it a Swagger
    /// document's example bodies came out in a different order at every import.
    struct MemberOrders {
        /// Each object's keys in the document's order, by its keys sorted.
        private var orders: [[String]: [String]] = [:]

        /// Notes the order of every object under `value` (the first of the same keys wins).
        mutating func record(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if members.count > 1 {
                    let keys = members.map(\.key)
                    let sorted = keys.sorted()
                    if orders[sorted] == nil { orders[sorted] = keys }
                }
                for member in members { record(member.value) }
            case .array(let elements):
                for element in elements { record(element) }
            default:
                break
            }
        }

        /// `pairs` in the order of the document's object with exactly the keys `all` (a subset
        /// of them, such as the properties that are not read-only); unchanged when none has them.
        func ordered<Value>(_ pairs: [(key: String, value: Value)], among all: [String]) -> [(
            key: String, value: Value
        )] {
            guard pairs.count > 1, let order = orders[all.sorted()] else { return pairs }
            var rank: [String: Int] = [:]
            for (index, key) in order.enumerated() { rank[key] = index }
            return pairs.sorted { (rank[$0.key] ?? .max) < (rank[$1.key] ?? .max) }
        }

        /// `value` with every object's members in the document's order.
        func reordered(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let members):
                return .object(ordered(members.map { ($0.key, reordered($0.value)) }, among: members.map(\.key)))
            case .array(let elements):
                return .array(elements.map(reordered))
            default:
                return value
            }
        }
    }

    /// The sections of `components` that are pruned to what is reachable; the others (security
    /// schemes, named by name rather than by `$ref`) are kept whole.
    private static let prunedSections: Set<String> = [
        "schemas", "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks", "pathItems",
    ]

    /// An OpenAPI 3.x document pruned: every component no `$ref` outside
    /// `components` reaches (directly or through other components) removed. (Each operation's
    /// `responses` is emptied before, by `withoutResponses`.)
    static func pruned(_ root: JSONValue) -> JSONValue {
        guard case .object(var members) = root else { return root }
        var reached: Set<String> = []
        var pending: [String] = []
        for member in members where member.key != "components" {
            references(in: member.value, at: [member.key], into: &pending)
        }
        let components = (root["components"]?.objectValue ?? [:]).compactMapValues(\.objectValue)
        while let reference = pending.popLast() {
            guard reached.insert(reference).inserted, let target = component(reference, in: components) else {
                continue
            }
            references(
                in: target, at: ["components"] + reference.split(separator: "/").map(String.init), into: &pending)
        }
        for index in members.indices where members[index].key == "components" {
            guard case .object(let sections) = members[index].value else { continue }
            members[index].value = .object(
                sections.map { section in
                    guard prunedSections.contains(section.key), case .object(let entries) = section.value else {
                        return section
                    }
                    return (section.key, .object(entries.filter { reached.contains("\(section.key)/\($0.key)") }))
                })
        }
        return .object(members)
    }

    /// `paths` with each operation's `responses` replaced by an empty object.
    static func withoutResponses(_ paths: JSONValue) -> JSONValue {
        guard case .object(let items) = paths else { return paths }
        return .object(
            items.map { item in
                guard case .object(let fields) = item.value else { return item }
                return (
                    item.key,
                    .object(
                        fields.map { field in
                            guard methods.contains(field.key), case .object(let operation) = field.value else {
                                return field
                            }
                            return (
                                field.key, .object(operation.map { $0.key == "responses" ? ($0.key, .object([])) : $0 })
                            )
                        })
                )
            })
    }

    /// Appends every local component reference under `value` as `section/name` (a component's
    /// name is letters, digits and `.-_`: nothing in it is escaped); none in example data.
    private static func references(in value: JSONValue, at keys: [String] = [], into out: inout [String]) {
        forEachReference(in: value, at: keys) { reference, _ in
            if reference.hasPrefix("#/components/") { out.append(String(reference.dropFirst("#/components/".count))) }
            return true
        }
    }

    /// The component a `section/name` reference names, when the document has it.
    private static func component(_ reference: String, in components: [String: [String: JSONValue]]) -> JSONValue? {
        guard let slash = reference.firstIndex(of: "/") else { return nil }
        return components[String(reference[..<slash])]?[String(reference[reference.index(after: slash)...])]
    }
}
