import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// gRPC endpoints in a collection file (`grpc:`, `message:`, `messages:`, `metadata:`,
/// `server:`, `protoset:`, `protos:`): read, written back, resolved, and errors at the line to fix.
@Suite struct GRPCSettingsTests {
    static let text = """
        name: calls
        protoset: schema/service.protoset
        protos: {files: [protos/notes.proto], import_paths: [protos, ../shared/protos]}
        variables:
          note: n-1
        environments:
          - name: local
            base_url: grpc://127.0.0.1:50051
            headers:
              x-client: explorer
          - name: secure
            base_url: grpcs://notes.example.com
            variables:
              grpc_url: grpcs://other.example.com:8443
        endpoints:
          - name: Get note
            grpc: explorer.demo.v1.Notes/GetNote
            message: {id: "{{note}}", limit: 3}
            metadata:
              authorization: Bearer {{token}}
              trace-bin: AAEC
            assert:
              - status == 0
          - name: Chat
            grpc: /explorer.demo.v1.Notes/Chat
            server: "{{grpc_url}}"
            timeout: 2500ms
            max_message_size: 16M
            messages:
              - {text: hi}
              - {text: "bye {{note}}"}
          - name: Empty
            grpc: explorer.demo.v1.Notes/Ping
        """

    @Test func grpcEndpointsAndTheSchemaFilesAreRead() throws {
        let collection = try CollectionLoader.parse(Self.text, file: "c.yaml")
        #expect(collection.warnings.isEmpty, "\(collection.warnings)")
        #expect(
            collection.grpcSchema
                == GRPCSchemaFiles(
                    descriptorSet: "schema/service.protoset", protoFiles: ["protos/notes.proto"],
                    importPaths: ["protos", "../shared/protos"]))
        let get = try collection.endpoint(named: "Get note")
        #expect(get.isGRPC)
        #expect(get.path == "/explorer.demo.v1.Notes/GetNote")
        #expect(get.grpc?.messages == [["id": "{{note}}", "limit": 3]])
        #expect(get.headers.map(\.name) == ["authorization", "trace-bin"])
        #expect(get.assertions.count == 1)
        let chat = try collection.endpoint(named: "Chat")
        #expect(chat.grpc?.method == "explorer.demo.v1.Notes/Chat")
        #expect(chat.path == "{{grpc_url}}/explorer.demo.v1.Notes/Chat")
        #expect(chat.grpc?.messages.count == 2)
        #expect(chat.grpc?.writtenAsList == true)
        #expect(chat.grpc?.timeout == 2.5)
        #expect(chat.grpc?.maximumMessageSize == 16 << 20)
        #expect(get.grpc?.timeout == nil && get.grpc?.maximumMessageSize == nil)
        #expect(try collection.endpoint(named: "Empty").grpc?.messages == [.object([])])
    }

    @Test func aCollectionWithGRPCEndpointsIsWrittenAndReadBackTheSame() throws {
        let collection = try CollectionLoader.parse(Self.text, file: "c.yaml")
        let written = try CollectionWriter.yaml(of: CollectionWriter.node(for: collection))
        let reread = try CollectionLoader.parse(written, file: "written.yaml")
        #expect(reread == collection, "\(written)")
        #expect(!written.contains("path:"))
    }

    @Test func resolvingExpandsTheMessagesAndSendsMetadataAsHeaders() throws {
        let collection = try CollectionLoader.parse(Self.text, file: "c.yaml")
        let resolver = RequestResolver(processEnvironment: [:])
        let get = try resolver.resolve(
            try collection.endpoint(named: "Get note"), in: collection, overrides: ["token": "s3cret"])
        #expect(get.url == "grpc://127.0.0.1:50051/explorer.demo.v1.Notes/GetNote")
        #expect(get.grpcMessages == [["id": "n-1", "limit": 3]])
        #expect(get.request.headers["authorization"] == "Bearer s3cret")
        #expect(get.request.headers["x-client"] == "explorer")
        #expect(get.request.httpBody == nil)
        #expect(!get.masker.mask("Bearer s3cret").contains("s3cret"))

        let chat = try resolver.resolve(
            try collection.endpoint(named: "Chat"), in: collection,
            environment: collection.environments[1])
        #expect(chat.url == "grpcs://other.example.com:8443/explorer.demo.v1.Notes/Chat")
        #expect(chat.grpcMessages?.last == ["text": "bye n-1"])
    }

    @Test func httpKeysOnAGRPCEndpointAreRefusedSayingWhatToWrite() throws {
        let text = Self.text.replacingOccurrences(
            of: "    grpc: explorer.demo.v1.Notes/Ping", with: "    grpc: explorer.demo.v1.Notes/Ping\n    path: /ping")
        #expect {
            try CollectionLoader.parse(text, file: "c.yaml")
        } throws: { error in
            let message = String(describing: error)
            return message.contains("c.yaml:") && message.contains("path: is not for a gRPC endpoint")
        }
    }

    @Test func aMethodThatIsNotServiceSlashMethodIsRefused() throws {
        let text = Self.text.replacingOccurrences(
            of: "grpc: explorer.demo.v1.Notes/Ping", with: "grpc: Ping")
        #expect {
            try CollectionLoader.parse(text, file: "c.yaml")
        } throws: { error in
            String(describing: error).contains("package.Service/Method (not \"Ping\")")
        }
    }

    @Test(arguments: [("timeout: soon", "a deadline such as 500ms"), ("max_message_size: 4X", "512K or 16M")])
    func aDeadlineOrASizeThatDoesNotReadIsRefusedAtItsLine(line: String, expected: String) throws {
        let text = Self.text.replacingOccurrences(
            of: "    timeout: 2500ms\n    max_message_size: 16M", with: "    " + line)
        #expect {
            try CollectionLoader.parse(text, file: "c.yaml")
        } throws: { error in
            String(describing: error).contains("c.yaml:27:") && String(describing: error).contains(expected)
        }
    }

    @Test func messageAndMessagesTogetherAreRefused() throws {
        let text = Self.text.replacingOccurrences(
            of: "    messages:\n", with: "    message: {text: one}\n    messages:\n")
        #expect(throws: CollectionError.self) { try CollectionLoader.parse(text, file: "c.yaml") }
    }

    @Test func theSchemaFilesCountForTheTrustRule() throws {
        let collection = try CollectionLoader.parse(Self.text, file: "c.yaml")
        let folder = URL(fileURLWithPath: "/tmp/explorer-grpc-reach/project")
        let reach = CollectionReach(collection, folder: folder)
        #expect(reach.files == ["/tmp/explorer-grpc-reach/shared/protos"])
        #expect(reach.destinations.contains("grpc://127.0.0.1:50051"))
    }
}
