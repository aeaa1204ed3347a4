import NetworkingCore

/// Reads a message's binary form into proto3 JSON: JSON names, fields in field-number order,
/// proto3 defaults left out, unknown fields skipped.
struct WireToJSON {
    let schema: ProtoSchema
    let rootType: String
    var path: [String] = []

    /// What one field has gathered while its message is read.
    private enum Slot {
        case none
        case scalar(JSONValue, isZero: Bool)
        case list([JSONValue])
        /// A singular message's encodings; more than one are merged by reading them as one.
        case parts([Range<Int>])
        case map([(key: String, value: JSONValue)], [String: Int])
    }

    func failure(_ reason: String) -> ProtoCodecError {
        var text = ""
        for step in path {
            if !text.isEmpty, !step.hasPrefix("[") { text += "." }
            text += step
        }
        return ProtoCodecError(messageType: rootType, fieldPath: text, reason: reason)
    }

    /// The JSON of the message of type `index` in `bytes[range]`.
    mutating func message(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        index: Int
    ) throws(ProtoCodecError) -> JSONValue {
        let message = schema.messages[index]
        if message.wellKnown == .any { return try any(bytes, range) }
        var slots = [Slot](repeating: .none, count: message.fields.count)
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        do {
            while !reader.isAtEnd {
                let tag = try reader.varint()
                let number = tag >> 3
                let wireType = UInt32(tag & 7)
                guard number > 0, number <= UInt64(Int32.max) else {
                    throw WireReader.Malformed(reason: "a tag with field number \(number)")
                }
                guard let fieldIndex = message.fieldIndex(number: Int32(number)) else {
                    try reader.skip(wireType: wireType, number: number)
                    continue
                }
                let field = message.fields[fieldIndex]
                path.append(field.jsonName)
                defer { path.removeLast() }
                try read(field, wireType: wireType, into: &slots[fieldIndex], &reader)
            }
        } catch let malformed as WireReader.Malformed {
            throw failure("not a \(message.fullName): \(malformed.reason)")
        } catch let error as ProtoCodecError {
            throw error
        } catch {
            throw failure(String(describing: error))
        }
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(slots.count)
        for (fieldIndex, slot) in slots.enumerated() {
            let field = message.fields[fieldIndex]
            switch slot {
            case .none: continue
            case .scalar(let value, let isZero):
                if isZero, !field.hasPresence { continue }
                members.append((field.jsonName, value))
            case .list(let values): members.append((field.jsonName, .array(values)))
            case .map(let entries, _): members.append((field.jsonName, .object(entries)))
            case .parts(let parts):
                path.append(field.jsonName)
                members.append((field.jsonName, try merged(bytes, parts, index: field.messageIndex)))
                path.removeLast()
            }
        }
        let json = JSONValue.object(members)
        if let kind = message.wellKnown { return try wellKnown(kind, json, index: index) }
        return json
    }

