import Foundation
import NetworkingGRPC
import Synchronization
import Workspace

/// The gRPC schemas read in this process, by server and schema files: a run or a session asks a
/// server's reflection once, and reads a collection's `protoset:` or compiles its `protos:`
/// once, however many calls use them.
package final class GRPCSchemaCache: Sendable {
    private let schemas = Mutex<[String: GRPCSchema]>([:])

    /// An empty cache.
    package init() {}

    /// The schema for a server and a collection's files: the one read before, else read now
    /// (`GRPCSchemaLoader.load`) and kept.
    ///
    /// - Throws: what `GRPCSchemaLoader.load` throws; nothing is kept then.
    package func schema(
        files: GRPCSchemaFiles, folder: URL, dispatcher: GRPCDispatcher, server: String
    ) async throws -> GRPCSchema {
        let key = Self.key(server: server, files: files, folder: folder)
        if let known = schemas.withLock({ $0[key] }) { return known }
        let loaded = try await GRPCSchemaLoader.load(
            files: files, folder: folder, dispatcher: dispatcher, server: server)
        schemas.withLock { $0[key] = loaded }
        return loaded
    }

    /// Forgets every schema (a collection reloaded, a refresh asked).
    package func removeAll() {
        schemas.withLock { $0.removeAll() }
    }

    private static func key(server: String, files: GRPCSchemaFiles, folder: URL) -> String {
        ([server, folder.path, files.descriptorSet ?? ""] + files.protoFiles + ["|"] + files.importPaths)
            .joined(separator: "\n")
    }
}
