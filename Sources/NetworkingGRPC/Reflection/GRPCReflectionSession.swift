import Foundation
import SwiftProtobuf

/// One reflection stream: a question, its answer, in turn.
struct GRPCReflectionSession {
    enum Failure: Error {
        /// The server does not implement this version (it ended the call at once).
        case unimplemented(GRPCError)
    }

    let call: GRPCCall
    let version: GRPCReflectionVersion
    private var events: GRPCEvents.AsyncIterator
    private var headers: GRPCMetadata = []
    private var answered = false

    init(call: GRPCCall, version: GRPCReflectionVersion) {
        self.call = call
        self.version = version
        events = call.events.makeAsyncIterator()
    }

    /// Sends a question and reads its answer.
    ///
    /// - Throws: `GRPCError` for an error answer or a call that ended;
    ///   `Failure.unimplemented` when the first question finds no such service.
    mutating func ask(_ request: Grpc_Reflection_V1_ServerReflectionRequest) async throws
        -> Grpc_Reflection_V1_ServerReflectionResponse
    {
        try await call.send(try request.serializedBytes())
        while let event = try await events.next() {
            switch event {
            case .headers(let received):
                headers = received
            case .message(let bytes):
                answered = true
                let response = try Grpc_Reflection_V1_ServerReflectionResponse(serializedBytes: bytes)
                if case .errorResponse(let error)? = response.messageResponse {
                    throw GRPCError(
                        path: call.path, status: GRPCStatus(code: Int(error.errorCode), message: error.errorMessage))
                }
                return response
            case .end(let status, let trailers):
                let error = GRPCError(path: call.path, status: status, headers: headers, trailers: trailers)
                if !answered && status.code == 12 { throw Failure.unimplemented(error) }
                throw error.status.isOK
                    ? GRPCError(
                        path: call.path, status: GRPCStatus(code: 2, message: "the server ended reflection unanswered"))
                    : error
            }
        }
        throw GRPCError(path: call.path, status: GRPCStatus(code: 1, message: "the reflection call was cancelled"))
    }

    /// Asks for the file of a symbol, then for each import not yet answered, by name.
    mutating func collect(symbol: String, into files: inout GRPCReflectionFiles) async throws {
        var request = Grpc_Reflection_V1_ServerReflectionRequest()
        request.fileContainingSymbol = symbol
        try files.add(try await ask(request).fileDescriptorResponse.fileDescriptorProto)
        while let missing = files.missingDependency() {
            var byName = Grpc_Reflection_V1_ServerReflectionRequest()
            byName.fileByFilename = missing
            let answer = try await ask(byName).fileDescriptorResponse.fileDescriptorProto
            try files.add(answer)
            // A server that answers without the file asked for would be asked again forever.
            if !files.contains(missing) {
                throw GRPCError(
                    path: call.path,
                    status: GRPCStatus(code: 5, message: "the server did not give \(missing), which \(symbol) imports"))
            }
        }
    }

    /// Ends the stream.
    func close() {
        call.finish()
        call.cancel()
    }
}

/// The files reflection gave, by name.
struct GRPCReflectionFiles {
    private var byName: [String: Google_Protobuf_FileDescriptorProto] = [:]
    private var order: [String] = []

    mutating func add(_ serialized: [Data]) throws {
        for data in serialized {
            let file = try Google_Protobuf_FileDescriptorProto(serializedBytes: data)
            guard byName[file.name] == nil else { continue }
            byName[file.name] = file
            order.append(file.name)
        }
    }

    func contains(_ name: String) -> Bool { byName[name] != nil }

    /// An import no file answered yet.
    func missingDependency() -> String? {
        for name in order {
            if let missing = byName[name]?.dependency.first(where: { byName[$0] == nil }) { return missing }
        }
        return nil
    }

    /// Every file after the files it imports (in the order answered, otherwise).
    func ordered() -> [Google_Protobuf_FileDescriptorProto] {
        var result: [Google_Protobuf_FileDescriptorProto] = []
        var placed: Set<String> = []
        func place(_ name: String, visiting: Set<String>) {
            guard !placed.contains(name), !visiting.contains(name), let file = byName[name] else { return }
            for dependency in file.dependency { place(dependency, visiting: visiting.union([name])) }
            placed.insert(name)
            result.append(file)
        }
        for name in order { place(name, visiting: []) }
        return result
    }
}
