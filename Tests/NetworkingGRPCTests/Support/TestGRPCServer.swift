import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import NetworkingCore
import SwiftProtobuf
import Synchronization

@testable import NetworkingGRPC

typealias StringValue = Google_Protobuf_StringValue

/// A base URL that tests change between calls.
final class TestServerProvider: ServerProvider, Sendable {
    private let url: Mutex<URL?>
    init(_ url: URL?) { self.url = Mutex(url) }
    var baseURL: URL? {
        get { url.withLock { $0 } }
        set { url.withLock { $0 = newValue } }
    }
}

/// A door a server handler waits at until the test opens it.
final class TestGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

func stringValue(_ text: String) -> StringValue {
    var value = StringValue()
    value.value = text
    return value
}

/// The test service, `test.Test`, with messages from SwiftProtobuf's well-known types.
///
/// - `Echo` (unary): answers `<name>: <value>`; request metadata `x-echo` and `x-echo-bin` come
///   back as headers, `authorization` as the header `x-authorization`, and `x-trailer` as a trailer.
/// - `Fail` (unary): `NOT_FOUND`, with a message, `grpc-status-details-bin` and a trailer.
/// - `Count` (server stream): `1`, then waits at the gate, then `2`.
/// - `Join` (client stream): the values joined with commas.
/// - `Chat` (bidirectional): `pong: <value>` for each value.
/// - `Sleep` (unary): answers only when the call is cancelled (by the client, or its deadline).
/// - `Big` (unary): a value as many bytes long as the request says.
struct TestService: RegistrableRPCService {
    let name: String
    let gate: TestGate

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let name = name
        let gate = gate
        register(&router, "Echo") { request in
            let first = try await Self.first(request)
            var headers: Metadata = [:]
            for value in request.metadata[stringValues: "x-echo"] { headers.addString(value, forKey: "x-echo") }
            for value in request.metadata[binaryValues: "x-echo-bin"] { headers.addBinary(value, forKey: "x-echo-bin") }
            for value in request.metadata[stringValues: "authorization"] {
                headers.addString(value, forKey: "x-authorization")
            }
            var trailers: Metadata = [:]
            for value in request.metadata[stringValues: "x-trailer"] { trailers.addString(value, forKey: "x-trailer") }
            let answer = stringValue("\(name): \(first.value)")
            let sentTrailers = trailers
            return StreamingServerResponse(metadata: headers) { writer in
                try await writer.write(answer)
                return sentTrailers
            }
        }
        register(&router, "Fail") { _ in
            var trailers: Metadata = [:]
            trailers.addBinary([1, 2, 3, 250], forKey: "grpc-status-details-bin")
            trailers.addString("because", forKey: "x-why")
            return StreamingServerResponse(
                error: RPCError(code: .notFound, message: "no such thing", metadata: trailers))
        }
        register(&router, "Count") { request in
            _ = try await Self.first(request)
            return StreamingServerResponse { writer in
                try await writer.write(stringValue("1"))
                await gate.wait()
                try await writer.write(stringValue("2"))
                return [:]
            }
        }
        register(&router, "Join") { request in
            var values: [String] = []
            for try await message in request.messages { values.append(message.value) }
            let answer = stringValue(values.joined(separator: ","))
            return StreamingServerResponse { writer in
                try await writer.write(answer)
                return [:]
            }
        }
        register(&router, "Chat") { request in
            StreamingServerResponse { writer in
                for try await message in request.messages {
                    try await writer.write(stringValue("pong: \(message.value)"))
                }
                return [:]
            }
        }
        register(&router, "Sleep") { request, context in
            _ = try await Self.first(request)
            try await context.cancellation.cancelled
            return StreamingServerResponse(error: RPCError(code: .cancelled, message: "the server saw the cancel"))
        }
        register(&router, "Big") { request in
            let size = Int(try await Self.first(request).value) ?? 0
            let answer = stringValue(String(repeating: "x", count: size))
            return StreamingServerResponse { writer in
                try await writer.write(answer)
                return [:]
            }
        }
    }

    private func register<Transport: ServerTransport>(
        _ router: inout RPCRouter<Transport>, _ method: String,
        _ handler:
            @escaping @Sendable (StreamingServerRequest<StringValue>) async throws -> StreamingServerResponse<
                StringValue
            >
    ) {
        register(&router, method) { request, _ in try await handler(request) }
    }

    private func register<Transport: ServerTransport>(
        _ router: inout RPCRouter<Transport>, _ method: String,
        _ handler:
            @escaping @Sendable (StreamingServerRequest<StringValue>, ServerContext) async throws
            -> StreamingServerResponse<StringValue>
    ) {
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: "test.Test", method: method),
            deserializer: ProtobufDeserializer<StringValue>(), serializer: ProtobufSerializer<StringValue>(),
            handler: handler)
    }

    private static func first(_ request: StreamingServerRequest<StringValue>) async throws -> StringValue {
        for try await message in request.messages { return message }
        throw RPCError(code: .invalidArgument, message: "no request message")
    }
}

