import NetworkingCore

extension WireToJSON {
    /// One scalar value of `field` and whether it is its type's zero; nil for a closed enum's
    /// unknown number (protobuf keeps those as unknown fields, which JSON does not show).
    func scalar(_ field: FieldInfo, _ reader: inout WireReader) throws -> (value: JSONValue, isZero: Bool)? {
        switch field.kind {
        case .double:
            let bits = try reader.fixed64()
            return (Self.double(Double(bitPattern: bits)), bits == 0)
        case .float:
            let bits = try reader.fixed32()
            return (Self.float(Float(bitPattern: bits)), bits == 0)
        case .int32:
            let value = Int32(truncatingIfNeeded: try reader.varint())
            return (.number(String(value)), value == 0)
        case .sint32:
            let value = WireReader.zigZag32(try reader.varint())
            return (.number(String(value)), value == 0)
        case .uint32:
            let value = UInt32(truncatingIfNeeded: try reader.varint())
            return (.number(String(value)), value == 0)
        case .fixed32:
            let value = try reader.fixed32()
            return (.number(String(value)), value == 0)
        case .sfixed32:
            let value = Int32(bitPattern: try reader.fixed32())
            return (.number(String(value)), value == 0)
        case .int64:
            let value = Int64(bitPattern: try reader.varint())
            return (.string(String(value)), value == 0)
        case .sint64:
            let value = WireReader.zigZag64(try reader.varint())
            return (.string(String(value)), value == 0)
        case .uint64:
            let value = try reader.varint()
            return (.string(String(value)), value == 0)
        case .fixed64:
            let value = try reader.fixed64()
            return (.string(String(value)), value == 0)
        case .sfixed64:
            let value = Int64(bitPattern: try reader.fixed64())
            return (.string(String(value)), value == 0)
        case .bool:
            let value = try reader.varint() != 0
            return (.bool(value), !value)
        case .string:
            let range = try reader.lengthDelimited()
            let text = String(decoding: UnsafeBufferPointer(rebasing: reader.bytes[range]), as: UTF8.self)
            return (.string(text), range.isEmpty)
        case .bytes:
            let range = try reader.lengthDelimited()
            return (.string(Base64.encode(reader.bytes[range])), range.isEmpty)
        case .enum:
            let number = Int32(truncatingIfNeeded: try reader.varint())
            let info = schema.enums[field.enumIndex]
            if info.fullName == "google.protobuf.NullValue" { return (.null, number == 0) }
            if let name = info.nameByNumber[number] { return (.string(name), number == 0) }
            return info.isClosed ? nil : (.number(String(number)), number == 0)
        case .message, .group:
            throw WireReader.Malformed(reason: "a message where a scalar was expected")
        }
    }

    /// A double as proto3 JSON: a number, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    static func double(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    /// A float as proto3 JSON, with the shortest digits that read back as the same float.
    static func float(_ value: Float) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    // MARK: - Well-known types

    /// A well-known type's special JSON from the object of its fields.
    func wellKnown(_ kind: WellKnown, _ json: JSONValue, index: Int) throws(ProtoCodecError) -> JSONValue {
        switch kind {
        case .timestamp, .duration:
            let seconds = json["seconds"]?.stringValue.flatMap { Int64($0) } ?? 0
            let nanos = json["nanos"]?.intValue.map { Int32(truncatingIfNeeded: $0) } ?? 0
            let text =
                kind == .timestamp
                ? TimeText.timestamp(seconds: seconds, nanos: nanos)
                : TimeText.duration(seconds: seconds, nanos: nanos)
            guard let text else {
                throw failure(
                    "seconds \(seconds) and nanos \(nanos) are out of a \(kind == .timestamp ? "Timestamp" : "Duration")'s range"
                )
            }
            return .string(text)
        case .fieldMask:
            let paths = json["paths"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return .string(paths.map(FieldMaskText.toJSON).joined(separator: ","))
        case .structValue:
            return json["fields"] ?? .object([])
        case .listValue:
            return json["values"] ?? .array([])
        case .value:
            guard let member = json.members?.last else { return .null }
            return member.value
        case .wrapper(let valueKind):
            return json["value"] ?? Self.zero(of: valueKind)
        case .empty, .any:
            return json
        }
    }

    /// An Any: `{"@type": url, ...fields}`, or `"value"` for a well-known type with special JSON.
    mutating func any(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ProtoCodecError) -> JSONValue {
        var typeURL = ""
        var valueRanges: [Range<Int>] = []
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        do {
            while !reader.isAtEnd {
                let tag = try reader.varint()
                switch tag {
                case 1 << 3 | 2:
                    let text = try reader.lengthDelimited()
                    typeURL = String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self)
                case 2 << 3 | 2: valueRanges.append(try reader.lengthDelimited())
                default: try reader.skip(wireType: UInt32(tag & 7), number: tag >> 3)
                }
            }
        } catch {
            throw failure("not a google.protobuf.Any: \(error.reason)")
        }
        if typeURL.isEmpty, valueRanges.isEmpty { return .object([]) }
        let typeName = typeURL.split(separator: "/").last.map(String.init) ?? typeURL
        guard let index = schema.messageIndex(of: typeName) else {
            throw failure("unknown type \"\(typeURL)\" in an Any: the schema has no message \(typeName)")
        }
        let inner = try valueRanges.isEmpty ? .object([]) : mergedAny(bytes, valueRanges, index: index)
        if let kind = schema.messages[index].wellKnown, kind.isValueInAny {
            return .object([("@type", .string(typeURL)), ("value", inner)])
        }
        guard case .object(let members) = inner else { return .object([("@type", .string(typeURL))]) }
        return .object([("@type", .string(typeURL))] + members)
    }

    private mutating func mergedAny(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ ranges: [Range<Int>],
        index: Int
    ) throws(ProtoCodecError) -> JSONValue {
        let last = ranges[ranges.count - 1]
        return try message(bytes, last, index: index)
    }
}
