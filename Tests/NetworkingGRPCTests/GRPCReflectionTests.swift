import Foundation
import NetworkingCore
import SwiftProtobuf
import Testing

@testable import NetworkingGRPC

/// Server reflection: the client against the service, each version.
@Suite struct GRPCReflectionTests {
    @Test func v1ListsServicesAndGivesAFileWithItsImports() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let reflection = GRPCReflectionClient(dispatcher: client.dispatcher)
            #expect(try await reflection.listServices() == ["test.Test"])
            #expect(reflection.version == .v1)
            let files = try await reflection.files(containing: "test.Test")
            #expect(files.map(\.name) == ["google/protobuf/wrappers.proto", "test/types.proto", "test/test.proto"])
            #expect(files.last?.service.first?.method.count == 7)
            let byMethod = try await reflection.files(containing: "test.Test.Echo")
            #expect(byMethod.last?.name == "test/test.proto")
            let byMessage = try await reflection.files(containing: "test.Note")
            #expect(byMessage.map(\.name) == ["google/protobuf/wrappers.proto", "test/types.proto"])
            await client.dispatcher.shutdown()
        }
    }

    @Test func aServerWithV1alphaAloneIsAskedInV1alpha() async throws {
        let service = GRPCReflectionService(files: TestFiles.all, versions: [.v1alpha])
        try await withTestServer(reflection: service) { port, _ in
            let client = TestClient(port: port)
            let reflection = GRPCReflectionClient(dispatcher: client.dispatcher)
            #expect(try await reflection.listServices() == ["test.Test"])
            #expect(reflection.version == .v1alpha)
            let files = try await reflection.allFiles()
            #expect(
                Set(files.map(\.name)) == ["google/protobuf/wrappers.proto", "test/types.proto", "test/test.proto"])
            await client.dispatcher.shutdown()
        }
    }

    @Test func importsLeftOutOfAnAnswerAreAskedForByName() async throws {
        let service = GRPCReflectionService(files: TestFiles.all, versions: [.v1], sendsImports: false)
        try await withTestServer(reflection: service) { port, _ in
            let client = TestClient(port: port)
            let files = try await GRPCReflectionClient(dispatcher: client.dispatcher).files(containing: "test.Test")
            #expect(files.map(\.name) == ["google/protobuf/wrappers.proto", "test/types.proto", "test/test.proto"])
            await client.dispatcher.shutdown()
        }
    }

    @Test func anUnknownSymbolIsNotFound() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let error = await #expect(throws: GRPCError.self) {
                _ = try await GRPCReflectionClient(dispatcher: client.dispatcher).files(containing: "nope.Nothing")
            }
            #expect(error?.status.name == "NOT_FOUND")
            #expect(error?.status.message.contains("nope.Nothing") == true)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aServerWithoutReflectionIsUnimplemented() async throws {
        try await withTestServer(reflection: nil) { port, _ in
            let client = TestClient(port: port)
            let error = await #expect(throws: GRPCError.self) {
                _ = try await GRPCReflectionClient(dispatcher: client.dispatcher).listServices()
            }
            #expect(error?.status.name == "UNIMPLEMENTED")
            await client.dispatcher.shutdown()
        }
    }

    @Test func theServiceReadsADescriptorSet() throws {
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = TestFiles.all
        let service = try GRPCReflectionService(descriptorSet: try set.serializedBytes())
        #expect(service.services == ["test.Test"])
        #expect(service.versions == [.v1, .v1alpha])
    }
}
