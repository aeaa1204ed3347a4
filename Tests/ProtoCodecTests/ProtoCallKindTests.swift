import ProtoCodec
import Testing

@Test func callKindFollowsTheStreamingFlags() {
    #expect(ProtoCallKind(clientStreaming: false, serverStreaming: false) == .unary)
    #expect(ProtoCallKind(clientStreaming: true, serverStreaming: true).serverStreams)
    #expect(!ProtoCallKind(clientStreaming: false, serverStreaming: true).clientStreams)
}