/// The files `test.Test` is described by for reflection: `test/test.proto`, which imports
/// `test/types.proto`, which imports `google/protobuf/wrappers.proto` (a part of it).
enum TestFiles {
    static var all: [Google_Protobuf_FileDescriptorProto] { [test, types, wrappers] }

    static var wrappers: Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "google/protobuf/wrappers.proto"
        file.package = "google.protobuf"
        file.syntax = "proto3"
        var message = Google_Protobuf_DescriptorProto()
        message.name = "StringValue"
        var field = Google_Protobuf_FieldDescriptorProto()
        field.name = "value"
        field.number = 1
        field.type = .string
        field.label = .optional
        message.field = [field]
        file.messageType = [message]
        return file
    }

    static var types: Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "test/types.proto"
        file.package = "test"
        file.syntax = "proto3"
        file.dependency = ["google/protobuf/wrappers.proto"]
        var message = Google_Protobuf_DescriptorProto()
        message.name = "Note"
        var field = Google_Protobuf_FieldDescriptorProto()
        field.name = "text"
        field.number = 1
        field.type = .message
        field.typeName = ".google.protobuf.StringValue"
        field.label = .optional
        message.field = [field]
        file.messageType = [message]
        return file
    }

    static var test: Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "test/test.proto"
        file.package = "test"
        file.syntax = "proto3"
        file.dependency = ["test/types.proto", "google/protobuf/wrappers.proto"]
        var service = Google_Protobuf_ServiceDescriptorProto()
        service.name = "Test"
        service.method = ["Echo", "Fail", "Count", "Join", "Chat", "Sleep", "Big"].map { name in
            var method = Google_Protobuf_MethodDescriptorProto()
            method.name = name
            method.inputType = ".google.protobuf.StringValue"
            method.outputType = ".google.protobuf.StringValue"
            method.clientStreaming = name == "Join" || name == "Chat"
            method.serverStreaming = name == "Count" || name == "Chat"
            return method
        }
        file.service = [service]
        return file
    }
}

/// Runs a grpc-swift server on 127.0.0.1 (a free port) for the body, then stops it.
///
/// - Parameters:
///   - name: the server's name in `Echo`'s answers.
///   - security: plaintext or TLS.
///   - reflection: the reflection service, or `nil` for none.
///   - body: gets the port and the gate `Count` waits at.
func withTestServer<T: Sendable>(
    name: String = "A", security: HTTP2ServerTransport.Posix.TransportSecurity = .plaintext,
    reflection: GRPCReflectionService? = GRPCReflectionService(files: TestFiles.all),
    _ body: (_ port: Int, _ gate: TestGate) async throws -> T
) async throws -> T {
    let gate = TestGate()
    let transport = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: security)
    var services: [any RegistrableRPCService] = [TestService(name: name, gate: gate)]
    if let reflection { services.append(reflection) }
    return try await withGRPCServer(transport: transport, services: services) { _ in
        let port = try await transport.listeningAddress.ipv4?.port ?? 0
        defer { gate.open() }
        return try await body(port, gate)
    }
}

/// A dispatcher to `grpc://127.0.0.1:port`, with its provider (held here: the dispatcher holds
/// it weakly).
struct TestClient {
    let provider: TestServerProvider
    let dispatcher: GRPCDispatcher

    init(
        port: Int, scheme: String = "grpc", tls: TLSSettings = TLSSettings(), adapters: [any GRPCMetadataAdapter] = [],
        maximumMessageSize: Int = 4 * 1024 * 1024
    ) {
        provider = TestServerProvider(URL(string: "\(scheme)://127.0.0.1:\(port)"))
        dispatcher = GRPCDispatcher(
            serverProvider: provider, tls: tls, metadataAdapters: adapters, maximumMessageSize: maximumMessageSize,
            callbackQueue: DispatchQueue(label: "NetworkingGRPCTests.callbacks"))
    }
}

/// Every event of a call, to its end.
func allEvents(of call: GRPCCall) async throws -> [GRPCEvent] {
    var events: [GRPCEvent] = []
    for try await event in call.events { events.append(event) }
    return events
}

extension [UInt8] {
    /// The value of a serialized `StringValue`.
    var stringValue: String? { (try? StringValue(serializedBytes: self))?.value }
}

func bytes(_ text: String) throws -> [UInt8] { try stringValue(text).serializedBytes() }
