import Foundation
import Workspace

/// The document as a plain JSON tree of Foundation objects, for the passes written over them
/// (Swagger 2.0, rewritten as OpenAPI 3.0; Insomnia's exports).
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
            if let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? LooseObject {
                return object
            }
        }
        // Not JSON after all (YAML in flow style starts with `{` too): `documentTree` reads it.
        var warnings: [String] = []
        if let object = try documentTree(text, path: path, limits: .current, warnings: &warnings).anyValue
            as? LooseObject
        {
            return object
        }
        throw ImportError.invalidOpenAPI(path: path, reason: "the top level is not a mapping.")
    }

    /// The tree as JSON text.
    static func json(_ tree: LooseObject) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: tree), as: UTF8.self)
    }
}