    private mutating func merged(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ parts: [Range<Int>],
        index: Int
    ) throws(ProtoCodecError) -> JSONValue {
        if parts.count == 1 { return try message(bytes, parts[0], index: index) }
        var joined: [UInt8] = []
        for part in parts { joined.append(contentsOf: bytes[part]) }
        var result: Result<JSONValue, ProtoCodecError> = .success(.null)
        joined.withUnsafeBufferPointer { buffer in
            do throws(ProtoCodecError) {
                result = .success(try message(buffer, 0..<buffer.count, index: index))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func read(
        _ field: FieldInfo,
        wireType: UInt32,
        into slot: inout Slot,
        _ reader: inout WireReader
    ) throws {
        if field.isMap {
            guard wireType == 2 else { return try reader.skip(wireType: wireType, number: UInt64(field.number)) }
            let range = try reader.lengthDelimited()
            let entry = try mapEntry(reader.bytes, range, index: field.messageIndex)
            guard case .map(var entries, var positions) = slot else {
                slot = .map([entry], [entry.key: 0])
                return
            }
            slot = .none
            if let position = positions[entry.key] {
                entries[position] = entry
            } else {
                positions[entry.key] = entries.count
                entries.append(entry)
            }
            slot = .map(entries, positions)
            return
        }
        if field.kind == .message || field.kind == .group {
            let range: Range<Int>
            if field.kind == .group {
                guard wireType == 3 else { return try reader.skip(wireType: wireType, number: UInt64(field.number)) }
                range = try reader.group(number: UInt64(field.number))
            } else {
                guard wireType == 2 else { return try reader.skip(wireType: wireType, number: UInt64(field.number)) }
                range = try reader.lengthDelimited()
            }
            if field.isRepeated {
                path.append("[\(listCount(slot))]")
                let value = try message(reader.bytes, range, index: field.messageIndex)
                path.removeLast()
                append(value, to: &slot)
            } else if case .parts(var parts) = slot {
                slot = .none
                parts.append(range)
                slot = .parts(parts)
            } else {
                slot = .parts([range])
            }
            return
        }
        if field.isRepeated, wireType == 2, field.kind.isPackable {
            let range = try reader.lengthDelimited()
            var packed = WireReader(reader.bytes, from: range.lowerBound, to: range.upperBound)
            while !packed.isAtEnd {
                if let value = try scalar(field, &packed)?.value { append(value, to: &slot) }
            }
            return
        }
        guard wireType == field.kind.wireType else {
            return try reader.skip(wireType: wireType, number: UInt64(field.number))
        }
        guard let value = try scalar(field, &reader) else { return }
        if field.isRepeated {
            append(value.value, to: &slot)
        } else {
            slot = .scalar(value.value, isZero: value.isZero)
        }
    }

    private func listCount(_ slot: Slot) -> Int {
        if case .list(let values) = slot { return values.count }
        return 0
    }

    private func append(_ value: JSONValue, to slot: inout Slot) {
        guard case .list(var values) = slot else {
            slot = .list([value])
            return
        }
        slot = .none
        values.append(value)
        slot = .list(values)
    }

    /// A map entry's key as JSON writes it (a string) and its value.
    private mutating func mapEntry(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        index: Int
    ) throws -> (key: String, value: JSONValue) {
        let entry = schema.messages[index]
        var key: String?
        var value: JSONValue?
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        while !reader.isAtEnd {
            let tag = try reader.varint()
            let number = tag >> 3
            let wireType = UInt32(tag & 7)
            guard number == 1 || number == 2, let field = entry.fields.first(where: { $0.number == number }) else {
                try reader.skip(wireType: wireType, number: number)
                continue
            }
            var slot = Slot.none
            try read(field, wireType: wireType, into: &slot, &reader)
            let read: JSONValue? =
                switch slot {
                case .scalar(let json, _): json
                case .parts(let parts): try merged(bytes, parts, index: field.messageIndex)
                default: nil
                }
            if number == 1 {
                if case .string(let text)? = read {
                    key = text
                } else if case .number(let text)? = read {
                    key = text
                } else if case .bool(let flag)? = read {
                    key = flag ? "true" : "false"
                }
            } else {
                value = read
            }
        }
        let keyField = entry.fields[0]
        let valueField = entry.fields[1]
        return (key ?? zeroKey(keyField.kind), value ?? zero(of: valueField))
    }

    private func zeroKey(_ kind: FieldKind) -> String {
        switch kind {
        case .string: ""
        case .bool: "false"
        default: "0"
        }
    }

    /// The JSON of a field's zero value (a map entry missing its value).
    func zero(of field: FieldInfo) -> JSONValue {
        switch field.kind {
        case .message, .group:
            let kind = schema.messages[field.messageIndex].wellKnown
            if kind == .value { return .null }
            return kind == .structValue ? .object([]) : (kind == .listValue ? .array([]) : .object([]))
        case .enum:
            let info = schema.enums[field.enumIndex]
            if info.fullName == "google.protobuf.NullValue" { return .null }
            return info.nameByNumber[0].map(JSONValue.string) ?? .number("0")
        default: return Self.zero(of: field.kind)
        }
    }

    static func zero(of kind: FieldKind) -> JSONValue {
        switch kind {
        case .string, .bytes: .string("")
        case .bool: .bool(false)
        case .double, .float, .int32, .uint32, .sint32, .fixed32, .sfixed32: .number("0")
        default: kind.is64Bit ? .string("0") : .number("0")
        }
    }
}
