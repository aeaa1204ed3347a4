import Foundation
import SwiftProtobuf

/// Protocol Buffers types from descriptors, with no generated code: services and their methods,
/// and messages in the binary format and in the proto3 JSON mapping both ways.
///
/// The well-known types (`google/protobuf/*.proto`) and `google/rpc`'s status, error details
/// and codes are always there, added when the files given lack them.
public struct ProtoSchema: Sendable {
    /// The files, the user's first, then the embedded ones they did not bring.
    let files: [Google_Protobuf_FileDescriptorProto]
    let messages: [MessageInfo]
    let messageIndex: [String: Int]
    let enums: [EnumInfo]
    let enumIndex: [String: Int]
    /// Every service, the embedded files' ones too, by full name.
    let serviceDescriptors: [String: Google_Protobuf_ServiceDescriptorProto]
    /// The services of the user's files, sorted by full name.
    public let services: [ProtoService]

    /// The embedded files: the well-known types and google/rpc's status, error details and code.
    package static let embeddedFiles: [Google_Protobuf_FileDescriptorProto] = {
        // The literal is generated from protoc's output; failing to read it is a build defect.
        guard let data = Data(base64Encoded: EmbeddedDescriptors.base64, options: .ignoreUnknownCharacters),
            let set = try? Google_Protobuf_FileDescriptorSet(serializedBytes: data)
        else { preconditionFailure("EmbeddedDescriptors.base64 is not a FileDescriptorSet") }
        return set.file
    }()

    /// A schema of `files`, as server reflection or a descriptor set gives them.
    ///
    /// - Parameter files: the files, in any order; a file given twice with the same content
    ///   counts once.
    /// - Throws: `ProtoSchemaError` on a type name no file defines, a file or symbol defined
    ///   twice, or an import that is not among the files (naming them).
    public init(files: [Google_Protobuf_FileDescriptorProto]) throws {
        var byName: [String: Google_Protobuf_FileDescriptorProto] = [:]
        var ordered: [Google_Protobuf_FileDescriptorProto] = []
        for file in files {
            if let earlier = byName[file.name] {
                guard earlier == file else { throw ProtoSchemaError.duplicate(name: file.name) }
                continue
            }
            byName[file.name] = file
            ordered.append(file)
        }
        let userFiles = Set(ordered.map(\.name))
        for file in Self.embeddedFiles where byName[file.name] == nil {
            ordered.append(file)
        }
        let resolver = try SchemaResolver(files: ordered)
        self.files = ordered
        messages = resolver.messages
        messageIndex = resolver.messageIndex
        enums = resolver.enums
        enumIndex = resolver.enumIndex
        var descriptors: [String: Google_Protobuf_ServiceDescriptorProto] = [:]
        for entry in resolver.services {
            descriptors[entry.service.fullName] = entry.descriptor
        }
        serviceDescriptors = descriptors
        services = resolver.services.filter { userFiles.contains($0.file) }.map(\.service)
            .sorted { $0.fullName < $1.fullName }
    }

    /// A schema of a serialized `FileDescriptorSet` (`protoc --include_imports --descriptor_set_out`).
    ///
    /// - Throws: `ProtoSchemaError.malformedDescriptorSet` when the bytes are not one, or any
    ///   error of `init(files:)`.
    public init(descriptorSet: Data) throws {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: descriptorSet)
        } catch {
            throw ProtoSchemaError.malformedDescriptorSet(String(describing: error))
        }
        try self.init(files: set.file)
    }

    /// The user's service with this full name (`grpc.testing.TestService`), or nil.
    public func service(named fullName: String) -> ProtoService? {
        let name = fullName.hasPrefix(".") ? String(fullName.dropFirst()) : fullName
        return services.first { $0.fullName == name }
    }

    /// The method at `path`: `pkg.Service/Method`, `pkg.Service.Method` or `/pkg.Service/Method`.
    public func method(_ path: String) -> ProtoMethod? {
        var text = Substring(path)
        if text.hasPrefix("/") { text = text.dropFirst() }
        guard let separator = text.lastIndex(where: { $0 == "/" || $0 == "." }) else { return nil }
        let serviceName = String(text[..<separator])
        let methodName = String(text[text.index(after: separator)...])
        return service(named: serviceName)?.methods.first { $0.name == methodName }
    }

    /// Whether a message type of this full name is known (a leading dot is allowed).
    public func hasMessage(_ fullName: String) -> Bool {
        messageIndex[fullName.hasPrefix(".") ? String(fullName.dropFirst()) : fullName] != nil
    }

    /// The index of a message type, without a leading dot.
    func messageIndex(of fullName: String) -> Int? {
        messageIndex[fullName.hasPrefix(".") ? String(fullName.dropFirst()) : fullName]
    }
}
