// The gRPC benchmark: unary calls of an in-process grpc-swift-2 echo server through
// GRPCDispatcher (`open`: bytes in, events out, as `explorer load` calls) against a raw
// grpc-swift-2 `GRPCClient` loop, one at a time and N at once, in alternating rounds (the median
// of their per-round ratio printed); then ProtoCodec's encode and decode of a real message
// (descriptor.proto's own descriptor, 10 KB) against SwiftProtobuf's generated code for it.
// `--serve` only serves the echo service (with reflection) and prints `PORT N`, for
// scripts/bench-grpc to load it with `explorer load`, Python's grpcio and `--raw-client PORT` (the
// raw grpc-swift-2 client loop alone, from a process of its own). Prints figures; it asserts
// nothing.
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import SwiftProtobuf
import Synchronization

// MARK: - Arguments

let arguments = CommandLine.arguments
func argument(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1])
    else { return value }
    return number
}
let callsPerRound = argument("--calls", default: 2000)
let rounds = argument("--rounds", default: 10)
let concurrency = argument("--concurrency", default: 32)
let codecIterations = argument("--codec-iterations", default: 2000)

// MARK: - The echo service

/// The message both ways: a Struct, whose JSON is an object (`{"text": "hello"}`), so that a
/// collection's `message:` can say it.
typealias Text = Google_Protobuf_Struct

/// `bench.Bench/Echo`: answers the request.
struct EchoService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: "bench.Bench", method: "Echo"),
            deserializer: ProtobufDeserializer<Text>(), serializer: ProtobufSerializer<Text>()
        ) { request, _ in
            var answer = Text()
            for try await message in request.messages { answer = message }
            let value = answer
            return StreamingServerResponse { writer in
                try await writer.write(value)
                return [:]
            }
        }
    }

    /// bench.proto: the service, over the well-known Struct, for reflection.
    static var file: Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "bench.proto"
        file.package = "bench"
        file.syntax = "proto3"
        file.dependency = ["google/protobuf/struct.proto"]
        var method = Google_Protobuf_MethodDescriptorProto()
        method.name = "Echo"
        method.inputType = ".google.protobuf.Struct"
        method.outputType = ".google.protobuf.Struct"
        var service = Google_Protobuf_ServiceDescriptorProto()
        service.name = "Bench"
        service.method = [method]
        file.service = [service]
        return file
    }
}

final class Address: ServerProvider, Sendable {
    let baseURL: URL?
    init(_ url: URL) { baseURL = url }
}

// MARK: - Measuring

/// The calls taken so far, shared by the workers.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// Runs `total` calls, `workers` at a time (in tasks that prefer `executors` in turn, when
/// given), and returns the seconds they took.
func timed(
    total: Int, workers: Int, on executors: [any TaskExecutor] = [],
    _ call: @escaping @Sendable () async throws -> Void
) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let next = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<workers {
            group.addTask(executorPreference: executors.isEmpty ? nil : executors[worker % executors.count]) {
                while next.value.add(1, ordering: .relaxed).oldValue < total { try await call() }
            }
        }
        try await group.waitForAll()
    }
    return (clock.now - start) / .seconds(1)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// Dispatcher against raw client, `workers` at a time: alternating rounds, the median ratio.
/// The dispatcher's workers prefer its executors in turn when there are no more workers than
/// executors, as `explorer load`'s do; the raw client's run
/// where grpc-swift-2's users' tasks do, on Swift's global executor. A third loop, the
/// dispatcher's workers on the global executor, is measured alongside.
func compare(workers: Int, dispatcher: GRPCDispatcher, client: GRPCClient<HTTP2ClientTransport.Posix>) async throws {
    let typed = Text.with { $0.fields["text"] = Google_Protobuf_Value(stringValue: "hello") }
    let request = try typed.serializedBytes() as [UInt8]
    let descriptor = MethodDescriptor(fullyQualifiedService: "bench.Bench", method: "Echo")
    let viaDispatcher: @Sendable () async throws -> Void = {
        let call = dispatcher.open("/bench.Bench/Echo")
        try await call.send(request)
        call.finish()
        for try await event in call.events {
            if case .end(let status, _) = event, !status.isOK {
                throw GRPCError(path: "/bench.Bench/Echo", status: status)
            }
        }
    }
    let raw: @Sendable () async throws -> Void = {
        _ = try await client.unary(
            request: ClientRequest(message: typed), descriptor: descriptor, serializer: ProtobufSerializer<Text>(),
            deserializer: ProtobufDeserializer<Text>(), options: .defaults
        ) { try $0.message }
    }
    // As `explorer load` does: on the loops when there are no more workers than loops.
    let loops: [any TaskExecutor] = workers <= dispatcher.executors.count ? dispatcher.executors : []
    // Warm them up: connections, allocations.
    _ = try await timed(total: 200, workers: workers, on: loops, viaDispatcher)
    _ = try await timed(total: 200, workers: workers, raw)
    _ = try await timed(total: 200, workers: workers, viaDispatcher)
    var ratios: [Double] = []
    var globalRatios: [Double] = []
    var dispatcherRates: [Double] = []
    var globalRates: [Double] = []
    var rawRates: [Double] = []
    for round in 0..<rounds {
        // Alternate which goes first, so that neither always meets a warmer machine.
        let first = round.isMultiple(of: 2)
        let a = try await timed(
            total: callsPerRound, workers: workers, on: first ? loops : [], first ? viaDispatcher : raw)
        let b = try await timed(
            total: callsPerRound, workers: workers, on: first ? [] : loops, first ? raw : viaDispatcher)
        let (dispatcherSeconds, rawSeconds) = first ? (a, b) : (b, a)
        let globalSeconds = try await timed(total: callsPerRound, workers: workers, viaDispatcher)
        dispatcherRates.append(Double(callsPerRound) / dispatcherSeconds)
        globalRates.append(Double(callsPerRound) / globalSeconds)
        rawRates.append(Double(callsPerRound) / rawSeconds)
        ratios.append(rawSeconds / dispatcherSeconds)
        globalRatios.append(rawSeconds / globalSeconds)
    }
    print(
        "  \(workers) at once: dispatcher \(format(median(dispatcherRates), 0)) calls/s, raw GRPCClient "
            + "\(format(median(rawRates), 0)) calls/s; dispatcher/raw throughput \(format(median(ratios))) "
            + "(median of \(rounds) rounds, from \(format(ratios.min() ?? 0)) to \(format(ratios.max() ?? 0))); "
            + "the dispatcher's workers on the global executor \(format(median(globalRates), 0)) calls/s, "
            + "\(format(median(globalRatios)))× raw")
}

