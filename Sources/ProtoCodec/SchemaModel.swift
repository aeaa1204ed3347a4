import SwiftProtobuf

/// A field's type on the wire and in JSON, numbered as `FieldDescriptorProto.Type`.
enum FieldKind: UInt8, Sendable {
    case double = 1
    case float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32
    case `enum`, sfixed32, sfixed64, sint32, sint64

    /// The wire type of one value (a packed list is length-delimited whatever this says).
    var wireType: UInt32 {
        switch self {
        case .double, .fixed64, .sfixed64: 1
        case .float, .fixed32, .sfixed32: 5
        case .string, .bytes, .message: 2
        case .group: 3
        default: 0
        }
    }

    /// Whether a repeated field of this kind may be packed.
    var isPackable: Bool { wireType != 2 && wireType != 3 }

    /// Whether JSON writes it as a string (the 64-bit integers).
    var is64Bit: Bool {
        switch self {
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: true
        default: false
        }
    }
}

/// The well-known types whose JSON is not an object of their fields.
enum WellKnown: Sendable, Equatable {
    case any, duration, timestamp, fieldMask, structValue, value, listValue, empty
    /// `google.protobuf.DoubleValue` … `BytesValue`: their one field's kind.
    case wrapper(FieldKind)

    init?(fullName: String) {
        switch fullName {
        case "google.protobuf.Any": self = .any
        case "google.protobuf.Duration": self = .duration
        case "google.protobuf.Timestamp": self = .timestamp
        case "google.protobuf.FieldMask": self = .fieldMask
        case "google.protobuf.Struct": self = .structValue
        case "google.protobuf.Value": self = .value
        case "google.protobuf.ListValue": self = .listValue
        case "google.protobuf.Empty": self = .empty
        case "google.protobuf.DoubleValue": self = .wrapper(.double)
        case "google.protobuf.FloatValue": self = .wrapper(.float)
        case "google.protobuf.Int64Value": self = .wrapper(.int64)
        case "google.protobuf.UInt64Value": self = .wrapper(.uint64)
        case "google.protobuf.Int32Value": self = .wrapper(.int32)
        case "google.protobuf.UInt32Value": self = .wrapper(.uint32)
        case "google.protobuf.BoolValue": self = .wrapper(.bool)
        case "google.protobuf.StringValue": self = .wrapper(.string)
        case "google.protobuf.BytesValue": self = .wrapper(.bytes)
        default: return nil
        }
    }

    /// Whether inside an Any its JSON stands under `"value"` (every one but Empty).
    var isValueInAny: Bool { self != .empty }
}

/// One field, resolved: everything encoding and decoding ask, without a dictionary look-up.
struct FieldInfo: Sendable {
    let name: String
    let jsonName: String
    let number: Int32
    let kind: FieldKind
    let isRepeated: Bool
    /// Proto3 repeated scalars (unless `[packed = false]`) and proto2 ones with `[packed = true]`.
    let isPacked: Bool
    let isMap: Bool
    /// Written even when it holds its default: proto2 fields, proto3 `optional`, oneof members,
    /// messages.
    let hasPresence: Bool
    /// The index of its real oneof (not a proto3 `optional`'s synthetic one) in the message, or -1.
    let oneofIndex: Int
    /// The index of its message type (`.message`, `.group`, a map's entry) in the schema, or -1.
    let messageIndex: Int
    /// The index of its enum type in the schema, or -1.
    let enumIndex: Int
    /// The type name as the descriptor gives it (for describe).
    let typeName: String
    /// The tag of one value: number << 3 | wire type.
    let tag: UInt32
}

/// One message type, resolved.
struct MessageInfo: Sendable {
    let fullName: String
    let descriptor: Google_Protobuf_DescriptorProto
    let isProto3: Bool
    /// Fields in field-number order.
    var fields: [FieldInfo]
    /// Field number to index in `fields`, dense up to the largest small number.
    var indexByNumber: [Int32]
    /// The largest field number, or those beyond `indexByNumber`'s reach.
    var sparseIndexByNumber: [Int32: Int]
    /// JSON name and original name to index in `fields`.
    var indexByName: [String: Int]
    let oneofNames: [String]
    let isMapEntry: Bool
    let wellKnown: WellKnown?

    func fieldIndex(number: Int32) -> Int? {
        if number >= 0, Int(number) < indexByNumber.count {
            let index = indexByNumber[Int(number)]
            return index < 0 ? nil : Int(index)
        }
        return sparseIndexByNumber[number]
    }
}

/// One enum type, resolved.
struct EnumInfo: Sendable {
    let fullName: String
    let descriptor: Google_Protobuf_EnumDescriptorProto
    let isClosed: Bool
    let numberByName: [String: Int32]
    let nameByNumber: [Int32: String]
    /// The first value's name (a skeleton's zero).
    let firstName: String
}
