import Foundation

/// Encodes Foundation JSON objects as PiuPiu users write them (`[String: Any?]`, `[Any?]`,
/// with `nil` for `null`) into JSON data.
enum JSONObjectEncoding {
    /// The object as JSON data, keys sorted.
    ///
    /// - Parameter object: a dictionary, an array, or a fragment; `nil` values become `null`.
    /// - Returns: the JSON data.
    /// - Throws: `SerializationError.encodingFailed` naming what is not JSON.
    static func data(_ object: Any) throws -> Data {
        let plain = try normalized(object, path: "")
        do {
            return try JSONSerialization.data(withJSONObject: plain, options: [.sortedKeys, .fragmentsAllowed])
        } catch {
            throw SerializationError.encodingFailed(reason: String(describing: error))
        }
    }

    /// The object with optionals unwrapped (`nil` as `NSNull`), so `JSONSerialization`
    /// accepts it on every platform.
    private static func normalized(_ value: Any, path: String) throws -> Any {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return NSNull() }
            return try normalized(wrapped, path: path)
        }
        switch value {
        case let dictionary as [String: Any]:
            var out: [String: Any] = [:]
            for (key, member) in dictionary { out[key] = try normalized(member, path: path + "." + key) }
            return out
        case let array as [Any]:
            return try array.enumerated().map { try normalized($1, path: path + "[\($0)]") }
        case is NSNull, is String, is Bool, is Int, is Int8, is Int16, is Int32, is Int64,
            is UInt, is UInt8, is UInt16, is UInt32, is UInt64, is Double, is Float, is NSNumber:
            if let number = value as? Double, !number.isFinite { break }
            return value
        default:
            break
        }
        let at = path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
        throw SerializationError.encodingFailed(reason: "\(type(of: value)) is not a JSON value\(at)")
    }
}
