import Foundation
import GRPCCore
import GRPCProtobuf
import SwiftProtobuf

/// Server reflection for a grpc-swift server, answering from the files it is given: the
/// services they declare, the file of a symbol and the files it imports.
///
/// ```swift
/// let reflection = try GRPCReflectionService(descriptorSet: protocOutput)
/// let server = GRPCServer(transport: transport, services: [greeter, reflection])
/// ```
///
/// It answers both protocol versions unless told otherwise (`grpc.reflection.v1` and
/// `grpc.reflection.v1alpha`), so that older clients find it too. Extension questions are
/// answered with an error (`UNIMPLEMENTED`), as the protocol allows.
public struct GRPCReflectionService: RegistrableRPCService {
    /// The versions answered.
    public let versions: Set<GRPCReflectionVersion>
    private let index: GRPCReflectionIndex

    /// Creates the service from files.
    ///
    /// - Parameters:
    ///   - files: the files, each with the files it imports (or those are not given).
    ///   - versions: the protocol versions to answer (both by default).
    public init(
        files: [Google_Protobuf_FileDescriptorProto], versions: Set<GRPCReflectionVersion> = [.v1, .v1alpha]
    ) {
        self.index = GRPCReflectionIndex(files: files)
        self.versions = versions
    }

    /// Creates the service; without `sendsImports`, an answer holds the file asked for alone, and
    /// a client asks for its imports by name (as a server that sent them already may).
    init(files: [Google_Protobuf_FileDescriptorProto], versions: Set<GRPCReflectionVersion>, sendsImports: Bool) {
        var index = GRPCReflectionIndex(files: files)
        index.sendsImports = sendsImports
        self.index = index
        self.versions = versions
    }

    /// Creates the service from a serialized `FileDescriptorSet`: what `protoc
    /// --include_imports --descriptor_set_out` writes.
    ///
    /// - Parameters:
    ///   - descriptorSet: the set's bytes.
    ///   - versions: the protocol versions to answer (both by default).
    /// - Throws: SwiftProtobuf's error when the bytes are not a descriptor set.
    public init(descriptorSet: Data, versions: Set<GRPCReflectionVersion> = [.v1, .v1alpha]) throws {
        let set = try Google_Protobuf_FileDescriptorSet(serializedBytes: descriptorSet)
        self.init(files: set.file, versions: versions)
    }

    /// The services the files declare, as `listServices` answers them.
    public var services: [String] { index.services }

    /// Registers `ServerReflectionInfo` of each version.
    public func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let index = index
        for version in versions.sorted(by: { $0.rawValue < $1.rawValue }) {
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: version.serviceName, method: "ServerReflectionInfo"),
                deserializer: ProtobufDeserializer<Grpc_Reflection_V1_ServerReflectionRequest>(),
                serializer: ProtobufSerializer<Grpc_Reflection_V1_ServerReflectionResponse>()
            ) { request, _ in
                StreamingServerResponse { writer in
                    for try await question in request.messages { try await writer.write(index.answer(question)) }
                    return [:]
                }
            }
        }
    }
}
