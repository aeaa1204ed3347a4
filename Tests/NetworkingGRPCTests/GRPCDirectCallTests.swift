import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import NetworkingCore
import Synchronization
import Testing

@testable import NetworkingGRPC

/// The direct path: a call of one request message runs on an HTTP/2 stream of the dispatcher's
/// own connections (no grpc-swift client is made), against real grpc-swift servers.
@Suite(.timeLimit(.minutes(2))) struct GRPCDirectCallTests {
    @Test func aUnaryCallTakesTheDirectPathAndReusesItsConnection() async throws {
        try await withWatchServer { port, _ in
            let client = TestClient(port: port)
            for round in 1...3 {
                let answer = try await client.dispatcher.unary(
                    "/test.Watch/Echo", stringValue("r\(round)"), as: StringValue.self)
                #expect(answer.message?.value == "W: r\(round)")
            }
            #expect(client.dispatcher.connections.count == 1)
            #expect(client.dispatcher.clients.count == 0)
            // Two request messages (a client stream's shape) go through grpc-swift's client.
            let stream = client.dispatcher.open("/test.Watch/Echo")
            try await stream.send(try bytes("b"))
            try await stream.send(try bytes("c"))
            stream.finish()
            guard case .message(let message)? = try await allEvents(of: stream).dropFirst().first else {
                throw TestFailure("no message")
            }
            #expect(message.stringValue == "W: c")
            #expect(client.dispatcher.clients.count == 1)
            await client.dispatcher.shutdown()
            #expect(client.dispatcher.connectionCount == 0)
        }
    }

    @Test func aTrailersOnlyErrorGivesEmptyHeadersTheStatusDetailsAndTrailers() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Fail")
            try await call.send(try bytes("x"))
            call.finish()
            let events = try await allEvents(of: call)
            #expect(events.count == 2)
            guard case .headers(let headers) = events.first, case .end(let status, let trailers)? = events.last else {
                throw TestFailure("unexpected events \(events)")
            }
            #expect(headers.isEmpty)
            #expect(status.name == "NOT_FOUND")
            #expect(status.message == "no such thing")
            #expect(status.details == [1, 2, 3, 250])
            #expect(trailers.first("x-why") == "because")
            #expect(trailers.first("grpc-status") == nil)
            #expect(client.dispatcher.connections.count == 1)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aPercentEncodedStatusMessageIsDecoded() async throws {
        try await withWatchServer { port, _ in
            let client = TestClient(port: port)
            let error = await #expect(throws: GRPCError.self) {
                _ = try await client.dispatcher.unary("/test.Watch/Refuse", stringValue("x"), as: StringValue.self)
            }
            #expect(error?.status.name == "FAILED_PRECONDITION")
            #expect(error?.status.message == "100% ünïcode, two\nlines")
            await client.dispatcher.shutdown()
        }
    }

    @Test func theDeadlineEndsTheCallAndResetsItsStream() async throws {
        try await withWatchServer { port, watch in
            let client = TestClient(port: port)
            // Long enough for a loaded machine's server to start the handler before its own deadline.
            let call = client.dispatcher.open("/test.Watch/Hold", options: GRPCCallOptions(timeout: .seconds(1)))
            try await call.send(try bytes("x"))
            call.finish()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            // The client's deadline, or (when the server's came first) the server's status.
            #expect(status.name == "DEADLINE_EXCEEDED")
            // The server's handler learns the stream ended (grpc-timeout, or the reset).
            await watch.cancelled.wait()
            // grpc-swift's server reads `grpc-timeout` into the request's deadline.
            let timeout = try #require(watch.timeout.withLock { $0 })
            #expect(timeout > .milliseconds(900) && timeout <= .seconds(1))
            await client.dispatcher.shutdown()
        }
    }

    @Test func cancellingResetsTheStreamAndTheServerSeesIt() async throws {
        try await withWatchServer { port, watch in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Watch/Hold")
            try await call.send(try bytes("x"))
            call.finish()
            await watch.held.wait()
            #expect(watch.timeout.withLock { $0 } == nil)
            call.cancel()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            #expect(status.name == "CANCELLED")
            #expect(status.message.contains("cancelled by the client"))
            await watch.cancelled.wait()
            // The connection stays: the next call goes through it.
            let answer = try await client.dispatcher.unary(
                "/test.Watch/Echo", stringValue("after"), as: StringValue.self)
            #expect(answer.message?.value == "W: after")
            #expect(client.dispatcher.connections.count == 1)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aResponseOverTheLimitIsRefusedAndTheConnectionGoesOn() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port, maximumMessageSize: 1000)
            let error = await #expect(throws: GRPCError.self) {
                _ = try await client.dispatcher.unary("/test.Test/Big", stringValue("5000"), as: StringValue.self)
            }
            #expect(error?.status.name == "RESOURCE_EXHAUSTED")
            #expect(error?.status.message.contains("(5003 bytes) is over the limit of 1000 bytes") == true)
            let small = try await client.dispatcher.unary("/test.Test/Big", stringValue("10"), as: StringValue.self)
            #expect(small.message?.value.count == 10)
            #expect(client.dispatcher.connections.count == 1)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aNewConnectionIsMadeAfterTheServerRestarts() async throws {
        let port = try await withWatchServer(name: "first") { port, _ in
            let provider = TestServerProvider(URL(string: "grpc://127.0.0.1:\(port)"))
            let dispatcher = GRPCDispatcher(serverProvider: provider)
            let answer = try await dispatcher.unary("/test.Watch/Echo", stringValue("a"), as: StringValue.self)
            #expect(answer.message?.value == "first: a")
            await dispatcher.shutdown()
            return port
        }
        let provider = TestServerProvider(URL(string: "grpc://127.0.0.1:\(port)"))
        let dispatcher = GRPCDispatcher(serverProvider: provider)
        try await withWatchServer(name: "first", port: port) { _, _ in
            let answer = try await dispatcher.unary("/test.Watch/Echo", stringValue("b"), as: StringValue.self)
            #expect(answer.message?.value == "first: b")
        }
        // The server is gone: the connection is forgotten once it closes; a call meanwhile fails
        // UNAVAILABLE or refused, never hangs.
        try await withWatchServer(name: "second", port: port) { _, _ in
            var answer: GRPCResponse<StringValue>?
            for _ in 0..<2 where answer == nil {
                answer = try? await dispatcher.unary("/test.Watch/Echo", stringValue("c"), as: StringValue.self)
            }
            #expect(answer?.message?.value == "second: c")
            #expect(dispatcher.connections.count == 1)
        }
        await dispatcher.shutdown()
        withExtendedLifetime(provider) {}
    }

    @Test func tlsWithTheGivenCAAndAuthorityTakesTheDirectPath() async throws {
        let authority = try TestCertificateAuthority()
        let caFile = try authority.writePEM()
        try await withTestServer(security: try authority.serverSecurity()) { port, _ in
            let client = TestClient(port: port, scheme: "grpcs", tls: TLSSettings(caCertificateFile: caFile))
            let options = GRPCCallOptions(authority: "localhost:\(port)")
            for text in ["one", "two"] {
                let response = try await client.dispatcher.unary(
                    "/test.Test/Echo", stringValue(text), options: options, as: StringValue.self)
                #expect(response.message?.value == "A: \(text)")
            }
            #expect(client.dispatcher.connections.count == 1)
            #expect(client.dispatcher.clients.count == 0)
            // Without the authority the name checked is 127.0.0.1, which the certificate is not for.
            let error = await #expect(throws: TransportError.self) {
                _ = try await client.dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
            }
            guard case .tlsFailure? = error else {
                Issue.record("not a TLS failure: \(String(describing: error))")
                return
            }
            await client.dispatcher.shutdown()
        }
    }

    @Test func aDispatcherLetGoClosesItsConnections() async throws {
        try await withWatchServer { port, _ in
            var client: TestClient? = TestClient(port: port)
            // One connection of each path: a unary call's, and a client stream's grpc-swift client.
            _ = try await client!.dispatcher.unary("/test.Watch/Echo", stringValue("a"), as: StringValue.self)
            let stream = client!.dispatcher.open("/test.Watch/Echo")
            try await stream.send(try bytes("b"))
            try await stream.send(try bytes("c"))
            stream.finish()
            _ = try await allEvents(of: stream)
            #expect(Self.establishedConnections(toPort: port) == 2)
            client = nil
            // Without `shutdown()`: the dispatcher's deinit closes both.
            let clock = ContinuousClock()
            let until = clock.now.advanced(by: .seconds(60))
            while Self.establishedConnections(toPort: port) > 0, clock.now < until {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(Self.establishedConnections(toPort: port) == 0)
        }
    }

    /// The established TCP connections to a port of 127.0.0.1 (from `/proc/net/tcp`).
    static func establishedConnections(toPort port: Int) -> Int {
        // Read to its end: the file says its size is 0, and one read gives a page of it.
        guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp"),
            let data = try? file.readToEnd(), let table = String(data: data, encoding: .utf8)
        else { return -1 }
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").dropFirst().count { line in
            let fields = line.split(separator: " ")
            // sl, local address, remote address, state (01: ESTABLISHED)
            return fields.count > 3 && fields[2] == remote && fields[3] == "01"
        }
    }

    @Test func theGRPCTimeoutHeaderIsWrittenWithAtMostEightDigits() {
        #expect(GRPCWire.timeoutValue(.milliseconds(300)) == "300000u")
        #expect(GRPCWire.timeoutValue(.seconds(20)) == "20000000u")
        #expect(GRPCWire.timeoutValue(.seconds(200)) == "200000m")
        #expect(GRPCWire.timeoutValue(.nanoseconds(5)) == "5n")
    }
}

