import Foundation
import NetworkingCore
import Workspace

/// What changed in a collection's OpenAPI document since its endpoints were imported: the
/// operations the document has that no endpoint names (`operation:`), the endpoints whose
/// operation the document no longer has, and the endpoints whose operation now has another
/// method, path or set of parameters than the endpoint sends.
///
/// The document's operations are read as `explorer import openapi` reads them, so an endpoint
/// imported from an unchanged document has no drift. Values are not compared (a user edits
/// them); the method, the path's shape (`{{id}}` and `{{petId}}` are the same), the query and
/// header parameters the document names that the endpoint does not send (one the endpoint
/// sends beyond them may be the user's own), and the kind of body are.
package struct OpenAPIDrift: Sendable, Hashable {
    /// An operation the document has that no endpoint names, as importing would write it.
    package var added: [Endpoint] = []
    /// An endpoint whose `operation:` the document no longer has.
    package var removed: [Endpoint] = []
    /// An endpoint whose operation changed, with each change in words.
    package var changed: [(endpoint: Endpoint, changes: [String])] = []
    /// How many endpoints name no operation (left out of the comparison).
    package var unlinked = 0

    /// Whether the document and the collection agree.
    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Compares a collection's endpoints with the endpoints its document imports as now.
    package init(collection: APICollection, document: APICollection) {
        var current: [String: Endpoint] = [:]
        for endpoint in document.endpoints {
            if let operation = endpoint.operation { current[operation] = current[operation] ?? endpoint }
        }
        var linked: Set<String> = []
        for endpoint in collection.endpoints {
            guard let operation = endpoint.operation else {
                unlinked += 1
                continue
            }
            linked.insert(operation)
            guard let now = current[operation] else {
                removed.append(endpoint)
                continue
            }
            let changes = Self.changes(from: endpoint, to: now)
            if !changes.isEmpty { changed.append((endpoint, changes)) }
        }
        added = document.endpoints.filter { $0.operation.map { !linked.contains($0) } ?? false }
    }

    /// What differs between an endpoint and the operation as the document has it now.
    static func changes(from endpoint: Endpoint, to now: Endpoint) -> [String] {
        var changes: [String] = []
        if endpoint.method != now.method {
            changes.append("method \(endpoint.method.rawValue) → \(now.method.rawValue)")
        }
        if shape(endpoint.path) != shape(now.path) { changes.append("path \(endpoint.path) → \(now.path)") }
        for (kind, old, new) in [("query", endpoint.query, now.query), ("header", endpoint.headers, now.headers)] {
            // Only what the document asks for now: a parameter the endpoint sends beyond it
            // may be the user's own.
            let before = Set(old.map { $0.name.lowercased() })
            let gained = new.map(\.name).filter { !before.contains($0.lowercased()) }
            if !gained.isEmpty { changes.append("\(kind) + \(gained.joined(separator: ", "))") }
        }
        if bodyKind(endpoint.body) != bodyKind(now.body) {
            changes.append("body \(bodyKind(endpoint.body)) → \(bodyKind(now.body))")
        }
        return changes
    }

    /// A path with each `{{variable}}` (and a value a user put in its place is not known, so a
    /// literal segment stays literal) as `{}`.
    static func shape(_ path: String) -> String {
        path.replacingOccurrences(of: #"\{\{[^}]*\}\}"#, with: "{}", options: .regularExpression)
    }

    static func bodyKind(_ body: EndpointBody?) -> String {
        switch body {
        case nil: "none"
        case .json?: "json"
        case .raw?: "text"
        case .file?: "file"
        case .form?: "form"
        case .multipart?: "multipart"
        }
    }

    /// The drift in lines: `+ listPets  GET /pets (new)`, `− Pets/Delete  deletePet (gone)`,
    /// `~ Pets/List  listPets: query + limit`.
    package var lines: [String] {
        added.map {
            "+ \($0.operation ?? $0.name)  \($0.method.rawValue) \($0.path)  (in the document, not in the collection)"
        }
            + removed.map { "− \($0.id)  \($0.operation ?? "")  (no longer in the document)" }
            + changed.map {
                "~ \($0.endpoint.id)  \($0.endpoint.operation ?? ""): \($0.changes.joined(separator: "; "))"
            }
    }

    package static func == (lhs: OpenAPIDrift, rhs: OpenAPIDrift) -> Bool {
        lhs.added == rhs.added && lhs.removed == rhs.removed && lhs.unlinked == rhs.unlinked
            && lhs.changed.map(\.endpoint) == rhs.changed.map(\.endpoint)
            && lhs.changed.map(\.changes) == rhs.changed.map(\.changes)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(added)
        hasher.combine(removed)
        hasher.combine(unlinked)
    }
}
