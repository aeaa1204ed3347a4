import NetworkingCore
import ProtoCodec
import Testing

/// The codec against Python's protobuf: the bytes `SerializeToString(deterministic=True)` wrote
/// for each case's JSON, and the JSON `json_format.MessageToJson` wrote back from them.
@Suite struct ProtoCodecPythonTests {
    @Test func theFixturesHoldEnoughCases() {
        #expect(ProtoFixtures.cases.count >= 60)
        #expect(ProtoFixtures.errorCases.count >= 7)
    }

    @Test(arguments: ProtoFixtures.cases)
    func encodingGivesPythonsBytes(_ item: ProtoFixtures.Case) throws {
        let bytes = try ProtoFixtures.schema.encode(item.input, as: item.type)
        #expect(bytes == item.binary, "ours \(bytes.hexText) Python's \(item.binary.hexText)")
    }

    @Test(arguments: ProtoFixtures.cases)
    func decodingGivesPythonsJSON(_ item: ProtoFixtures.Case) throws {
        let json = try ProtoFixtures.schema.decode(item.binary, as: item.type)
        #expect(ProtoFixtures.same(json, item.json), "ours \(json.serialized()) Python's \(item.json.serialized())")
    }

    @Test(arguments: ProtoFixtures.cases)
    func decodedJSONEncodesToTheSameBytes(_ item: ProtoFixtures.Case) throws {
        let json = try ProtoFixtures.schema.decode(item.binary, as: item.type)
        #expect(try ProtoFixtures.schema.encode(json, as: item.type) == item.binary)
    }

    @Test(arguments: ProtoFixtures.errorCases)
    func refusedInputNamesTheFieldPath(_ item: ProtoFixtures.ErrorCase) {
        do {
            let bytes = try ProtoFixtures.schema.encode(item.input, as: item.type)
            Issue.record("encoded to \(bytes.count) bytes")
        } catch let error as ProtoCodecError {
            #expect(error.fieldPath == item.fieldPath, "\(error)")
            #expect(error.messageType == item.type)
            #expect(!error.description.contains("\n"))
        } catch {
            Issue.record("not a ProtoCodecError: \(error)")
        }
    }
}

extension [UInt8] {
    var hexText: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ") }
}
