import Foundation
import GRPCCore

/// The metadata of a gRPC call: ordered (name, value) pairs, as headers or trailers carry them.
///
/// Names are lowercased (HTTP/2 sends them so). A name ending in `-bin` holds bytes: they travel
/// base64 on the wire, and text given for such a name is read as base64 (padded or not), so
/// `["trace-bin": "AAEC"]` holds the bytes 0, 1, 2. Every other name holds text.
///
/// ```swift
/// var metadata: GRPCMetadata = ["x-request-id": "42"]
/// metadata.add("x-trace-bin", bytes: [0, 1, 2])
/// metadata.first("x-request-id")  // "42"
/// ```
public struct GRPCMetadata: Sendable, Equatable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    Sequence
{
    /// One value: text, or bytes for a `-bin` name.
    public enum Value: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// A text value.
        case text(String)
        /// The bytes of a `-bin` name.
        case bytes([UInt8])

        /// A text value.
        public init(stringLiteral text: String) { self = .text(text) }

        /// The value as text: a text value itself, bytes as base64 (as they travel).
        public var description: String {
            switch self {
            case .text(let text): text
            case .bytes(let bytes): Data(bytes).base64EncodedString()
            }
        }

        /// The bytes of a `-bin` value, or the UTF-8 of a text value.
        public var bytes: [UInt8] {
            switch self {
            case .text(let text): Array(text.utf8)
            case .bytes(let bytes): bytes
            }
        }
    }

    /// One pair.
    public struct Entry: Sendable, Hashable {
        /// The name, lowercased.
        public var name: String
        /// The value.
        public var value: Value

        /// Creates a pair; the name is lowercased.
        public init(name: String, value: Value) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// The pairs, in order.
    public private(set) var entries: [Entry]

    /// Creates metadata from pairs.
    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// Creates metadata from (name, text) pairs; text for a `-bin` name is read as base64.
    public init(arrayLiteral elements: (String, String)...) {
        entries = []
        for (name, text) in elements { add(name, text) }
    }

    /// Creates metadata from `[name: value]` pairs, in order (a name may come more than once):
    /// `["x-id": "42", "trace-bin": .bytes([1, 2])]`; text for a `-bin` name is read as base64.
    public init(dictionaryLiteral elements: (String, Value)...) {
        entries = []
        for (name, value) in elements {
            switch value {
            case .text(let text): add(name, text)
            case .bytes(let bytes): add(name, bytes: bytes)
            }
        }
    }

    /// Whether a name holds bytes (it ends in `-bin`).
    public static func isBinary(_ name: String) -> Bool { name.lowercased().hasSuffix("-bin") }

    /// The number of pairs.
    public var count: Int { entries.count }
    /// Whether there is no pair.
    public var isEmpty: Bool { entries.isEmpty }

    /// Iterates over the pairs in order.
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// Adds a pair; text for a `-bin` name is read as base64 (and kept as text when it is not).
    ///
    /// - Parameters:
    ///   - name: the name.
    ///   - text: the value as text.
    public mutating func add(_ name: String, _ text: String) {
        if Self.isBinary(name), let bytes = Self.decodeBase64(text) {
            entries.append(Entry(name: name, value: .bytes(bytes)))
        } else {
            entries.append(Entry(name: name, value: .text(text)))
        }
    }

    /// Adds bytes under a `-bin` name.
    ///
    /// - Parameters:
    ///   - name: the name (it should end in `-bin`, or the bytes travel as text).
    ///   - bytes: the bytes.
    public mutating func add(_ name: String, bytes: [UInt8]) {
        entries.append(Entry(name: name, value: .bytes(bytes)))
    }

    /// Replaces every value of a name with one.
    ///
    /// - Parameters:
    ///   - name: the name.
    ///   - text: the new value as text (base64 for a `-bin` name).
    public mutating func set(_ name: String, _ text: String) {
        remove(name)
        add(name, text)
    }

    /// Removes every value of a name.
    ///
    /// - Parameter name: the name, in any case.
    public mutating func remove(_ name: String) {
        let name = name.lowercased()
        entries.removeAll { $0.name == name }
    }

    /// Every value of a name, in order.
    ///
    /// - Parameter name: the name, in any case.
    public subscript(name: String) -> [Value] {
        let name = name.lowercased()
        return entries.filter { $0.name == name }.map(\.value)
    }

    /// The first value of a name as text (base64 for bytes), or `nil`.
    ///
    /// - Parameter name: the name, in any case.
    /// - Returns: the text.
    public func first(_ name: String) -> String? { self[name].first?.description }

    /// Base64 with or without its padding, as gRPC allows.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var text = text.trimmingCharacters(in: .whitespaces)
        let remainder = text.utf8.count % 4
        if remainder != 0 { text += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: text).map { Array($0) }
    }
}

// MARK: - GRPCCore's metadata

extension GRPCMetadata {
    /// The metadata grpc-swift received.
    init(_ metadata: Metadata) {
        entries = metadata.map { key, value in
            switch value {
            case .string(let text): Entry(name: key, value: .text(text))
            case .binary(let bytes): Entry(name: key, value: .bytes(bytes))
            }
        }
    }

    /// The metadata for grpc-swift to send.
    var grpcMetadata: Metadata {
        var metadata = Metadata()
        for entry in entries {
            switch entry.value {
            case .text(let text): metadata.addString(text, forKey: entry.name)
            case .bytes(let bytes) where Self.isBinary(entry.name): metadata.addBinary(bytes, forKey: entry.name)
            case .bytes(let bytes): metadata.addString(String(decoding: bytes, as: UTF8.self), forKey: entry.name)
            }
        }
        return metadata
    }
}