/// ProtoCodec against generated code on one real message: JSON text to the wire and back.
func compareCodec() throws {
    // descriptor.proto's own descriptor: nested messages, enums, options, repeated fields.
    let schema = try ProtoSchema(files: [])
    let message = Google_Protobuf_FileDescriptorProto.self
    guard schema.hasMessage("google.protobuf.FileDescriptorProto") else {
        print("  (the embedded schema has no google.protobuf.FileDescriptorProto: codec not measured)")
        return
    }
    let sample = ProtoSchema.embeddedFiles.first { $0.name == "google/protobuf/descriptor.proto" }!
    let wire: [UInt8] = try sample.serializedBytes()
    let json = try JSONValue(parsing: try sample.jsonString())
    let clock = ContinuousClock()
    func time(_ body: () throws -> Void) rethrows -> Double {
        let start = clock.now
        for _ in 0..<codecIterations { try body() }
        return (clock.now - start) / .seconds(1) / Double(codecIterations) * 1_000_000
    }
    for _ in 0..<2 {
        let ours = try time {
            let bytes = try schema.encode(json, as: "google.protobuf.FileDescriptorProto")
            _ = try schema.decode(bytes, as: "google.protobuf.FileDescriptorProto").serialized()
        }
        let generated = try time {
            let bytes: [UInt8] = try message.init(jsonString: json.serialized()).serializedBytes()
            _ = try message.init(serializedBytes: bytes).jsonString()
        }
        let decodeOurs = try time {
            _ = try schema.decode(wire, as: "google.protobuf.FileDescriptorProto").serialized()
        }
        let decodeGenerated = try time { _ = try message.init(serializedBytes: wire).jsonString() }
        print(
            "  \(wire.count)-byte message, JSON → wire → JSON: ProtoCodec \(format(ours, 1)) µs, generated "
                + "\(format(generated, 1)) µs (\(format(ours / generated))×); wire → JSON: \(format(decodeOurs, 1)) µs "
                + "against \(format(decodeGenerated, 1)) µs (\(format(decodeOurs / decodeGenerated))×)")
    }
}

// MARK: - Main

let transport = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext)
// Reflection gives bench.proto and the file it imports, as protoc's output would.
let structFile = ProtoSchema.embeddedFiles.filter { $0.name == "google/protobuf/struct.proto" }
let services: [any RegistrableRPCService] = [
    EchoService(), GRPCReflectionService(files: [EchoService.file] + structFile),
]
// `--raw-client PORT`: only the raw grpc-swift-2 client loop, against another process's echo
// server (scripts/bench-grpc's `--serve`), `--concurrency` at a time, `--calls` calls after a
// warm-up; prints `RATE calls/s`.
if let index = arguments.firstIndex(of: "--raw-client"), index + 1 < arguments.count,
    let port = Int(arguments[index + 1])
{
    let typed = Text.with { $0.fields["text"] = Google_Protobuf_Value(stringValue: "hello") }
    let descriptor = MethodDescriptor(fullyQualifiedService: "bench.Bench", method: "Echo")
    try await withGRPCClient(
        transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
    ) { client in
        let raw: @Sendable () async throws -> Void = {
            _ = try await client.unary(
                request: ClientRequest(message: typed), descriptor: descriptor, serializer: ProtobufSerializer<Text>(),
                deserializer: ProtobufDeserializer<Text>(), options: .defaults
            ) { try $0.message }
        }
        _ = try await timed(total: 200, workers: concurrency, raw)
        let seconds = try await timed(total: callsPerRound, workers: concurrency, raw)
        print("RATE \(format(Double(callsPerRound) / seconds, 1))")
    }
    exit(0)
}

try await withGRPCServer(transport: transport, services: services) { _ in
    let port = try await transport.listeningAddress.ipv4?.port ?? 0
    if arguments.contains("--serve") {
        // Written at once, unbuffered: the script waits for this line.
        FileHandle.standardOutput.write(Data("PORT \(port)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
    print("gRPC unary calls of an in-process echo server (127.0.0.1:\(port)), \(callsPerRound) calls a round:")
    let address = Address(URL(string: "grpc://127.0.0.1:\(port)")!)
    let dispatcher = GRPCDispatcher(serverProvider: address)
    try await withGRPCClient(
        transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
    ) { client in
        try await compare(workers: 1, dispatcher: dispatcher, client: client)
        try await compare(workers: concurrency, dispatcher: dispatcher, client: client)
    }
    await dispatcher.shutdown()
    withExtendedLifetime(address) {}
    print("ProtoCodec against SwiftProtobuf's generated code, \(codecIterations) times each:")
    try compareCodec()
}
