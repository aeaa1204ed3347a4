import NetworkingCore

/// Writes a message's binary form from its proto3 JSON, fields in field-number order and map
/// entries in key order (what protobuf's deterministic serialization writes).
struct JSONToWire {
    let schema: ProtoSchema
    let rootType: String
    var writer = WireWriter()
    /// Where the encoder is, as JSON names and `[index]`/`["key"]` steps, for errors.
    var path: [String] = []

    init(schema: ProtoSchema, rootType: String) {
        self.schema = schema
        self.rootType = rootType
    }

    // MARK: - Errors

    var pathText: String {
        var text = ""
        for step in path {
            if !text.isEmpty, !step.hasPrefix("[") { text += "." }
            text += step
        }
        return text
    }

    func failure(_ reason: String) -> ProtoCodecError {
        ProtoCodecError(messageType: rootType, fieldPath: pathText, reason: reason)
    }

    /// `got "abc"`: the JSON value, cut short.
    static func shown(_ json: JSONValue) -> String {
        let text = json.serialized()
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    // MARK: - Messages

    /// Writes the fields of `json`, a message of the type at `index` (no tag, no length).
    mutating func message(_ json: JSONValue, index: Int) throws(ProtoCodecError) {
        let message = schema.messages[index]
        if let wellKnown = message.wellKnown, wellKnown != .empty {
            try self.wellKnown(wellKnown, json, index: index)
            return
        }
        guard case .object(let members) = json else {
            throw failure("expected an object for \(message.fullName), got \(Self.shown(json))")
        }
        var chosen: [(field: Int, key: String, value: JSONValue)] = []
        chosen.reserveCapacity(members.count)
        for (key, value) in members {
            guard let fieldIndex = message.indexByName[key] else {
                path.append(key)
                defer { path.removeLast() }
                throw unknownField(key, in: message)
            }
            let field = message.fields[fieldIndex]
            if chosen.contains(where: { $0.field == fieldIndex }) {
                path.append(key)
                defer { path.removeLast() }
                throw failure("field \"\(field.jsonName)\" is given twice")
            }
            if case .null = value, !acceptsNull(field) { continue }
            if field.oneofIndex >= 0,
                let other = chosen.first(where: { message.fields[$0.field].oneofIndex == field.oneofIndex })
            {
                path.append(key)
                defer { path.removeLast() }
                throw failure(
                    "\"\(other.key)\" and \"\(key)\" are both members of oneof \(message.oneofNames[field.oneofIndex])"
                )
            }
            chosen.append((fieldIndex, key, value))
        }
        if chosen.count > 1 { chosen.sort { $0.field < $1.field } }
        for entry in chosen {
            path.append(entry.key)
            try self.field(message.fields[entry.field], entry.value)
            path.removeLast()
        }
    }

    private func acceptsNull(_ field: FieldInfo) -> Bool {
        guard !field.isRepeated else { return false }
        if field.messageIndex >= 0 { return schema.messages[field.messageIndex].wellKnown == .value }
        return field.enumIndex >= 0 && schema.enums[field.enumIndex].fullName == "google.protobuf.NullValue"
    }

    private func unknownField(_ key: String, in message: MessageInfo) -> ProtoCodecError {
        let names = message.fields.map(\.jsonName)
        let known = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
        return ProtoCodecError(
            messageType: rootType,
            fieldPath: pathText,
            reason: "unknown field \(JSONValue.string(key).serialized()) in \(message.fullName) "
                + "(known: \(names.isEmpty ? "none" : known))",
            standsAlone: true
        )
    }

    // MARK: - Fields

    mutating func field(_ field: FieldInfo, _ json: JSONValue) throws(ProtoCodecError) {
        if field.isMap {
            try map(field, json)
        } else if field.isRepeated {
            guard case .array(let elements) = json else {
                throw failure("expected an array, got \(Self.shown(json))")
            }
            if field.isPacked {
                guard !elements.isEmpty else { return }
                writer.tag(UInt32(bitPattern: field.number) << 3 | 2)
                let start = writer.beginLengthDelimited()
                for (position, element) in elements.enumerated() {
                    path.append("[\(position)]")
                    _ = try scalar(field.kind, element, enumIndex: field.enumIndex)
                    path.removeLast()
                }
                writer.endLengthDelimited(start)
            } else {
                for (position, element) in elements.enumerated() {
                    path.append("[\(position)]")
                    _ = try tagged(field, element)
                    path.removeLast()
                }
            }
        } else {
            let mark = writer.bytes.count
            let isZero = try tagged(field, json)
            if isZero, !field.hasPresence { writer.bytes.removeSubrange(mark...) }
        }
    }

    /// Writes the tag and one value; returns whether the value is its type's zero.
    mutating func tagged(_ field: FieldInfo, _ json: JSONValue) throws(ProtoCodecError) -> Bool {
        switch field.kind {
        case .message:
            writer.tag(field.tag)
            let start = writer.beginLengthDelimited()
            try message(json, index: field.messageIndex)
            writer.endLengthDelimited(start)
            return false
        case .group:
            writer.tag(field.tag)
            try message(json, index: field.messageIndex)
            writer.tag(UInt32(bitPattern: field.number) << 3 | 4)
            return false
        default:
            writer.tag(field.tag)
            return try scalar(field.kind, json, enumIndex: field.enumIndex)
        }
    }

    private mutating func map(_ field: FieldInfo, _ json: JSONValue) throws(ProtoCodecError) {
        guard case .object(let members) = json else {
            throw failure("expected an object (a map), got \(Self.shown(json))")
        }
        let entry = schema.messages[field.messageIndex]
        guard entry.fields.count == 2 else { throw failure("the map entry \(entry.fullName) is malformed") }
        let keyField = entry.fields[0]
        let valueField = entry.fields[1]
        var keyed: [(key: MapKey, text: String, value: JSONValue)] = []
        keyed.reserveCapacity(members.count)
        for (text, value) in members {
            path.append("[\(JSONValue.string(text).serialized())]")
            keyed.append((try mapKey(text, kind: keyField.kind), text, value))
            path.removeLast()
        }
        if keyed.count > 1 { keyed.sort { $0.key < $1.key } }
        for item in keyed {
            path.append("[\(JSONValue.string(item.text).serialized())]")
            writer.tag(UInt32(bitPattern: field.number) << 3 | 2)
            let start = writer.beginLengthDelimited()
            let keyJSON: JSONValue =
                switch item.key {
                case .bool(let flag): .bool(flag)
                case .text: .string(item.text)
                default: .number(item.text)
                }
            _ = try tagged(keyField, keyJSON)
            if case .null = item.value, !acceptsNull(valueField) {
                throw failure("a map value cannot be null")
            }
            _ = try tagged(valueField, item.value)
            writer.endLengthDelimited(start)
            path.removeLast()
        }
    }

    /// A map key as the deterministic order sorts it.
    enum MapKey: Comparable {
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case text([UInt8])

        static func < (lhs: MapKey, rhs: MapKey) -> Bool {
            switch (lhs, rhs) {
            case (.bool(let a), .bool(let b)): !a && b
            case (.signed(let a), .signed(let b)): a < b
            case (.unsigned(let a), .unsigned(let b)): a < b
            case (.text(let a), .text(let b)): a.lexicographicallyPrecedes(b)
            default: false
            }
        }
    }

    private func mapKey(_ text: String, kind: FieldKind) throws(ProtoCodecError) -> MapKey {
        switch kind {
        case .string: return .text(Array(text.utf8))
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw failure("a bool map key must be \"true\" or \"false\", got \"\(text)\"")
            }
        case .uint32, .fixed32:
            return .unsigned(try unsignedInteger(.string(text), max: UInt64(UInt32.max), type: "uint32"))
        case .uint64, .fixed64:
            return .unsigned(try unsignedInteger(.string(text), max: UInt64.max, type: "uint64"))
        case .int64, .sint64, .sfixed64:
            return .signed(try signedInteger(.string(text), min: Int64.min, max: Int64.max, type: "int64"))
        default:
            let value = try signedInteger(
                .string(text),
                min: Int64(Int32.min),
                max: Int64(Int32.max),
                type: "int32"
            )
            return .signed(value)
        }
    }
}
