import Foundation
import NetworkingCore
import Testing
import Workspace

@testable import App

/// The request pane's copy of a gRPC call: its messages are its body, secrets masked.
@Suite struct GRPCRequestPreviewTests {
    static let collection = """
        name: calls
        environments:
          - name: local
            base_url: grpc://127.0.0.1:50051
            variables: {token: s3cret-token}
            secrets: [token]
        endpoints:
          - name: One
            grpc: demo.Notes/Get
            message: {id: 7, key: "{{token}}"}
          - name: Stream
            grpc: demo.Notes/Chat
            messages: [{text: a}, {text: b}]
        """

    static func preview(_ name: String) throws -> RequestPreview {
        let collection = try CollectionLoader.parse(Self.collection, file: "calls.yaml")
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: name), in: collection)
        return RequestPreview(resolved, key: nil)
    }

    @Test func aUnaryMessageIsThePrettyBodyWithItsSecretsMasked() throws {
        let body = try #require(try Self.preview("One").body)
        #expect(body.contains("\"id\": 7"))
        #expect(!body.contains("s3cret-token"))
    }

    @Test func aStreamsMessagesAreOnePerLine() throws {
        #expect(try Self.preview("Stream").body == #"{"text":"a"}"# + "\n" + #"{"text":"b"}"#)
    }
}
