import NetworkingCore

extension ProtoSchema {
    /// The binary form of `json`, a message of `messageType` in the proto3 JSON mapping.
    ///
    /// Original field names are accepted beside JSON names, 64-bit integers as numbers or
    /// strings, bytes as standard or URL-safe base64; `null` leaves a field at its default.
    /// Fields are written in field-number order and map entries in key order, so equal messages
    /// give equal bytes.
    ///
    /// - Throws: `ProtoCodecError` naming the field path and what is wrong there (an unknown
    ///   field, a value of the wrong type or out of range, two members of one oneof, an unknown
    ///   enum name or Any type, a malformed timestamp, duration or base64).
    public func encode(_ json: JSONValue, as messageType: String) throws -> [UInt8] {
        guard let index = messageIndex(of: messageType) else {
            throw ProtoCodecError(messageType: messageType, fieldPath: "", reason: "no such message type in the schema")
        }
        var encoder = JSONToWire(schema: self, rootType: messageType)
        try encoder.message(json, index: index)
        return encoder.writer.bytes
    }

    /// The proto3 JSON of `bytes`, a message of `messageType`: JSON names, 64-bit integers as
    /// strings, enums by name, fields at their proto3 default left out, unknown fields skipped
    /// (what `json_format.MessageToJson` writes without options).
    ///
    /// - Throws: `ProtoCodecError` when the bytes are not such a message, or hold an Any of a
    ///   type the schema does not know.
    public func decode(_ bytes: some Collection<UInt8>, as messageType: String) throws -> JSONValue {
        guard let index = messageIndex(of: messageType) else {
            throw ProtoCodecError(messageType: messageType, fieldPath: "", reason: "no such message type in the schema")
        }
        let decodeBuffer: (UnsafeBufferPointer<UInt8>) throws(ProtoCodecError) -> JSONValue = { buffer in
            var decoder = WireToJSON(schema: self, rootType: messageType)
            return try decoder.message(buffer, 0..<buffer.count, index: index)
        }
        if let result = try bytes.withContiguousStorageIfAvailable(decodeBuffer) { return result }
        return try Array(bytes).withUnsafeBufferPointer(decodeBuffer)
    }

    /// The JSON of a `grpc-status-details-bin` trailer's value: a `google.rpc.Status` with its
    /// `details` (Anys of google.rpc's error details, or of the schema's own types) resolved;
    /// nil when the bytes are not one.
    public func decodeStatusDetails(_ bytes: some Collection<UInt8>) -> JSONValue? {
        if let json = try? decode(bytes, as: "google.rpc.Status") { return json }
        // A detail of a type the schema does not know: the status without its details.
        guard let withoutDetails = Array(bytes).filteringField(number: 3) else { return nil }
        return try? decode(withoutDetails, as: "google.rpc.Status")
    }
}

extension [UInt8] {
    /// These message bytes without the fields of `number` (the rest as they are); nil when they
    /// are not a message.
    fileprivate func filteringField(number: UInt64) -> [UInt8]? {
        withUnsafeBufferPointer { buffer in
            var reader = WireReader(buffer, from: 0, to: buffer.count)
            var kept: [UInt8] = []
            while !reader.isAtEnd {
                let start = reader.position
                guard let tag = try? reader.varint(),
                    (try? reader.skip(wireType: UInt32(tag & 7), number: tag >> 3)) != nil
                else { return nil }
                if tag >> 3 != number { kept.append(contentsOf: buffer[start..<reader.position]) }
            }
            return kept
        }
    }
}
