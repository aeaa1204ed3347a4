import Foundation
import GRPCSupport
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Synchronization
import TestSupport
import Testing
import Workspace

@testable import Demo

/// Schemas from each source and calls of each kind, against the demo's gRPC server (real,
/// on 127.0.0.1, with reflection).
@Suite struct GRPCExchangeTests {
    /// The demo's folder of sources, where demo.proto is kept.
    static let demoSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Explorer/Demo/GRPC")

    /// Runs `body` with the demo served and a dispatcher to its local gRPC server.
    static func withDemo(_ body: (GRPCDispatcher, URL) async throws -> Void) async throws {
        let server = try await DemoServer.start(port: 0)
        let url = server.environments[0].grpcURL
        let provider = FixedServer(url)
        let dispatcher = GRPCDispatcher(serverProvider: provider)
        do {
            try await body(dispatcher, url)
        } catch {
            await dispatcher.shutdown()
            await server.stop()
            throw error
        }
        withExtendedLifetime(provider) {}
        await dispatcher.shutdown()
        await server.stop()
    }

    @Test func reflectionGivesTheSchemaAndAUnaryCallItsMessage() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            #expect(schema.origin == .reflection(server: url.absoluteString))
            let exchange = try GRPCExchange(method: "explorer.demo.v1.Directory/GetUser", in: schema)
            #expect(exchange.method.kind == .unary)
            let outcome = try await exchange.call(
                try exchange.encode([["id": 1]]), metadata: [], through: dispatcher)
            #expect(outcome.status.isOK)
            #expect(outcome.messages.count == 1)
            #expect(outcome.messages.first?.json["username"] == "ada")
            #expect(outcome.headers.first("content-type") == "application/grpc")
            #expect(!outcome.headers.contains { $0.name.hasPrefix(":") })
        }
    }

    @Test func aServerStreamGivesEachMessageAsItComes() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            let exchange = try GRPCExchange(method: "explorer.demo.v1.Directory/StreamPosts", in: schema)
            let seen = Mutex<[Int]>([])
            let outcome = try await exchange.call(
                try exchange.encode([["limit": 3, "interval": "0.05s"]]), metadata: [], through: dispatcher
            ) { message in
                seen.withLock { $0.append(message.index) }
            }
            #expect(seen.withLock { $0 } == [0, 1, 2])
            #expect(outcome.messages.count == 3)
            // The server waits the interval before each message: the last cannot come sooner than
            // three intervals after the call began (a loaded machine only makes it later).
            #expect(outcome.messages[2].receivedAt.timeIntervalSince(outcome.startedAt) >= 0.15)
        }
    }

    @Test func aFailedCallKeepsItsStatusAndDecodedDetails() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            let exchange = try GRPCExchange(method: "explorer.demo.v1.Directory/CreateUser", in: schema)
            let outcome = try await exchange.call(
                try exchange.encode([["name": "x"]]), metadata: [], through: dispatcher)
            #expect(outcome.status.name == "INVALID_ARGUMENT")
            let details = try #require(outcome.statusDetails?["details"])
            guard case .array(let items) = details else {
                Issue.record("details is not an array: \(details)")
                return
            }
            #expect(items.first?["@type"] == "type.googleapis.com/google.rpc.BadRequest")
        }
    }

    @Test func aMessageOfTheWrongShapeIsRefusedBeforeSendingNamingTheField() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            let exchange = try GRPCExchange(method: "explorer.demo.v1.Directory/GetUser", in: schema)
            #expect {
                try exchange.encode([["id": "abc"]])
            } throws: { error in
                String(describing: error).contains("explorer.demo.v1.GetUserRequest.id")
            }
            #expect(throws: GRPCExchangeError.self) { try exchange.encode([["id": 1], ["id": 2]]) }
        }
    }

    @Test func anUnknownMethodNamesTheNearestOnes() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            #expect {
                try GRPCExchange(method: "explorer.demo.v1.Directory/GetUsers", in: schema)
            } throws: { error in
                String(describing: error).contains("did you mean") && String(describing: error).contains("GetUser")
            }
        }
    }

    @Test func aDescriptorSetFileIsReadWhenReflectionIsNotThere() throws {
        let folder = try TemporaryFolder()
        try DemoDescriptorSet.data.write(to: folder.url.appendingPathComponent("demo.protoset"))
        let schema = try GRPCSchemaLoader.read(GRPCSchemaFiles(descriptorSet: "demo.protoset"), folder: folder.url)
        #expect(schema.origin == .descriptorSet(path: "demo.protoset"))
        #expect(schema.schema.method("explorer.demo.v1.Directory/Chat")?.kind == .bidirectionalStreaming)
    }

    @Test func aMissingDescriptorSetNamesThePath() throws {
        let folder = try TemporaryFolder()
        #expect {
            try GRPCSchemaLoader.read(GRPCSchemaFiles(descriptorSet: "none.protoset"), folder: folder.url)
        } throws: { error in
            String(describing: error).contains("none.protoset")
        }
    }

    @Test(.enabled(if: GRPCSchemaLoader.executable(named: "protoc") != nil, "protoc is on PATH"))
    func protoFilesAreCompiledWithProtoc() throws {
        let schema = try GRPCSchemaLoader.read(
            GRPCSchemaFiles(protoFiles: ["demo.proto"]), folder: Self.demoSources)
        #expect(schema.origin == .protoFiles(["demo.proto"]))
        #expect(schema.schema.service(named: "explorer.demo.v1.Directory")?.methods.count == 6)
    }

    @Test(.enabled(if: GRPCSchemaLoader.executable(named: "protoc") != nil, "protoc is on PATH"))
    func protocsOwnWordsSayWhatIsWrongWithAProtoFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("broken.proto", "syntax = \"proto3\";\nmessage A { int32 = 1; }\n")
        #expect {
            try GRPCSchemaLoader.read(GRPCSchemaFiles(protoFiles: ["broken.proto"]), folder: folder.url)
        } throws: { error in
            String(describing: error).contains("broken.proto:2")
        }
    }
}

extension GRPCExchangeTests {
    @Test func anOutcomeKeepsMessagesUpToItsCapAndCountsTheRest() async throws {
        try await Self.withDemo { dispatcher, url in
            let schema = try await GRPCSchemaLoader.load(
                files: GRPCSchemaFiles(), folder: URL(fileURLWithPath: "/"), dispatcher: dispatcher,
                server: url.absoluteString)
            let exchange = try GRPCExchange(method: "explorer.demo.v1.Directory/StreamPosts", in: schema)
            let given = Mutex(0)
            let outcome = try await exchange.call(
                try exchange.encode([["limit": 3, "interval": "0.01s"]]), metadata: [], through: dispatcher,
                keepingBytes: 200
            ) { _ in given.withLock { $0 += 1 } }
            #expect(given.withLock { $0 } == 3)
            #expect(outcome.messageCount == 3)
            #expect(outcome.messages.count < 3)
            #expect(outcome.isTruncated)
            #expect(outcome.record.receivedMessages == 3)
            #expect(outcome.record.json["receivedMessages"] == 3)
        }
    }
}
