import Foundation

/// Turns a JSON representation into a property's value and back, for `@Transformed`.
///
/// ```swift
/// struct User: Codable {
///     @Transformed<IntFromString> var id: Int          // "42" ⇄ 42
///     @Transformed<ISO8601Date> var joined: Date       // "2024-05-01T10:00:00Z" ⇄ Date
///     @Transformed<EmptyStringAsNil> var nickname: String?  // "" → nil
/// }
/// ```
public protocol CodingTransform {
    /// The property's type.
    associatedtype Value
    /// The type as it appears in JSON.
    associatedtype Encoded: Codable

    /// Turns the JSON representation into the value.
    ///
    /// - Throws: an error describing why the representation is invalid.
    static func decode(_ encoded: Encoded) throws -> Value
    /// Turns the value into its JSON representation.
    ///
    /// - Throws: an error describing why the value cannot be encoded.
    static func encode(_ value: Value) throws -> Encoded
}

/// A property decoded and encoded through a `CodingTransform`.
@propertyWrapper
public struct Transformed<Transform: CodingTransform>: Codable {
    /// The value.
    public var wrappedValue: Transform.Value

    /// Wraps a value.
    public init(wrappedValue: Transform.Value) { self.wrappedValue = wrappedValue }

    /// Decodes the JSON representation and transforms it.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let encoded = try container.decode(Transform.Encoded.self)
        do {
            wrappedValue = try Transform.decode(encoded)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(Transform.self): \(error)")
        }
    }

    /// Transforms the value and encodes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try Transform.encode(wrappedValue))
    }
}

extension Transformed: Sendable where Transform.Value: Sendable {}
extension Transformed: Equatable where Transform.Value: Equatable {}
extension Transformed: Hashable where Transform.Value: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes an optional transformed property: a missing key or `null` gives `nil`.
    public func decode<Transform: CodingTransform>(_ type: Transformed<Transform>.Type, forKey key: Key) throws -> Transformed<Transform> where Transform.Value: ExpressibleByNilLiteral {
        guard contains(key), !(try decodeNil(forKey: key)) else { return Transformed(wrappedValue: nil) }
        // Not `decode(type, forKey:)`: that picks this overload again and recurses forever.
        return try Transformed<Transform>(from: superDecoder(forKey: key))
    }
}

/// Why a transform rejected a value.
public struct TransformError: Error, Sendable, CustomStringConvertible {
    /// One sentence describing the problem.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// A date as an ISO 8601 string, with or without fractional seconds.
public enum ISO8601Date: CodingTransform {
    /// Parses an ISO 8601 date.
    public static func decode(_ encoded: String) throws -> Date {
        if let date = try? Date(encoded, strategy: .iso8601) { return date }
        if let date = try? Date(encoded, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        throw TransformError("'\(encoded)' is not an ISO 8601 date")
    }

    /// Formats as ISO 8601 in UTC, without fractional seconds.
    public static func encode(_ value: Date) throws -> String { value.formatted(.iso8601) }
}

/// A date as seconds since 1970 (a number).
public enum UnixTimestamp: CodingTransform {
    /// Reads seconds since 1970.
    public static func decode(_ encoded: Double) throws -> Date { Date(timeIntervalSince1970: encoded) }
    /// Writes seconds since 1970.
    public static func encode(_ value: Date) throws -> Double { value.timeIntervalSince1970 }
}

/// A time zone as its identifier (`Europe/Paris`) or abbreviation (`UTC`).
public enum TimeZoneIdentifier: CodingTransform {
    /// Looks the time zone up.
    public static func decode(_ encoded: String) throws -> TimeZone {
        guard let zone = TimeZone(identifier: encoded) ?? TimeZone(abbreviation: encoded) else {
            throw TransformError("'\(encoded)' is not a time zone")
        }
        return zone
    }

    /// Writes the identifier.
    public static func encode(_ value: TimeZone) throws -> String { value.identifier }
}

/// A URL as a string; spaces and other characters invalid in URLs are percent-encoded first.
public enum URLString: CodingTransform {
    /// Parses the URL.
    public static func decode(_ encoded: String) throws -> URL {
        let trimmed = encoded.trimmingCharacters(in: .whitespaces)
        if let url = URL(string: trimmed) { return url }
        if let escaped = trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(.urlQueryAllowed).union(.init(charactersIn: "#"))),
            let url = URL(string: escaped)
        {
            return url
        }
        throw TransformError("'\(encoded)' is not a URL")
    }

    /// Writes the absolute string.
    public static func encode(_ value: URL) throws -> String { value.absoluteString }
}

/// An integer sent as a string (`"42"`), written back as a string.
public enum IntFromString: CodingTransform {
    /// Parses the integer.
    public static func decode(_ encoded: String) throws -> Int {
        guard let value = Int(encoded.trimmingCharacters(in: .whitespaces)) else {
            throw TransformError("'\(encoded)' is not an integer")
        }
        return value
    }

    /// Writes the integer as a string.
    public static func encode(_ value: Int) throws -> String { String(value) }
}

/// A string sent as a number (`42`), written back as a number.
public enum StringFromInt: CodingTransform {
    /// Writes the number as text.
    public static func decode(_ encoded: Int) throws -> String { String(encoded) }

    /// Parses the text as a number.
    public static func encode(_ value: String) throws -> Int {
        guard let number = Int(value) else { throw TransformError("'\(value)' is not an integer") }
        return number
    }
}

/// An optional string where `""` (or only whitespace) means `nil`; `nil` is written as `""`.
public enum EmptyStringAsNil: CodingTransform {
    /// Gives `nil` for an empty string.
    public static func decode(_ encoded: String) throws -> String? {
        encoded.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : encoded
    }

    /// Writes `""` for `nil`.
    public static func encode(_ value: String?) throws -> String { value ?? "" }
}
