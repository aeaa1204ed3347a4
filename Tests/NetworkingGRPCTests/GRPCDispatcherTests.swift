import Foundation
import NetworkingCore
import NetworkingGRPC
import SwiftProtobuf
import Synchronization
import Testing

/// The dispatcher's model: the provider's base URL at call time, failures in a sentence, the
/// typed calls, futures and async/await, metadata adapters.
@Suite struct GRPCDispatcherTests {
    struct BearerToken: GRPCMetadataAdapter {
        let token: String
        func adapt(_ metadata: inout GRPCMetadata, path: String) async throws {
            metadata.set("authorization", "Bearer \(token) for \(path)")
        }
    }

    @Test func switchingTheBaseURLSendsTheNextCallToTheNewServer() async throws {
        try await withTestServer(name: "A") { portA, _ in
            try await withTestServer(name: "B") { portB, _ in
                let client = TestClient(port: portA)
                let first = try await client.dispatcher.unary("/test.Test/Echo", stringValue("1"), as: StringValue.self)
                #expect(first.message?.value == "A: 1")
                client.provider.baseURL = URL(string: "grpc://127.0.0.1:\(portB)")
                let second = try await client.dispatcher.unary(
                    "/test.Test/Echo", stringValue("2"), as: StringValue.self)
                #expect(second.message?.value == "B: 2")
                client.provider.baseURL = URL(string: "grpc://127.0.0.1:\(portA)")
                let third = try await client.dispatcher.unary("/test.Test/Echo", stringValue("3"), as: StringValue.self)
                #expect(third.message?.value == "A: 3")
                // One client per server, reused.
                #expect(client.dispatcher.connectionCount == 2)
                await client.dispatcher.shutdown()
                #expect(client.dispatcher.connectionCount == 0)
            }
        }
    }

    /// Records which of the dispatcher's loops each call's task ran on (`nil`: none of them).
    final class LoopRecorder: GRPCMetadataAdapter, Sendable {
        let loops = Mutex<[EventLoopExecutor]>([])
        let seen = Mutex<[Int?]>([])

        func adapt(_ metadata: inout GRPCMetadata, path: String) async throws {
            let loop = loops.withLock { $0.firstIndex { $0.eventLoop.inEventLoop } }
            seen.withLock { $0.append(loop) }
        }
    }

    @Test func aCallerOnALoopOfTheDispatcherCallsThroughThatLoopsConnection() async throws {
        try await withTestServer { port, _ in
            let recorder = LoopRecorder()
            let client = TestClient(port: port, adapters: [recorder])
            let loops = client.dispatcher.executors
            recorder.loops.withLock { $0 = loops }
            try #require(!loops.isEmpty)
            let last = loops.count - 1
            let onLoop = Task(executorPreference: loops[last]) {
                let call = client.dispatcher.open("/test.Test/Echo")
                try await call.send(try bytes("on"))
                call.finish()
                return try await allEvents(of: call)
            }
            guard case .message(let answer) = try await onLoop.value.dropFirst().first else {
                Issue.record("no message")
                return
            }
            #expect(answer.stringValue == "A: on")
            // Off the loops (a test's task): through the first loop's connection, the call's
            // task on the global executor.
            let off = try await client.dispatcher.unary("/test.Test/Echo", stringValue("off"), as: StringValue.self)
            #expect(off.message?.value == "A: off")
            #expect(recorder.seen.withLock { $0 } == [last, nil])
            #expect(client.dispatcher.connectionCount == (last == 0 ? 1 : 2))
            await client.dispatcher.shutdown()
            #expect(client.dispatcher.connectionCount == 0)
        }
    }

    @Test func anUnreachableServerIsOneSentence() async throws {
        // Not a stopped server's port: another test's server may take it and answer.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let client = TestClient(port: port)
        let call = client.dispatcher.open("/test.Test/Echo")
        try await call.send(try bytes("x"))
        call.finish()
        let error = await #expect(throws: TransportError.self) { _ = try await allEvents(of: call) }
        #expect(error == .connectionRefused(host: "127.0.0.1", port: port))
        #expect(error?.description == "127.0.0.1:\(port) refused the connection: is the server running on that port?")
        // The failed connection is not kept: the next call connects anew.
        #expect(client.dispatcher.connectionCount == 0)
        await client.dispatcher.shutdown()
    }

