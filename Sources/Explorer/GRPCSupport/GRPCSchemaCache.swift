import Foundation
import NetworkingGRPC
import Synchronization
import Workspace

/// The gRPC schemas read in this process, by server and schema files: a run or a session asks a
/// server's reflection once, and reads a collection's `protoset:` or compiles its `protos:`
/// once, however many calls use them.
///
/// A schema is never kept past a change: the key holds each named file's size and modification
/// time, so an edited `.proto` or descriptor set is read again; and `exchange` asks again once
/// when a cached schema lacks the method called (a server restarted with new methods).
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

    /// A method of the schema made ready to call: from the cached schema, else (the method is
    /// not in it, and it was cached) from the schema read again.
    ///
    /// - Throws: what `schema` throws, and `GRPCExchangeError.unknownMethod` for a method the
    ///   fresh schema lacks too.
    package func exchange(
        method: String, files: GRPCSchemaFiles, folder: URL, dispatcher: GRPCDispatcher, server: String
    ) async throws -> GRPCExchange {
        let key = Self.key(server: server, files: files, folder: folder)
        let wasCached = schemas.withLock { $0[key] != nil }
        let cached = try await schema(files: files, folder: folder, dispatcher: dispatcher, server: server)
        do {
            return try GRPCExchange(method: method, in: cached)
        } catch GRPCExchangeError.unknownMethod where wasCached {
            _ = schemas.withLock { $0.removeValue(forKey: key) }
            let fresh = try await schema(files: files, folder: folder, dispatcher: dispatcher, server: server)
            return try GRPCExchange(method: method, in: fresh)
        }
    }

    /// Forgets every schema (a collection reloaded, a refresh asked).
    package func removeAll() {
        schemas.withLock { $0.removeAll() }
    }

    private static func key(server: String, files: GRPCSchemaFiles, folder: URL) -> String {
        let named = ([files.descriptorSet].compactMap { $0 } + files.protoFiles).map { path in
            path + " " + stamp(of: GRPCSchemaLoader.resolve(path, in: folder))
        }
        return ([server, folder.path] + named + ["|"] + files.importPaths).joined(separator: "\n")
    }

    /// A file's size and modification time, which change when it is written.
    private static func stamp(of url: URL) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return "absent" }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size) \(modified)"
    }
}