/// What `test.Watch`'s handlers saw.
final class WatchLog: Sendable {
    /// Opened when `Hold` has its request.
    let held = TestGate()
    /// Opened when `Hold`'s call was cancelled on the server (the client reset it, or the deadline passed).
    let cancelled = TestGate()
    /// The deadline `Hold`'s request came with.
    let timeout = Mutex<Duration?>(nil)
}

/// Runs `test.Watch` on 127.0.0.1 (the port given, or a free one): `Echo` answers `<name>: <value>`,
/// `Hold` waits for its call to be cancelled, `Refuse` fails with a message to percent-encode.
func withWatchServer<T: Sendable>(
    name: String = "W", port: Int = 0, _ body: (_ port: Int, _ log: WatchLog) async throws -> T
) async throws -> T {
    let log = WatchLog()
    let transport = HTTP2ServerTransport.Posix(
        address: .ipv4(host: "127.0.0.1", port: port), transportSecurity: .plaintext)
    return try await withGRPCServer(transport: transport, services: [WatchService(name: name, log: log)]) { _ in
        let port = try await transport.listeningAddress.ipv4?.port ?? 0
        return try await body(port, log)
    }
}

struct WatchService: RegistrableRPCService {
    let name: String
    let log: WatchLog

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let name = name
        let log = log
        register(&router, "Echo") { request, _ in
            var value = ""
            for try await message in request.messages { value = message.value }
            let answer = stringValue("\(name): \(value)")
            return StreamingServerResponse { writer in
                try await writer.write(answer)
                return [:]
            }
        }
        register(&router, "Hold") { request, context in
            let timeout = request.metadata[stringValues: "grpc-timeout"].first(where: { _ in true }).flatMap {
                value -> Duration? in
                guard let amount = Int64(value.dropLast()) else { return nil }
                switch value.last {
                case "n": return .nanoseconds(amount)
                case "u": return .microseconds(amount)
                case "m": return .milliseconds(amount)
                case "S": return .seconds(amount)
                default: return nil
                }
            }
            log.timeout.withLock { $0 = timeout }
            // However the handler ends (the server's own deadline may end it first, under load).
            defer { log.cancelled.open() }
            for try await _ in request.messages {}
            log.held.open()
            try? await context.cancellation.cancelled
            return StreamingServerResponse(error: RPCError(code: .cancelled, message: "held"))
        }
        register(&router, "Refuse") { _, _ in
            StreamingServerResponse(error: RPCError(code: .failedPrecondition, message: "100% ünïcode, two\nlines"))
        }
    }

    private func register<Transport: ServerTransport>(
        _ router: inout RPCRouter<Transport>, _ method: String,
        _ handler:
            @escaping @Sendable (StreamingServerRequest<StringValue>, ServerContext) async throws
            -> StreamingServerResponse<StringValue>
    ) {
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: "test.Watch", method: method),
            deserializer: ProtobufDeserializer<StringValue>(), serializer: ProtobufSerializer<StringValue>(),
            handler: handler)
    }
}
