import NetworkingCore
import ProtoCodec
import Testing

/// What the binary reader and writer do beyond the Python cases: wire forms protobuf accepts
/// (unpacked and packed lists, unknown fields, a message given twice), and the errors' wording.
@Suite struct ProtoCodecWireTests {
    let schema = ProtoFixtures.schema

    @Test func packedAndUnpackedListsBothDecode() throws {
        // backoff_ms = 2: packed [1, 2], then two unpacked values 3 and 4.
        let bytes: [UInt8] = [0x12, 0x02, 0x01, 0x02, 0x10, 0x03, 0x10, 0x04]
        #expect(try schema.decode(bytes, as: "grpc.testing.ReconnectInfo") == ["backoffMs": [1, 2, 3, 4]])
        #expect(
            try schema.encode(["backoffMs": [1, 2, 3, 4]], as: "grpc.testing.ReconnectInfo") == [
                0x12, 0x04, 0x01, 0x02, 0x03, 0x04,
            ])
    }

    @Test func unknownFieldsOnTheWireAreSkipped() throws {
        // Field 99 of each wire type (varint, 64-bit, length-delimited, group, 32-bit), then username.
        let bytes: [UInt8] = [
            0x98, 0x06, 0x05, 0x99, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x9A, 0x06, 0x01, 0xFF,
            0x9B, 0x06, 0x08, 0x01, 0x9C, 0x06, 0x9D, 0x06, 1, 2, 3, 4, 0x12, 0x01, 0x75,
        ]
        #expect(try schema.decode(bytes, as: "grpc.testing.SimpleResponse") == ["username": "u"])
    }

    @Test func aMessageGivenTwiceIsMerged() throws {
        // payload { type: 0, body: "a" } then payload { body... } : the later scalar wins, fields merge.
        let first: [UInt8] = [0x1A, 0x03, 0x12, 0x01, 0x61]
        let second: [UInt8] = [0x20, 0x01, 0x1A, 0x03, 0x12, 0x01, 0x62]
        let json = try schema.decode(first + second, as: "grpc.testing.SimpleRequest")
        #expect(json == ["payload": ["body": "Yg=="], "fillUsername": true])
    }

    @Test func aLongNestedMessageGetsALongLength() throws {
        let text = String(repeating: "x", count: 300)
        let bytes = try schema.encode(["nested": ["name": .string(text)]], as: "explorer.test.Choice")
        #expect(bytes.prefix(6) == [0x1A, 0xAF, 0x02, 0x0A, 0xAC, 0x02])
        #expect(try schema.decode(bytes, as: "explorer.test.Choice") == ["nested": ["name": .string(text)]])
    }

    @Test func truncatedBytesAreAnError() {
        #expect(throws: ProtoCodecError.self) {
            try schema.decode([0x1A, 0x05, 0x12], as: "grpc.testing.SimpleRequest")
        }
        #expect(throws: ProtoCodecError.self) { try schema.decode([0x80], as: "grpc.testing.SimpleRequest") }
    }

    @Test func errorsReadAsOneLineNamingTheType() {
        do {
            _ = try schema.encode(["responseSize": "abc"], as: "grpc.testing.SimpleRequest")
        } catch {
            #expect("\(error)" == "grpc.testing.SimpleRequest.responseSize: expected an integer, got \"abc\"")
        }
        do {
            _ = try schema.encode(["foo": 1], as: "grpc.testing.SimpleRequest")
        } catch {
            #expect(
                "\(error)"
                    == "unknown field \"foo\" in grpc.testing.SimpleRequest (known: responseType, responseSize, "
                    + "payload, fillUsername, fillOauthScope, responseCompressed, responseStatus, expectCompressed, …)"
            )
        }
        do {
            _ = try schema.encode(["payload": ["bodyy": ""]], as: "grpc.testing.SimpleRequest")
        } catch {
            #expect("\(error)".hasPrefix("unknown field \"bodyy\" in grpc.testing.Payload (known: type, body)"))
            #expect("\(error)".hasSuffix(" at grpc.testing.SimpleRequest.payload"))
        }
        do {
            _ = try schema.encode(["a\nb": 1], as: "grpc.testing.Payload")
        } catch {
            #expect("\(error)" == "unknown field \"a\\nb\" in grpc.testing.Payload (known: type, body)")
        }
        #expect(throws: ProtoCodecError.self) { try schema.encode([:], as: "no.Such") }
    }

    @Test func aFieldGivenByBothNamesIsRefused() {
        #expect(throws: ProtoCodecError.self) {
            try schema.encode(["responseSize": 1, "response_size": 2], as: "grpc.testing.SimpleRequest")
        }
    }

    @Test func statusDetailsDecodeWithTheirAnysResolved() throws {
        let status: JSONValue = [
            "code": 3, "message": "bad request",
            "details": [
                [
                    "@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": [["field": "name", "description": "empty"]],
                ],
                ["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"],
                ["@type": "type.googleapis.com/google.protobuf.Duration", "value": "1.500s"],
            ],
        ]
        let bytes = try schema.encode(status, as: "google.rpc.Status")
        #expect(schema.decodeStatusDetails(bytes) == status)
        // A detail of an unknown type: the status is still read, without its details.
        var unknown: [UInt8] = [0x08, 0x05, 0x1A, 0x0C, 0x0A, 0x0A]
        unknown += Array("x.com/a.B0".utf8)
        #expect(schema.decodeStatusDetails(unknown) == ["code": 5])
        #expect(schema.decodeStatusDetails([0xFF]) == nil)
    }

    @Test func anUnknownAnyTypeOnTheWireIsAnErrorNamingIt() {
        let any: [UInt8] = [0x0A, 0x0A] + Array("x.com/a.B0".utf8)
        do {
            _ = try schema.decode([0x0A, UInt8(any.count)] + any, as: "explorer.test.WellKnown")
            Issue.record("decoded")
        } catch {
            #expect("\(error)".contains("x.com/a.B0"))
        }
    }

    @Test func proto2GroupsAndDefaultsRoundTrip() throws {
        let json: JSONValue = ["id": "g", "count": 7, "item": ["title": "t"], "entry": [["key": "a"], ["key": "b"]]]
        let bytes = try schema.encode(json, as: "explorer.legacy.Legacy")
        // The group starts with tag 6 << 3 | 3 and ends with 6 << 3 | 4.
        #expect(bytes.contains(0x33) && bytes.contains(0x34))
        #expect(try schema.decode(bytes, as: "explorer.legacy.Legacy") == json)
    }

    @Test func anEnumNumberWithoutANameStaysANumber() throws {
        // f_enum = 16, value 7: proto3 enums are open.
        #expect(try schema.decode([0x80, 0x01, 0x07], as: "explorer.test.Scalars") == ["fEnum": 7])
        #expect(try schema.encode(["fEnum": 7], as: "explorer.test.Scalars") == [0x80, 0x01, 0x07])
        // proto2 enums are closed: an unknown number is an unknown field, which JSON does not show.
        #expect(try schema.decode([0x0A, 0x00, 0x58, 0x07], as: "explorer.legacy.Legacy") == ["id": ""])
    }

    @Test func nullIsAValueOnlyWhereTheFieldIsAValue() throws {
        let bytes = try schema.encode(
            ["value": nil, "int32Value": nil, "struct": ["k": nil]], as: "explorer.test.WellKnown")
        #expect(try schema.decode(bytes, as: "explorer.test.WellKnown") == ["struct": ["k": nil], "value": nil])
    }

    @Test func aTimestampOutOfRangeOnTheWireIsAnError() {
        // seconds = 253402300800: 10000-01-01T00:00:00Z.
        var timestamp: [UInt8] = [0x08]
        var seconds: UInt64 = 253_402_300_800
        while seconds >= 0x80 {
            timestamp.append(UInt8(seconds & 0x7F) | 0x80)
            seconds >>= 7
        }
        timestamp.append(UInt8(seconds))
        let bytes: [UInt8] = [0x32, UInt8(timestamp.count)] + timestamp
        #expect(throws: ProtoCodecError.self) { try schema.decode(bytes, as: "explorer.test.WellKnown") }
    }
}
