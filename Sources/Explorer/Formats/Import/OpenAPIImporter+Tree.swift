import Foundation
import Workspace

/// The document as a plain JSON tree, for what OpenAPIKit cannot take as it is: schemas that
/// refer to themselves (cut where they recur), and Swagger 2.0 (rewritten as OpenAPI 3.0).
extension OpenAPIImporter {
    /// The document's text as a tree of `[String: Any]`, arrays, strings, numbers and `NSNull`,
    /// read within `DocumentLimits.current` (YAML through `documentTree`).
    ///
    /// - Throws: `ImportError.invalidOpenAPI` when the text is not JSON or YAML, or is over a limit.
    static func tree(from text: String, path: String) throws -> LooseObject {
        let isJSON = text.drop { $0.isWhitespace }.first == "{"
        if isJSON {
            do {
                try DocumentLimits.current.checkSize(text.utf8.count, file: path)
            } catch {
                throw ImportError.invalidOpenAPI(path: path, reason: "\(error.problem). \(error.advice)")
            }
            do {
                if let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? LooseObject { return object }
            } catch {
                throw ImportError.invalidOpenAPI(path: path, reason: "it is not valid JSON: \(error)")
            }
        } else {
            var warnings: [String] = []
            if let object = try documentTree(text, path: path, limits: .current, warnings: &warnings).anyValue as? LooseObject { return object }
        }
        throw ImportError.invalidOpenAPI(path: path, reason: "the top level is not a mapping.")
    }

    /// The tree as JSON text.
    static func json(_ tree: LooseObject) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: tree), as: UTF8.self)
    }

    // MARK: - Recursive schemas

    /// Cuts every `$ref` between `components/schemas` that closes a cycle (Discord's
    /// `ErrorDetails` contains `ErrorDetails`), replacing it with an empty schema, so the rest
    /// of the document can be expanded.
    ///
    /// - Returns: the names of the schemas whose references were cut, sorted.
    static func breakingSchemaCycles(in root: inout LooseObject) -> [String] {
        let prefix = "#/components/schemas/"
        guard var components = root["components"] as? LooseObject, var schemas = components["schemas"] as? LooseObject else { return [] }
        func references(_ value: Any, into out: inout Set<String>) {
            if let object = value as? LooseObject {
                if let ref = object["$ref"] as? String, ref.hasPrefix(prefix) { out.insert(String(ref.dropFirst(prefix.count))) }
                for child in object.values { references(child, into: &out) }
            } else if let array = value as? [Any] {
                for child in array { references(child, into: &out) }
            }
        }
        var edges: [String: Set<String>] = [:]
        for (name, schema) in schemas {
            var out: Set<String> = []
            references(schema, into: &out)
            edges[name] = out
        }
        // Depth-first search; an edge to a schema still on the stack closes a cycle.
        var cut: [String: Set<String>] = [:]
        var state: [String: Int] = [:]  // 1 on the stack, 2 done
        for start in schemas.keys.sorted() where state[start] == nil {
            var stack: [(name: String, next: [String])] = [(start, (edges[start] ?? []).sorted())]
            state[start] = 1
            while !stack.isEmpty {
                guard let target = stack[stack.count - 1].next.popLast() else {
                    state[stack.removeLast().name] = 2
                    continue
                }
                let from = stack[stack.count - 1].name
                switch state[target] {
                case 1?: cut[from, default: []].insert(target)
                case nil where schemas[target] != nil:
                    state[target] = 1
                    stack.append((target, (edges[target] ?? []).sorted()))
                default: break
                }
            }
        }
        guard !cut.isEmpty else { return [] }
        func replacing(_ value: Any, targets: Set<String>) -> Any {
            if let object = value as? LooseObject {
                if let ref = object["$ref"] as? String, ref.hasPrefix(prefix), targets.contains(String(ref.dropFirst(prefix.count))) {
                    return ["description": "\(ref.dropFirst(prefix.count)) (recursive, not expanded)"] as LooseObject
                }
                return object.mapValues { replacing($0, targets: targets) }
            }
            if let array = value as? [Any] { return array.map { replacing($0, targets: targets) } }
            return value
        }
        for (name, targets) in cut {
            if let schema = schemas[name] { schemas[name] = replacing(schema, targets: targets) }
        }
        components["schemas"] = schemas
        root["components"] = components
        return Set(cut.values.flatMap { $0 }).sorted()
    }
}
