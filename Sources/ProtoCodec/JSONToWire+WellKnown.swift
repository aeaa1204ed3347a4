import NetworkingCore

extension JSONToWire {
    /// Writes a well-known type from its special JSON: a Timestamp's string, a wrapper's bare
    /// value, an Any's `@type` and fields.
    mutating func wellKnown(_ kind: WellKnown, _ json: JSONValue, index: Int) throws(ProtoCodecError) {
        switch kind {
        case .timestamp:
            guard case .string(let text) = json, let time = TimeText.parseTimestamp(text) else {
                throw failure(
                    "expected an RFC 3339 timestamp (\"1972-01-01T10:00:20.021Z\"), got \(Self.shown(json))"
                )
            }
            secondsAndNanos(time.seconds, time.nanos)
        case .duration:
            guard case .string(let text) = json, let time = TimeText.parseDuration(text) else {
                throw failure("expected a duration in seconds (\"1.5s\"), got \(Self.shown(json))")
            }
            secondsAndNanos(time.seconds, time.nanos)
        case .fieldMask:
            guard case .string(let text) = json else {
                throw failure("expected a field mask (\"a.b,c\"), got \(Self.shown(json))")
            }
            for path in text.split(separator: ",", omittingEmptySubsequences: true) {
                writer.tag(1 << 3 | 2)
                writer.string(FieldMaskText.fromJSON(String(path)))
            }
        case .structValue:
            guard case .object = json else { throw failure("expected an object (a Struct), got \(Self.shown(json))") }
            try field(schema.messages[index].fields[0], json)
        case .listValue:
            guard case .array = json else { throw failure("expected an array (a ListValue), got \(Self.shown(json))") }
            try field(schema.messages[index].fields[0], json)
        case .value:
            try value(json)
        case .wrapper(let valueKind):
            let mark = writer.bytes.count
            writer.tag(1 << 3 | valueKind.wireType)
            if try scalar(valueKind, json, enumIndex: -1) { writer.bytes.removeSubrange(mark...) }
        case .any:
            try any(json)
        case .empty:
            try message(json, index: index)
        }
    }

    private mutating func secondsAndNanos(_ seconds: Int64, _ nanos: Int32) {
        if seconds != 0 {
            writer.tag(1 << 3)
            writer.varint(UInt64(bitPattern: seconds))
        }
        if nanos != 0 {
            writer.tag(2 << 3)
            writer.varint(UInt64(bitPattern: Int64(nanos)))
        }
    }

    /// A `google.protobuf.Value`: the member of its oneof that the JSON's kind says.
    private mutating func value(_ json: JSONValue) throws(ProtoCodecError) {
        switch json {
        case .null:
            writer.tag(1 << 3)
            writer.varint(0)
        case .number(let text):
            guard let number = Double(text), number.isFinite else {
                throw failure("\(Self.shown(json)) is out of range for a double")
            }
            writer.tag(2 << 3 | 1)
            writer.fixed64(number.bitPattern)
        case .string(let text):
            writer.tag(3 << 3 | 2)
            writer.string(text)
        case .bool(let flag):
            writer.tag(4 << 3)
            writer.varint(flag ? 1 : 0)
        case .object:
            try nested(number: 5, "google.protobuf.Struct", json)
        case .array:
            try nested(number: 6, "google.protobuf.ListValue", json)
        }
    }

    private mutating func nested(number: UInt32, _ typeName: String, _ json: JSONValue) throws(ProtoCodecError) {
        guard let index = schema.messageIndex(of: typeName) else { throw failure("\(typeName) is missing") }
        writer.tag(number << 3 | 2)
        let start = writer.beginLengthDelimited()
        try message(json, index: index)
        writer.endLengthDelimited(start)
    }

    /// An Any: `{"@type": "type.googleapis.com/pkg.Type", ...fields}`, or with `"value"` for a
    /// well-known type with special JSON.
    private mutating func any(_ json: JSONValue) throws(ProtoCodecError) {
        guard case .object(let members) = json else {
            throw failure("expected an object with \"@type\" (an Any), got \(Self.shown(json))")
        }
        if members.isEmpty { return }
        guard let typeMember = members.first(where: { $0.key == "@type" }) else {
            throw failure("an Any needs \"@type\" (\"type.googleapis.com/pkg.Message\")")
        }
        guard case .string(let typeURL) = typeMember.value else {
            throw failure("\"@type\" must be a string, got \(Self.shown(typeMember.value))")
        }
        let typeName = typeURL.split(separator: "/").last.map(String.init) ?? typeURL
        guard let index = schema.messageIndex(of: typeName) else {
            throw failure("unknown type \"\(typeURL)\" in an Any: the schema has no message \(typeName)")
        }
        let rest = JSONValue.object(members.filter { $0.key != "@type" })
        var inner = JSONToWire(schema: schema, rootType: rootType)
        inner.path = path
        if let kind = schema.messages[index].wellKnown, kind.isValueInAny {
            guard case .object(let parts) = rest, parts.count == 1, parts[0].key == "value" else {
                throw failure("an Any holding \(typeName) needs its JSON under \"value\"")
            }
            inner.path.append("value")
            try inner.message(parts[0].value, index: index)
        } else {
            try inner.message(rest, index: index)
        }
        writer.tag(1 << 3 | 2)
        writer.string(typeURL)
        if !inner.writer.bytes.isEmpty {
            writer.tag(2 << 3 | 2)
            writer.lengthDelimited(inner.writer.bytes)
        }
    }
}
