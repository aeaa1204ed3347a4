import Foundation
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import SwiftProtobuf
import Workspace

/// A gRPC schema and where it was read from, for messages that say so.
package struct GRPCSchema: Sendable {
    /// Where a schema was read from.
    package enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// The server's reflection service.
        case reflection(server: String)
        /// The collection's `protoset:`.
        case descriptorSet(path: String)
        /// The collection's `protos:`, compiled with protoc.
        case protoFiles([String])

        package var description: String {
            switch self {
            case .reflection(let server): "the reflection service of \(server)"
            case .descriptorSet(let path): "the descriptor set \(path)"
            case .protoFiles(let files): files.joined(separator: ", ")
            }
        }
    }

    /// The schema.
    package let schema: ProtoSchema
    /// Where it came from.
    package let origin: Origin
}

/// Why no gRPC schema could be had, in one sentence that says what to do.
package enum GRPCSchemaError: Error, CustomStringConvertible, Sendable {
    /// The server answered reflection with UNIMPLEMENTED (or not at all) and the collection
    /// names no schema file.
    case noReflection(server: String, reason: String)
    /// A schema file does not read or does not parse.
    case unreadable(path: String, reason: String)
    /// `protos:` is written and protoc is not on PATH.
    case protocMissing
    /// protoc refused the files.
    case protocFailed(String)

    package var description: String {
        switch self {
        case .noReflection(let server, let reason):
            "\(server) gave no schema through reflection (\(reason)); add protoset: (a descriptor set, "
                + "protoc --descriptor_set_out=FILE --include_imports) or protos: {files: [...]} to the collection."
        case .unreadable(let path, let reason):
            "The gRPC schema file \(path) cannot be used: \(reason)."
        case .protocMissing:
            "The collection's protos: need protoc, which is not on PATH: install it (Debian: apt-get install "
                + "protobuf-compiler), or give a protoset: written where protoc is."
        case .protocFailed(let output):
            "protoc refused the collection's protos: \(output)"
        }
    }
}

/// Reads a gRPC schema from where a collection says, in order of preference: the server's
/// reflection, then the collection's `protoset:`, then its `protos:` compiled with protoc.
package enum GRPCSchemaLoader {
    /// The schema of a server, from its reflection, else the collection's files.
    ///
    /// - Parameters:
    ///   - files: the collection's `protoset:` and `protos:`.
    ///   - folder: the collection's folder, where their paths start.
    ///   - dispatcher: the dispatcher whose server is asked for its reflection.
    ///   - server: the server, for messages (`grpc://127.0.0.1:50051`).
    /// - Throws: `GRPCSchemaError`, or the reflection call's failure when the server could not
    ///   be reached and no file is named.
    package static func load(
        files: GRPCSchemaFiles, folder: URL, dispatcher: GRPCDispatcher, server: String
    ) async throws -> GRPCSchema {
        do {
            let reflected = try await GRPCReflectionClient(dispatcher: dispatcher).allFiles()
            return GRPCSchema(schema: try ProtoSchema(files: reflected), origin: .reflection(server: server))
        } catch {
            if !files.isEmpty { return try read(files, folder: folder) }
            if let status = (error as? GRPCError)?.status, status.name == "UNIMPLEMENTED" {
                throw GRPCSchemaError.noReflection(server: server, reason: "it has no reflection service")
            }
            throw error
        }
    }

    /// The schema the collection's files give: its `protoset:` when it names one, else its
    /// `protos:` compiled.
    ///
    /// - Throws: `GRPCSchemaError`.
    package static func read(_ files: GRPCSchemaFiles, folder: URL) throws -> GRPCSchema {
        if let path = files.descriptorSet {
            let url = resolve(path, in: folder)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw GRPCSchemaError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
            }
            do {
                return GRPCSchema(schema: try ProtoSchema(descriptorSet: data), origin: .descriptorSet(path: path))
            } catch {
                throw GRPCSchemaError.unreadable(path: url.path, reason: String(describing: error))
            }
        }
        let data = try compile(files, folder: folder)
        do {
            return GRPCSchema(schema: try ProtoSchema(descriptorSet: data), origin: .protoFiles(files.protoFiles))
        } catch {
            throw GRPCSchemaError.protocFailed(String(describing: error))
        }
    }

    /// The descriptor set protoc writes for the `protos:` files (with every import).
    ///
    /// - Throws: `GRPCSchemaError.protocMissing` or `.protocFailed` with protoc's own words.
    static func compile(_ files: GRPCSchemaFiles, folder: URL) throws -> Data {
        guard let protoc = executable(named: "protoc") else { throw GRPCSchemaError.protocMissing }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("explorer-protoset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var importPaths = files.importPaths.map { resolve($0, in: folder).path }
        // protoc needs each file under an import path; the files' own folders are added after
        // the collection's, as grpcurl does when it is given none.
        for file in files.protoFiles {
            let parent = resolve(file, in: folder).deletingLastPathComponent().path
            if !importPaths.contains(parent) { importPaths.append(parent) }
        }
        let process = Process()
        process.executableURL = protoc
        process.currentDirectoryURL = folder
        process.arguments =
            importPaths.map { "-I\($0)" } + ["--include_imports", "--descriptor_set_out=\(output.path)"]
            + files.protoFiles.map { resolve($0, in: folder).path }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw GRPCSchemaError.protocFailed("protoc did not start: \((error as NSError).localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else {
            let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw GRPCSchemaError.protocFailed(text.isEmpty ? "it exited with \(process.terminationStatus)" : text)
        }
        return data
    }

    /// A path of the collection, relative to its folder unless absolute (`~` expanded).
    static func resolve(_ path: String, in folder: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : folder.appendingPathComponent(expanded)
    }

    /// An executable on PATH.
    package static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