    @Test func aReleasedProviderOrAnotherSchemeFailsTheCall() async throws {
        var provider: TestServerProvider? = TestServerProvider(URL(string: "grpc://127.0.0.1:1"))
        let dispatcher = GRPCDispatcher(serverProvider: provider!)
        provider = nil
        await #expect(throws: TransportError.serverProviderReleased) {
            _ = try await dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
        }
        let ftp = TestServerProvider(URL(string: "ftp://127.0.0.1:1"))
        let other = GRPCDispatcher(serverProvider: ftp)
        await #expect(throws: TransportError.invalidURL("ftp://127.0.0.1:1")) {
            _ = try await other.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
        }
    }

    @Test func aMetadataAdapterAddsTheAuthorizationHeader() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port, adapters: [BearerToken(token: "t0k3n")])
            let response = try await client.dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
            #expect(response.headers.first("x-authorization") == "Bearer t0k3n for /test.Test/Echo")
            await client.dispatcher.shutdown()
        }
    }

    @Test func aUnaryFutureDeliversTheResponseThroughItsCallbacks() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            // A future, not the async overload Swift prefers in an async context.
            let future: ResponseFuture<GRPCResponse<StringValue>> = client.dispatcher.unary(
                "/test.Test/Echo", stringValue("future"), metadata: ["x-trailer": "end"], as: StringValue.self)
            let (texts, stream) = AsyncStream<String>.makeStream()
            future
                .then { $0.message?.value ?? "" }
                .response { stream.yield("response \($0)") }
                .error { stream.yield("error \($0)") }
                .completion {
                    stream.yield("completion")
                    stream.finish()
                }
                .send()
            var seen: [String] = []
            for await text in texts { seen.append(text) }
            #expect(seen == ["response A: future", "completion"])
            // The same future, awaited again, gives the whole response.
            let response = try await future.value
            #expect(response.status == .ok)
            #expect(response.trailers.first("x-trailer") == "end")
            #expect(response.timings.timeToHead != nil)
            #expect(response.timings.total != nil)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aFailedUnaryFutureGivesTheGRPCError() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let future: ResponseFuture<GRPCResponse<StringValue>> = client.dispatcher.unary(
                "/test.Test/Fail", stringValue("x"), as: StringValue.self)
            let error = await #expect(throws: GRPCError.self) { _ = try await future.value }
            #expect(error?.status.name == "NOT_FOUND")
            #expect(error?.trailers.first("x-why") == "because")
            #expect(error?.description == "/test.Test/Fail ended with NOT_FOUND (5): no such thing.")
            await client.dispatcher.shutdown()
        }
    }

    @Test func cancellingAUnaryFutureCancelsItsCall() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let future: ResponseFuture<GRPCResponse<StringValue>> = client.dispatcher.unary(
                "/test.Test/Sleep", stringValue("x"), as: StringValue.self)
            let (outcomes, stream) = AsyncStream<String>.makeStream()
            future.cancellation { stream.yield("cancelled") }.completion { stream.finish() }.send()
            future.cancel()
            var seen: [String] = []
            for await outcome in outcomes { seen.append(outcome) }
            #expect(seen == ["cancelled"])
            await client.dispatcher.shutdown()
        }
    }

    @Test func anAwaitedUnaryCallThrowsTheStatusAsGRPCError() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let ok = try await client.dispatcher.unary("/test.Test/Echo", stringValue("await"), as: StringValue.self)
            #expect(ok.message?.value == "A: await")
            #expect(ok.messages.count == 1)
            await #expect(throws: GRPCError.self) {
                _ = try await client.dispatcher.unary("/test.Test/Fail", stringValue("x"), as: StringValue.self)
            }
            await client.dispatcher.shutdown()
        }
    }

    @Test func typedStreamsDecodeEachMessage() async throws {
        try await withTestServer { port, gate in
            let client = TestClient(port: port)
            let count = client.dispatcher.serverStream("/test.Test/Count", stringValue("go"), as: StringValue.self)
            var values: [String] = []
            for try await message in count {
                values.append(message.value)
                gate.open()
            }
            #expect(values == ["1", "2"])
            #expect(count.status == .ok)
            #expect(count.headers != nil)

            let joined = try await client.dispatcher.clientStream(
                "/test.Test/Join", ["x", "y"].map(stringValue), as: StringValue.self)
            #expect(joined.message?.value == "x,y")

            let (requests, feed) = AsyncStream<StringValue>.makeStream()
            let chat = client.dispatcher.bidirectionalStream("/test.Test/Chat", requests, as: StringValue.self)
            feed.yield(stringValue("one"))
            var answers: [String] = []
            for try await answer in chat {
                answers.append(answer.value)
                if answers.count == 1 { feed.yield(stringValue("two")) } else { feed.finish() }
            }
            #expect(answers == ["pong: one", "pong: two"])
            #expect(chat.status == .ok)

            let failing = client.dispatcher.bidirectionalStream(
                "/test.Test/Fail", [stringValue("x")], as: StringValue.self)
            await #expect(throws: GRPCError.self) { for try await _ in failing {} }
            #expect(failing.status?.name == "NOT_FOUND")
            await client.dispatcher.shutdown()
        }
    }
}

extension GRPCDispatcherTests {
    @Test func anHTTP1ServerIsNotAGRPCServer() async throws {
        let server = try TestHTTP1Server()
        defer { server.stop() }
        let client = TestClient(port: server.port)
        let error = await #expect(throws: TransportError.self) {
            _ = try await client.dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
        }
        #expect(error?.description.contains("127.0.0.1:\(server.port)") == true)
        #expect(error?.description.contains("not a gRPC server") == true)
        await client.dispatcher.shutdown()
    }
}
