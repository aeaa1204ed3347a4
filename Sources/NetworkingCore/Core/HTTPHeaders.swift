/// An ordered list of header fields with case-insensitive lookup by name.
///
/// Order and the original spelling of names are kept, as they were sent or received; lookups
/// ignore case (`headers["content-type"]` finds `Content-Type`).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field: its name as written and its value.
    public struct Field: Sendable, Hashable {
        /// The field name, in the spelling it was given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a header field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields, keeping their order.
    ///
    /// - Parameter fields: the fields; repeated names are kept as separate fields.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from `(name, value)` pairs, keeping their order.
    public init(_ pairs: [(String, String)]) { self.fields = pairs.map { Field(name: $0.0, value: $0.1) } }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value for a name, compared case-insensitively; setting replaces every field of
    /// that name (or removes them when set to `nil`).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for a name, compared case-insensitively, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field of that name is present, compared case-insensitively.
    public func contains(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveEquals(name) } }

    /// Appends a field, keeping any of the same name.
    public mutating func add(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces the first field of that name in place and drops the others, or appends it.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[index] = Field(name: name, value: value)
        fields = fields.enumerated().filter { $0.offset == index || !$0.element.name.caseInsensitiveEquals(name) }.map(
            \.element)
    }

    /// Removes every field of that name, compared case-insensitively.
    public mutating func remove(name: String) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension String {
    /// Whether the two are equal ignoring case: byte by byte when both are ASCII (header names
    /// are), with no lowercased copies; through `lowercased()` when either has other characters.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var differ = false
        for (left, right) in zip(utf8, other.utf8) {
            if (left | right) >= 0x80 { return lowercased() == other.lowercased() }
            if left != right {
                let folded = left | 0x20
                differ = differ || folded != right | 0x20 || folded < 0x61 || folded > 0x7A
            }
        }
        return !differ
    }
}

extension HTTPHeaders {
    /// The header fields that carry secrets whatever their value: the one list the library's
    /// curl descriptions and the app's masking (history, exports, displays) hide.
    public static let secretFieldNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"]

    /// Words that make a header name a credential (`X-Auth-Token`, `X-Client-Secret`,
    /// `api-key` …): the app masks such headers, and they stay with their origin on a redirect.
    public static let credentialNameWords = ["token", "secret", "password", "api-key", "apikey", "api_key", "session"]

    /// Whether a header carries a credential by its name: one of `secretFieldNames`, or a
    /// name with one of `credentialNameWords` in it (compared case-insensitively).
    public static func isCredential(name: String) -> Bool {
        let lower = name.lowercased()
        return secretFieldNames.contains { $0.lowercased() == lower }
            || credentialNameWords.contains { lower.contains($0) }
    }
}
