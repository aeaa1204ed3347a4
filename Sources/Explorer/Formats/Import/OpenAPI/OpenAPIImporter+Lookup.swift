import Contract
import Foundation
import NetworkingCore

extension OpenAPIImporter {
    /// The document's tree, each local `$ref` followed only when an endpoint reads what it names.
    ///
    /// Nothing is decoded or expanded that no endpoint reads: decoding the whole document with
    /// OpenAPIKit and expanding every operation up front (`locallyDereferenced()`) copied each
    /// body schema's tree into every operation naming it, and was most of a large document's
    /// import and its memory. A reference that names nothing costs only what uses it, with a
    /// warning; members come in the document's order, as the tree keeps it.
    struct ComponentLookup {
        /// The prepared document (`preparedTree`).
        let document: JSONValue
        /// The warnings about references that name nothing, each once, in the order found.
        private(set) var warnings: [String] = []
        private var warned: Set<String> = []
        private var targets: [String: JSONValue] = [:]

        init(_ document: JSONValue) {
            self.document = document
        }

        /// The value itself, or what its chain of `$ref`s ends at; `nil` when a reference names
        /// nothing the document holds or the chain goes round.
        ///
        /// - Parameter place: the operation that reads it, for the warning.
        mutating func resolved(_ value: JSONValue, at place: String) -> JSONValue? {
            var current = value
            var seen: Set<String> = []
            while let reference = Self.reference(in: current) {
                guard seen.insert(reference).inserted else {
                    return broken(reference, at: place, why: "leads back to itself")
                }
                guard let next = target(of: reference) else {
                    return broken(reference, at: place, why: "names nothing the document holds")
                }
                current = next
            }
            return current
        }

        /// What a `$ref` names, without following further; `nil`, with a warning, when it names nothing.
        mutating func referenced(_ reference: String, at place: String) -> JSONValue? {
            guard let value = target(of: reference) else {
                return broken(reference, at: place, why: "names nothing the document holds")
            }
            return value
        }

        /// The `$ref` of an object that is a reference.
        static func reference(in value: JSONValue) -> String? {
            guard case .object(let members) = value else { return nil }
            for member in members where member.key == "$ref" { return member.value.stringValue }
            return nil
        }

        /// The name a reference gives its target: the last token of its pointer (a component's name).
        static func name(of reference: String) -> String {
            pointer(of: reference).flatMap(JSONPointer.tokens)?.last ?? reference
        }

        /// A local reference's JSON pointer, percent-decoded (it is a URI fragment); `nil` for another file's.
        private static func pointer(of reference: String) -> String? {
            guard reference.hasPrefix("#") else { return nil }
            let fragment = String(reference.dropFirst())
            return fragment.contains("%") ? (fragment.removingPercentEncoding ?? fragment) : fragment
        }

        private mutating func target(of reference: String) -> JSONValue? {
            if let found = targets[reference] { return found }
            guard let found = Self.pointer(of: reference).flatMap({ JSONPointer.resolve($0, in: document) }) else {
                return nil
            }
            targets[reference] = found
            return found
        }

        private mutating func broken<T>(_ reference: String, at place: String, why: String) -> T? {
            if warned.insert(reference).inserted {
                warnings.append("The $ref \(reference) (first used by \(place)) \(why); what uses it is left out.")
            }
            return nil
        }
    }
}
