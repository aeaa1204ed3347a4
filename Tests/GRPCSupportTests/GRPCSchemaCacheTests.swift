import Foundation
import GRPCSupport
import NetworkingGRPC
import ProtoCodec
import Testing
import Workspace

/// The process's schema cache is never kept past a change: an edited `.proto` is compiled
/// again, and a method the cached schema lacks has the schema read again before it is refused.
/// The server named refuses connections, so the schema comes from the collection's `protos:`
/// (compiled with the real protoc).
@Suite struct GRPCSchemaCacheTests {
    static let server = URL(string: "grpc://127.0.0.1:1")!

    static func proto(_ method: String) -> String {
        """
        syntax = "proto3";
        package cache.v1;
        message Empty {}
        service Probe { rpc \(method)(Empty) returns (Empty); }
        """
    }

    /// A folder with `probe.proto` holding `method`, and the cache's arguments for it.
    static func folder(_ method: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try proto(method).write(to: folder.appendingPathComponent("probe.proto"), atomically: true, encoding: .utf8)
        return folder
    }

    static let files = GRPCSchemaFiles(protoFiles: ["probe.proto"])

    @Test func anEditedProtoFileIsReadAgain() async throws {
        let folder = try Self.folder("Ping")
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = FixedServer(Self.server)
        let dispatcher = GRPCDispatcher(serverProvider: provider)
        defer { Task { await dispatcher.shutdown() } }
        let cache = GRPCSchemaCache()
        let first = try await cache.exchange(
            method: "cache.v1.Probe/Ping", files: Self.files, folder: folder, dispatcher: dispatcher,
            server: Self.server.absoluteString)
        #expect(first.method.path == "/cache.v1.Probe/Ping")
        try Self.proto("PingAgain").write(
            to: folder.appendingPathComponent("probe.proto"), atomically: true, encoding: .utf8)
        let schema = try await cache.schema(
            files: Self.files, folder: folder, dispatcher: dispatcher, server: Self.server.absoluteString)
        #expect(schema.schema.method("cache.v1.Probe/PingAgain") != nil)
        #expect(schema.schema.method("cache.v1.Probe/Ping") == nil)
        withExtendedLifetime(provider) {}
    }

    @Test func aMethodTheCachedSchemaLacksHasTheSchemaReadAgainOnce() async throws {
        let folder = try Self.folder("Ping")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("probe.proto")
        let provider = FixedServer(Self.server)
        let dispatcher = GRPCDispatcher(serverProvider: provider)
        defer { Task { await dispatcher.shutdown() } }
        let cache = GRPCSchemaCache()
        _ = try await cache.exchange(
            method: "cache.v1.Probe/Ping", files: Self.files, folder: folder, dispatcher: dispatcher,
            server: Self.server.absoluteString)
        // The same size and modification time: the file looks unchanged, so the cache's key is
        // the same and only the missing method tells.
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        try Self.proto("Pong").write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified as Any], ofItemAtPath: file.path)
        let exchange = try await cache.exchange(
            method: "cache.v1.Probe/Pong", files: Self.files, folder: folder, dispatcher: dispatcher,
            server: Self.server.absoluteString)
        #expect(exchange.method.path == "/cache.v1.Probe/Pong")
        await #expect(throws: GRPCExchangeError.self) {
            try await cache.exchange(
                method: "cache.v1.Probe/Nowhere", files: Self.files, folder: folder, dispatcher: dispatcher,
                server: Self.server.absoluteString)
        }
        withExtendedLifetime(provider) {}
    }
}
