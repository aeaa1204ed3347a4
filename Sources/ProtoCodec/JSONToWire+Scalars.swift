import NetworkingCore

extension JSONToWire {
    /// Writes one scalar value of `kind` (no tag); returns whether it is its type's zero.
    mutating func scalar(_ kind: FieldKind, _ json: JSONValue, enumIndex: Int) throws(ProtoCodecError) -> Bool {
        switch kind {
        case .double:
            let value = try double(json)
            writer.fixed64(value.bitPattern)
            return value.bitPattern == 0
        case .float:
            let wide = try double(json)
            let value = Float(wide)
            // A double that rounds to a finite float fits (3.4028235e38 is float's largest).
            guard value.isFinite || !wide.isFinite else {
                throw failure("\(Self.shown(json)) is out of range for float")
            }
            writer.fixed32(value.bitPattern)
            return value.bitPattern == 0
        case .int32:
            let value = try signedInteger(json, min: Int64(Int32.min), max: Int64(Int32.max), type: "int32")
            writer.varint(UInt64(bitPattern: value))
            return value == 0
        case .sint32:
            let value = try signedInteger(json, min: Int64(Int32.min), max: Int64(Int32.max), type: "sint32")
            writer.varint(WireWriter.zigZag32(Int32(value)))
            return value == 0
        case .sfixed32:
            let value = try signedInteger(json, min: Int64(Int32.min), max: Int64(Int32.max), type: "sfixed32")
            writer.fixed32(UInt32(bitPattern: Int32(value)))
            return value == 0
        case .uint32:
            let value = try unsignedInteger(json, max: UInt64(UInt32.max), type: "uint32")
            writer.varint(value)
            return value == 0
        case .fixed32:
            let value = try unsignedInteger(json, max: UInt64(UInt32.max), type: "fixed32")
            writer.fixed32(UInt32(value))
            return value == 0
        case .int64:
            let value = try signedInteger(json, min: Int64.min, max: Int64.max, type: "int64")
            writer.varint(UInt64(bitPattern: value))
            return value == 0
        case .sint64:
            let value = try signedInteger(json, min: Int64.min, max: Int64.max, type: "sint64")
            writer.varint(WireWriter.zigZag64(value))
            return value == 0
        case .sfixed64:
            let value = try signedInteger(json, min: Int64.min, max: Int64.max, type: "sfixed64")
            writer.fixed64(UInt64(bitPattern: value))
            return value == 0
        case .uint64:
            let value = try unsignedInteger(json, max: UInt64.max, type: "uint64")
            writer.varint(value)
            return value == 0
        case .fixed64:
            let value = try unsignedInteger(json, max: UInt64.max, type: "fixed64")
            writer.fixed64(value)
            return value == 0
        case .bool:
            guard case .bool(let value) = json else { throw failure("expected true or false, got \(Self.shown(json))") }
            writer.varint(value ? 1 : 0)
            return !value
        case .string:
            guard case .string(let value) = json else { throw failure("expected a string, got \(Self.shown(json))") }
            writer.string(value)
            return value.isEmpty
        case .bytes:
            guard case .string(let text) = json, let value = Base64.decode(text) else {
                throw failure("expected base64 bytes, got \(Self.shown(json))")
            }
            writer.lengthDelimited(value)
            return value.isEmpty
        case .enum:
            let value = try enumNumber(json, enumIndex: enumIndex)
            writer.varint(UInt64(bitPattern: Int64(value)))
            return value == 0
        case .message, .group:
            throw failure("a message where a scalar was expected")
        }
    }

    private func enumNumber(_ json: JSONValue, enumIndex: Int) throws(ProtoCodecError) -> Int32 {
        let info = schema.enums[enumIndex]
        switch json {
        case .string(let name):
            guard let number = info.numberByName[name] else {
                let names = info.descriptor.value.prefix(8).map(\.name).joined(separator: ", ")
                throw failure("unknown value \"\(name)\" of enum \(info.fullName) (known: \(names))")
            }
            return number
        case .null where info.fullName == "google.protobuf.NullValue":
            return 0
        case .number:
            return Int32(try signedInteger(json, min: Int64(Int32.min), max: Int64(Int32.max), type: "an enum"))
        default:
            throw failure("expected a name of enum \(info.fullName), got \(Self.shown(json))")
        }
    }

    /// A double from a JSON number, or a string: `"NaN"`, `"Infinity"`, `"-Infinity"` or a number's text.
    func double(_ json: JSONValue) throws(ProtoCodecError) -> Double {
        switch json {
        case .number(let text):
            if let value = Double(text), value.isFinite { return value }
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            if Self.isNumberText(text), let value = Double(text), value.isFinite { return value }
        default: break
        }
        throw failure("expected a number, got \(Self.shown(json))")
    }

    /// Whether `text` is a JSON number's text (which Swift's `Double(_:)` would take with more).
    static func isNumberText(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else {
            return false
        }
        return text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 43 || $0 == 45 || $0 | 0x20 == 101 }
    }

    /// The text of an integer given as a JSON number or a string.
    private func integerText(_ json: JSONValue) throws(ProtoCodecError) -> String {
        switch json {
        case .number(let text): return text
        case .string(let text) where Self.isNumberText(text): return text
        default: throw failure("expected an integer, got \(Self.shown(json))")
        }
    }

    /// The integral value of a number with a fraction or an exponent (`1e3`, `5.0`), as Double.
    private func integralDouble(_ text: String, _ json: JSONValue) throws(ProtoCodecError) -> Double {
        guard let value = Double(text), value.isFinite, value.rounded(.towardZero) == value else {
            throw failure("expected an integer, got \(Self.shown(json))")
        }
        return value
    }

    func signedInteger(_ json: JSONValue, min: Int64, max: Int64, type: String) throws(ProtoCodecError) -> Int64 {
        let text = try integerText(json)
        let value: Int64
        if let exact = Int64(text) {
            value = exact
        } else if text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 45 }) {
            throw failure("\(Self.shown(json)) is out of range for \(type)")
        } else {
            let wide = try integralDouble(text, json)
            guard wide >= -9.223_372_036_854_775_808e18, wide < 9.223_372_036_854_775_808e18 else {
                throw failure("\(Self.shown(json)) is out of range for \(type)")
            }
            value = Int64(wide)
        }
        guard value >= min, value <= max else { throw failure("\(Self.shown(json)) is out of range for \(type)") }
        return value
    }

    func unsignedInteger(_ json: JSONValue, max: UInt64, type: String) throws(ProtoCodecError) -> UInt64 {
        let text = try integerText(json)
        let value: UInt64
        if let exact = UInt64(text) {
            value = exact
        } else if text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 45 }) {
            throw failure("\(Self.shown(json)) is out of range for \(type)")
        } else {
            let wide = try integralDouble(text, json)
            guard wide >= 0, wide < 1.844_674_407_370_955_161_6e19 else {
                throw failure("\(Self.shown(json)) is out of range for \(type)")
            }
            value = UInt64(wide)
        }
        guard value <= max else { throw failure("\(Self.shown(json)) is out of range for \(type)") }
        return value
    }
}
