import Foundation
import SwiftProtobuf

/// The files a reflection service answers from, indexed: by name, by the symbols they define,
/// and the services they declare.
struct GRPCReflectionIndex: Sendable {
    private(set) var files: [String: Google_Protobuf_FileDescriptorProto] = [:]
    private(set) var fileOfSymbol: [String: String] = [:]
    private(set) var services: [String] = []
    /// Whether a file's imports go in its answer (else a client asks for them by name).
    var sendsImports = true

    init(files: [Google_Protobuf_FileDescriptorProto]) {
        for file in files {
            self.files[file.name] = file
            let prefix = file.package.isEmpty ? "" : file.package + "."
            for message in file.messageType { index(message, prefix: prefix, file: file.name) }
            for enumeration in file.enumType { fileOfSymbol[prefix + enumeration.name] = file.name }
            for field in file.extension { fileOfSymbol[prefix + field.name] = file.name }
            for service in file.service {
                let name = prefix + service.name
                services.append(name)
                fileOfSymbol[name] = file.name
                for method in service.method { fileOfSymbol[name + "." + method.name] = file.name }
            }
        }
    }

    private mutating func index(_ message: Google_Protobuf_DescriptorProto, prefix: String, file: String) {
        let name = prefix + message.name
        fileOfSymbol[name] = file
        for nested in message.nestedType { index(nested, prefix: name + ".", file: file) }
        for enumeration in message.enumType { fileOfSymbol[name + "." + enumeration.name] = file }
        for field in message.extension { fileOfSymbol[name + "." + field.name] = file }
    }

    /// The answer to one question.
    func answer(_ request: Grpc_Reflection_V1_ServerReflectionRequest) -> Grpc_Reflection_V1_ServerReflectionResponse {
        var response = Grpc_Reflection_V1_ServerReflectionResponse()
        response.validHost = request.host
        response.originalRequest = request
        switch request.messageRequest {
        case .listServices?:
            var list = Grpc_Reflection_V1_ListServiceResponse()
            list.service = services.map { name in
                var service = Grpc_Reflection_V1_ServiceResponse()
                service.name = name
                return service
            }
            response.listServicesResponse = list
        case .fileByFilename(let name)?:
            response.messageResponse = fileAnswer(name, missing: "no file \(name)")
        case .fileContainingSymbol(let symbol)?:
            let symbol = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
            response.messageResponse = fileAnswer(fileOfSymbol[symbol], missing: "no symbol \(symbol)")
        case .fileContainingExtension?, .allExtensionNumbersOfType?:
            response.messageResponse = error(12, "extensions are not indexed by this server")
        case nil:
            response.messageResponse = error(3, "the request asks for nothing")
        }
        return response
    }

    /// A file and every file it imports, transitively; or NOT_FOUND.
    private func fileAnswer(_ name: String?, missing: String)
        -> Grpc_Reflection_V1_ServerReflectionResponse
        .OneOf_MessageResponse
    {
        guard let name, files[name] != nil else { return error(5, missing) }
        var answer = Grpc_Reflection_V1_FileDescriptorResponse()
        var seen: Set<String> = []
        var queue = [name]
        while let next = queue.first {
            queue.removeFirst()
            guard seen.insert(next).inserted, let file = files[next] else { continue }
            if let data = try? file.serializedBytes() as Data { answer.fileDescriptorProto.append(data) }
            if sendsImports { queue += file.dependency }
        }
        return .fileDescriptorResponse(answer)
    }

    private func error(_ code: Int32, _ message: String)
        -> Grpc_Reflection_V1_ServerReflectionResponse
        .OneOf_MessageResponse
    {
        var error = Grpc_Reflection_V1_ErrorResponse()
        error.errorCode = code
        error.errorMessage = message
        return .errorResponse(error)
    }
}
