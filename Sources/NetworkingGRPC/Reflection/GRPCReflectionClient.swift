import NetworkingCore
import SwiftProtobuf
import Synchronization

/// Asks a server what it serves, through server reflection: the services, and the files that
/// define them with every file they import.
///
/// It speaks `grpc.reflection.v1` first and `grpc.reflection.v1alpha` when the server answers
/// `UNIMPLEMENTED` for v1; the version that answered is kept for the next questions.
///
/// ```swift
/// let reflection = GRPCReflectionClient(dispatcher: dispatcher)
/// for service in try await reflection.listServices() { print(service) }
/// let files = try await reflection.files(containing: "greet.Greeter")
/// ```
public struct GRPCReflectionClient: Sendable {
    /// The dispatcher the questions go through (its server provider, TLS and adapters).
    public let dispatcher: GRPCDispatcher
    /// The metadata sent with each reflection call.
    public let metadata: GRPCMetadata
    /// The options of each reflection call.
    public let options: GRPCCallOptions
    private let answered = Answered()

    private final class Answered: Sendable {
        let version = Mutex<GRPCReflectionVersion?>(nil)
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - dispatcher: sends the reflection calls.
    ///   - metadata: sent with each (credentials the dispatcher's adapters do not add).
    ///   - options: of each call (a deadline).
    public init(dispatcher: GRPCDispatcher, metadata: GRPCMetadata = [], options: GRPCCallOptions = GRPCCallOptions()) {
        self.dispatcher = dispatcher
        self.metadata = metadata
        self.options = options
    }

    /// The version the server answered last, or `nil` before any answer.
    public var version: GRPCReflectionVersion? { answered.version.withLock { $0 } }

    /// The full names of the services the server lists (`greet.Greeter`).
    ///
    /// - Throws: `GRPCError` when the server does not answer reflection (`UNIMPLEMENTED` for
    ///   both versions) or answers an error; `TransportError` when it is not reached.
    public func listServices() async throws -> [String] {
        try await session { session in
            var request = Grpc_Reflection_V1_ServerReflectionRequest()
            request.listServices = ""
            let response = try await session.ask(request)
            return response.listServicesResponse.service.map(\.name)
        }
    }

    /// The file that defines a symbol and every file it imports, transitively, imports first.
    ///
    /// Files the server leaves out of its answer are asked for by name.
    ///
    /// - Parameter symbol: a full name: `pkg.Service`, `pkg.Service.Method`, `pkg.Message`.
    /// - Returns: the files, each after the files it imports.
    /// - Throws: `GRPCError` (`NOT_FOUND`) for a symbol the server does not know, and as
    ///   `listServices()` does.
    public func files(containing symbol: String) async throws -> [Google_Protobuf_FileDescriptorProto] {
        try await session { session in
            var files = GRPCReflectionFiles()
            try await session.collect(symbol: symbol, into: &files)
            return files.ordered()
        }
    }

    /// The files of every service the server lists, with their imports, imports first.
    ///
    /// A reflection service the server lists without a file for it is left out.
    ///
    /// - Returns: the files, each after the files it imports.
    /// - Throws: as `files(containing:)` does.
    public func allFiles() async throws -> [Google_Protobuf_FileDescriptorProto] {
        try await session { session in
            var request = Grpc_Reflection_V1_ServerReflectionRequest()
            request.listServices = ""
            let services = try await session.ask(request).listServicesResponse.service.map(\.name)
            var files = GRPCReflectionFiles()
            for service in services {
                do {
                    try await session.collect(symbol: service, into: &files)
                } catch let error as GRPCError where service.hasPrefix("grpc.reflection.") && error.status.code == 5 {
                    continue
                }
            }
            return files.ordered()
        }
    }

    // MARK: - Sessions

    /// Runs questions on one reflection stream: in the version that answered last, else v1; in
    /// the other when the server does not implement that one.
    private func session<T: Sendable>(_ body: (inout GRPCReflectionSession) async throws -> T) async throws -> T {
        // The version that answered last first: the server provider may have switched servers.
        let versions =
            version.map { last in [last] + GRPCReflectionVersion.allCases.filter { $0 != last } } ?? [.v1, .v1alpha]
        var lastError: (any Error)?
        for version in versions {
            var session = GRPCReflectionSession(
                call: dispatcher.open(version.path, metadata: metadata, options: options), version: version)
            do {
                let result = try await body(&session)
                session.close()
                answered.version.withLock { $0 = version }
                return result
            } catch GRPCReflectionSession.Failure.unimplemented(let error) {
                lastError = error
                continue
            } catch {
                session.close()
                throw error
            }
        }
        throw lastError ?? TransportError.cancelled
    }
}
