import Contract
import NetworkingCore

/// The `int32` and `int64` formats of a schema, which the schema engine does not assert: where
/// an integer of the instance must fit 32 or 64 bits (OpenAPI's data types), found once when
/// the rules are compiled and checked on every request.
struct MockIntegerFormats: Sendable {
    /// One integer the schema bounds: its place in the instance (`*` for every item or member),
    /// the format, and where the format is in the document.
    struct Bound: Sendable {
        var path: [String]
        var bits: Int
        var schemaPointer: String
    }

    private(set) var bounds: [Bound] = []

    /// No bounds.
    init() {}

    /// The formats of the schema at `pointer` in `document` (`$ref`, `allOf`, `properties`,
    /// `items` and `additionalProperties` followed, a few levels deep).
    init(schemaAt pointer: String?, document: JSONValue) {
        guard let pointer, let schema = JSONPointer.resolve(pointer, in: document) else { return }
        collect(schema, pointer: pointer, path: [], document: document, depth: 0)
    }

    private mutating func collect(_ schema: JSONValue, pointer: String, path: [String], document: JSONValue, depth: Int)
    {
        guard depth < 10 else { return }
        var schema = schema
        var pointer = pointer
        for _ in 0..<8 {
            guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#"),
                let target = JSONPointer.resolve(String(reference.dropFirst()), in: document)
            else { break }
            (schema, pointer) = (target, String(reference.dropFirst()))
        }
        if let format = schema["format"]?.stringValue, format == "int32" || format == "int64" {
            bounds.append(Bound(path: path, bits: format == "int32" ? 32 : 64, schemaPointer: pointer + "/format"))
        }
        for (index, part) in (schema["allOf"]?.arrayValue ?? []).enumerated() {
            collect(part, pointer: pointer + "/allOf/\(index)", path: path, document: document, depth: depth + 1)
        }
        for property in schema["properties"]?.members ?? [] {
            collect(
                property.value, pointer: pointer + "/properties/" + JSONPointer.escape(property.key),
                path: path + [property.key], document: document, depth: depth + 1)
        }
        if let items = schema["items"], items.members != nil {
            collect(items, pointer: pointer + "/items", path: path + ["*"], document: document, depth: depth + 1)
        }
        if let other = schema["additionalProperties"], other.members != nil {
            collect(
                other, pointer: pointer + "/additionalProperties", path: path + ["*"], document: document,
                depth: depth + 1)
        }
    }

    /// The integers of `instance` that do not fit their format: (instance pointer, schema
    /// pointer, message).
    func violations(of instance: JSONValue) -> [(pointer: String, schemaPointer: String, message: String)] {
        var found: [(pointer: String, schemaPointer: String, message: String)] = []
        for bound in bounds {
            Self.values(at: bound.path[...], in: instance, pointer: "") { value, pointer in
                guard case .number(let text) = value, !Self.fits(text, bits: bound.bits) else { return }
                found.append((pointer, bound.schemaPointer, "\(text) does not fit an int\(bound.bits)"))
            }
        }
        return found
    }

    private static func values(
        at path: ArraySlice<String>, in value: JSONValue, pointer: String, _ visit: (JSONValue, String) -> Void
    ) {
        guard let first = path.first else { return visit(value, pointer) }
        let rest = path.dropFirst()
        if first == "*" {
            if let items = value.arrayValue {
                for (index, item) in items.enumerated() {
                    values(at: rest, in: item, pointer: "\(pointer)/\(index)", visit)
                }
            } else {
                for member in value.members ?? [] {
                    values(at: rest, in: member.value, pointer: pointer + "/" + JSONPointer.escape(member.key), visit)
                }
            }
        } else if let member = value[first] {
            values(at: rest, in: member, pointer: pointer + "/" + JSONPointer.escape(first), visit)
        }
    }

    /// Whether a JSON number's text is an integer within `bits` bits (a fraction or an exponent
    /// is read as a double; a number that is no integer is the type's concern, not the format's).
    static func fits(_ text: String, bits: Int) -> Bool {
        if let value = Int64(text) { return bits == 64 || Int64(Int32.min)...Int64(Int32.max) ~= value }
        let negative = text.hasPrefix("-")
        let digits = text.drop { $0 == "-" || $0 == "+" }.drop { $0 == "0" }
        if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
            // An integer past Int64: compared digit by digit (a double would round it into range).
            return false
        }
        guard let value = Double(text), value.rounded() == value else { return true }
        let (low, high): (Double, Double) = bits == 32 ? (Double(Int32.min), Double(Int32.max)) : (-0x1p63, 0x1p63)
        return negative ? value >= low : value < high && value <= high
    }
}
