import Foundation
import NetworkingCore

/// Reading other tools' JSON exports (Postman, Insomnia, HAR), whose fields are often
/// optional, sometimes a string and sometimes an object: lookups that answer `nil` or empty
/// instead of failing, over `JSONSerialization`'s values.
typealias LooseObject = [String: Any]

enum LooseJSON {
    /// Parses a file's text as a JSON object.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the path shown in errors.
    ///   - format: what the file should be ("a Postman collection"), for the error.
    /// - Throws: `ImportError.invalidFile` naming the line and column of a syntax error.
    static func object(from data: Data, path: String, format: String) throws -> LooseObject {
        guard let object = try value(from: data, path: path, format: format) as? LooseObject else {
            throw ImportError.invalidFile(path: path, format: format, reason: "the top level is not a JSON object.")
        }
        return object
    }

    /// Parses a file's text as JSON of any shape (an object, a list …).
    ///
    /// - Throws: `ImportError.invalidFile` naming the line and column of a syntax error.
    static func value(from data: Data, path: String, format: String) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw ImportError.invalidFile(path: path, format: format, reason: "it is not valid JSON: \(detail)")
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A text value; a number as its text.
    func text(_ key: String) -> String? {
        switch self[key] {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        case let number as OpenAPIImporter.NumberText: return number.text
        default: return nil
        }
    }

    /// A nested object.
    func object(_ key: String) -> LooseObject? { self[key] as? LooseObject }

    /// A list of objects (other elements skipped).
    func objects(_ key: String) -> [LooseObject] { (self[key] as? [Any])?.compactMap { $0 as? LooseObject } ?? [] }

    /// A flag.
    func flag(_ key: String) -> Bool { (self[key] as? Bool) ?? (self[key] as? NSNumber)?.boolValue ?? false }
}

extension JSONValue {
    /// A scalar as other tools' files mean it as text: a string, a number as written, a
    /// boolean as `true` or `false`; `nil` for null, arrays and objects.
    var scalarText: String? {
        switch self {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}
