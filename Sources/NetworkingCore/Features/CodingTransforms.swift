import Foundation

/// Turns a value into what JSON carries, for `encode(_:forKey:using:)`: PiuPiu 2's encoding
/// half of a transform.
public protocol EncodingTransform {
    /// The value's type.
    associatedtype ValueSource
    /// The type as it appears in JSON.
    associatedtype JSONDestination: Encodable

    /// Turns the value into its JSON representation.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - codingPath: where the value is, for errors.
    /// - Returns: the JSON representation.
    /// - Throws: an `EncodingError` saying why the value cannot be encoded.
    func toJSON(_ value: ValueSource, codingPath: [CodingKey]) throws -> JSONDestination
}

/// Turns what JSON carries into a value, for `decode(using:forKey:)`: PiuPiu 2's decoding half
/// of a transform.
public protocol DecodingTransform {
    /// The type as it appears in JSON.
    associatedtype JSONSource: Decodable
    /// The value's type.
    associatedtype ValueDestination

    /// Turns the JSON representation into the value.
    ///
    /// - Parameters:
    ///   - json: the JSON representation.
    ///   - codingPath: where the value is, for errors.
    /// - Returns: the value.
    /// - Throws: a `DecodingError.dataCorrupted` saying why the representation is invalid.
    func from(json: JSONSource, codingPath: [CodingKey]) throws -> ValueDestination
}

/// Both halves: a transform that decodes and encodes, as `Codable` is `Decodable & Encodable`.
public protocol Transform: EncodingTransform, DecodingTransform {}

/// A transform that needs no configuration and gives back the type it takes, so it can name a
/// property's coding in its type: `@Transformed<IntFromStringTransform> var id: Int64`.
public protocol CodingTransform: Transform where ValueSource == ValueDestination, JSONSource == JSONDestination {
    /// Creates the transform.
    init()
}

/// A property decoded and encoded through a `CodingTransform`.
///
/// ```swift
/// struct User: Codable {
///     @Transformed<IntFromStringTransform> var id: Int64        // "42" ⇄ 42
///     @Transformed<ISO8601DateTransform> var joined: Date       // "2024-05-01T10:00:00Z" ⇄ Date
///     @Transformed<EmptyStringTransform> var nickname: String?  // "" → nil
/// }
/// ```
@propertyWrapper
public struct Transformed<Coding: CodingTransform>: Codable where Coding.JSONSource: Encodable {
    /// The value.
    public var wrappedValue: Coding.ValueDestination

    /// Wraps a value.
    public init(wrappedValue: Coding.ValueDestination) { self.wrappedValue = wrappedValue }

    /// Decodes the JSON representation and transforms it.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = try Coding().from(
            json: try container.decode(Coding.JSONSource.self), codingPath: decoder.codingPath)
    }

    /// Transforms the value and encodes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try Coding().toJSON(wrappedValue, codingPath: encoder.codingPath))
    }
}

extension Transformed: Sendable where Coding.ValueDestination: Sendable {}
extension Transformed: Equatable where Coding.ValueDestination: Equatable {}
extension Transformed: Hashable where Coding.ValueDestination: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes an optional transformed property: a missing key or `null` gives `nil`.
    public func decode<Coding: CodingTransform>(_ type: Transformed<Coding>.Type, forKey key: Key) throws
        -> Transformed<Coding> where Coding.ValueDestination: ExpressibleByNilLiteral
    {
        guard contains(key), !(try decodeNil(forKey: key)) else { return Transformed(wrappedValue: nil) }
        // Not `decode(type, forKey:)`: that picks this overload again and recurses forever.
        return try Transformed<Coding>(from: superDecoder(forKey: key))
    }

    /// Decodes the value at `key` through a transform.
    ///
    /// - Parameters:
    ///   - transform: turns the JSON representation into the value.
    ///   - key: the key.
    /// - Returns: the value.
    /// - Throws: a `DecodingError` (the key is missing, or the transform rejects the value).
    public func decode<Coding: DecodingTransform>(using transform: Coding, forKey key: Key) throws
        -> Coding.ValueDestination
    {
        try transform.from(json: try decode(Coding.JSONSource.self, forKey: key), codingPath: codingPath + [key])
    }

    /// Decodes the value at `key` through a transform, or `nil` when the key is missing or
    /// `null`.
    ///
    /// - Parameters:
    ///   - transform: turns the JSON representation into the value.
    ///   - key: the key.
    /// - Returns: the value, or `nil`.
    /// - Throws: a `DecodingError` when the transform rejects the value.
    public func decodeIfPresent<Coding: DecodingTransform>(using transform: Coding, forKey key: Key) throws -> Coding
        .ValueDestination?
    {
        guard let json = try decodeIfPresent(Coding.JSONSource.self, forKey: key) else { return nil }
        return try transform.from(json: json, codingPath: codingPath + [key])
    }
}

extension KeyedEncodingContainer {
    /// Encodes a value at `key` through a transform.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - key: the key.
    ///   - transform: turns the value into its JSON representation.
    /// - Throws: an `EncodingError` when the transform rejects the value.
    public mutating func encode<Coding: EncodingTransform>(
        _ value: Coding.ValueSource, forKey key: Key, using transform: Coding
    ) throws {
        try encode(try transform.toJSON(value, codingPath: codingPath + [key]), forKey: key)
    }

