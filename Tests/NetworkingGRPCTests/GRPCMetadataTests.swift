import GRPCCore
import NetworkingGRPC
import Testing

@Suite struct GRPCMetadataTests {
    @Test func binaryNamesReadBase64WithOrWithoutPadding() {
        let metadata: GRPCMetadata = ["Trace-Bin": "AAEC", "short-bin": "AQ", "x-id": "AQ"]
        #expect(metadata["trace-bin"] == [.bytes([0, 1, 2])])
        #expect(metadata["short-bin"] == [.bytes([1])])
        #expect(metadata["x-id"] == [.text("AQ")])
        #expect(metadata.first("short-bin") == "AQ==")
    }

    @Test func valuesKeepTheirOrderAndSetReplacesThemAll() {
        var metadata: GRPCMetadata = ["a": "1", "b": "2", "a": "3"]
        #expect(metadata.map(\.name) == ["a", "b", "a"])
        #expect(metadata["A"] == [.text("1"), .text("3")])
        metadata.set("a", "4")
        #expect(metadata.map(\.name) == ["b", "a"])
        #expect(metadata.first("a") == "4")
        metadata.remove("b")
        #expect(metadata.count == 1)
    }

    @Test func statusCodesAreNamedAsGRPCNamesThem() {
        #expect(Status.Code.ok.protocolName == "OK")
        #expect(Status.Code.unimplemented.protocolName == "UNIMPLEMENTED")
        #expect(Status.Code.internalError.protocolName == "INTERNAL")
        #expect(GRPCStatus(code: 14).name == "UNAVAILABLE")
        #expect(GRPCStatus(code: 42).name == "CODE_42")
    }
}