    /// Encodes a value at `key` through a transform, nothing when it is `nil`.
    ///
    /// - Parameters:
    ///   - value: the value, or `nil`.
    ///   - key: the key.
    ///   - transform: turns the value into its JSON representation.
    /// - Throws: an `EncodingError` when the transform rejects the value.
    public mutating func encodeIfPresent<Coding: EncodingTransform>(
        _ value: Coding.ValueSource?, forKey key: Key, using transform: Coding
    ) throws {
        guard let value else { return }
        try encode(value, forKey: key, using: transform)
    }
}

/// The errors transforms throw: a decoding error at the coding path, as `Decodable` types do.
enum TransformFailure {
    static func decoding(_ reason: String, at codingPath: [CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: reason))
    }

    static func encoding(_ value: Any, _ reason: String, at codingPath: [CodingKey]) -> EncodingError {
        .invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: reason))
    }
}

// MARK: - PiuPiu's included transforms

/// A `Date` as a string, both ways, through a `DateFormatter`.
public final class DateTransform: Transform {
    /// The formatter that reads and writes the dates.
    public let formatter: DateFormatter

    /// Creates the transform.
    ///
    /// - Parameter formatter: reads and writes the dates.
    public init(formatter: DateFormatter) { self.formatter = formatter }

    /// Parses the date.
    public func from(json: String, codingPath: [CodingKey]) throws -> Date {
        guard let date = formatter.date(from: json) else {
            throw TransformFailure.decoding(
                "Could not convert `\(json)` to `Date` using formatter `\(formatter.dateFormat ?? "")`", at: codingPath)
        }
        return date
    }

    /// Formats the date.
    public func toJSON(_ value: Date, codingPath: [CodingKey]) throws -> String { formatter.string(from: value) }
}

/// A `TimeZone` as its identifier (`America/Montreal`) or abbreviation (`UTC`), both ways.
public struct TimeZoneTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Looks the time zone up.
    public func from(json: String, codingPath: [CodingKey]) throws -> TimeZone {
        guard let zone = TimeZone(identifier: json) ?? TimeZone(abbreviation: json) else {
            throw TransformFailure.decoding("'\(json)' is not a time zone", at: codingPath)
        }
        return zone
    }

    /// Writes the identifier.
    public func toJSON(_ value: TimeZone, codingPath: [CodingKey]) throws -> String { value.identifier }
}

/// A `URL` as a string, both ways; spaces and other characters invalid in URLs are
/// percent-encoded first.
public struct URLTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Parses the URL.
    public func from(json: String, codingPath: [CodingKey]) throws -> URL {
        let trimmed = json.trimmingCharacters(in: .whitespaces)
        if let url = URL(string: trimmed) { return url }
        if let escaped = trimmed.addingPercentEncoding(
            withAllowedCharacters: .urlFragmentAllowed.union(.urlQueryAllowed).union(.init(charactersIn: "#"))),
            let url = URL(string: escaped)
        {
            return url
        }
        throw TransformFailure.decoding("'\(json)' is not a URL", at: codingPath)
    }

    /// Writes the absolute string.
    public func toJSON(_ value: URL, codingPath: [CodingKey]) throws -> String { value.absoluteString }
}

/// An `Int64` that JSON carries as a string (`"42"`), both ways.
public struct IntFromStringTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Parses the integer.
    public func from(json: String, codingPath: [CodingKey]) throws -> Int64 {
        guard let value = Int64(json.trimmingCharacters(in: .whitespaces)) else {
            throw TransformFailure.decoding("'\(json)' is not an integer", at: codingPath)
        }
        return value
    }

    /// Writes the integer as a string.
    public func toJSON(_ value: Int64, codingPath: [CodingKey]) throws -> String { String(value) }
}

/// A `String` that JSON carries as an integer (`42`), both ways.
public struct StringFromIntTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Writes the number as text.
    public func from(json: Int64, codingPath: [CodingKey]) throws -> String { String(json) }

    /// Parses the text as an integer.
    public func toJSON(_ value: String, codingPath: [CodingKey]) throws -> Int64 {
        guard let number = Int64(value) else {
            throw TransformFailure.encoding(value, "'\(value)' is not an integer", at: codingPath)
        }
        return number
    }
}

/// An optional string where `""` (or only whitespace) means `nil`; `nil` is written as `""`.
public struct EmptyStringTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Gives `nil` for an empty string.
    public func from(json: String, codingPath: [CodingKey]) throws -> String? {
        json.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : json
    }

    /// Writes `""` for `nil`.
    public func toJSON(_ value: String?, codingPath: [CodingKey]) throws -> String { value ?? "" }
}

// MARK: - More transforms

/// A date as an ISO 8601 string, with or without fractional seconds; written in UTC without.
public struct ISO8601DateTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Parses an ISO 8601 date.
    public func from(json: String, codingPath: [CodingKey]) throws -> Date {
        if let date = try? Date(json, strategy: .iso8601) { return date }
        if let date = try? Date(json, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw TransformFailure.decoding("'\(json)' is not an ISO 8601 date", at: codingPath)
    }

    /// Formats as ISO 8601 in UTC, without fractional seconds.
    public func toJSON(_ value: Date, codingPath: [CodingKey]) throws -> String { value.formatted(.iso8601) }
}

/// A date as seconds since 1970 (a number), both ways.
public struct UnixTimestampTransform: CodingTransform, Sendable {
    /// Creates the transform.
    public init() {}

    /// Reads seconds since 1970.
    public func from(json: Double, codingPath: [CodingKey]) throws -> Date { Date(timeIntervalSince1970: json) }

    /// Writes seconds since 1970.
    public func toJSON(_ value: Date, codingPath: [CodingKey]) throws -> Double { value.timeIntervalSince1970 }
}
