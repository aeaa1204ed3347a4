import Foundation
import NetworkingCore
import NetworkingGRPC
import Testing

/// The raw call (`open`): bytes in, events out, against a real grpc-swift server.
@Suite struct GRPCCallTests {
    @Test func aUnaryCallGivesHeadersOneMessageAndAnOKEnd() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("test.Test/Echo", metadata: ["x-trailer": "t1"])
            try await call.send(try bytes("hi"))
            call.finish()
            let events = try await allEvents(of: call)
            #expect(events.count == 3)
            guard case .headers = events.first, case .message(let message) = events[1],
                case .end(let status, let trailers) = events.last
            else {
                Issue.record("unexpected events \(events)")
                return
            }
            #expect(message.stringValue == "A: hi")
            #expect(status == .ok)
            #expect(status.name == "OK")
            #expect(trailers.first("x-trailer") == "t1")
            #expect(call.path == "/test.Test/Echo")
            let timings = call.timings
            #expect(timings.headReceived != nil)
            #expect(timings.finished != nil)
            #expect(timings.bytesReceived == message.count)
            await client.dispatcher.shutdown()
        }
    }

    @Test func metadataTravelsBothWaysWithBinaryValues() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            var metadata: GRPCMetadata = ["x-echo": "plain text", "x-echo-bin": "AAEC/w"]
            metadata.add("x-echo-bin", bytes: [9, 8, 7])
            let call = client.dispatcher.open("/test.Test/Echo", metadata: metadata)
            try await call.send(try bytes("m"))
            call.finish()
            let events = try await allEvents(of: call)
            guard case .headers(let headers) = events.first else {
                Issue.record("no headers in \(events)")
                return
            }
            #expect(headers.first("x-echo") == "plain text")
            #expect(headers["x-echo-bin"] == [.bytes([0, 1, 2, 255]), .bytes([9, 8, 7])])
            #expect(headers.first("x-echo-bin") == "AAEC/w==")
            await client.dispatcher.shutdown()
        }
    }

    @Test func aServerStreamsMessagesOneByOneBeforeItsEnd() async throws {
        try await withTestServer { port, gate in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Count")
            try await call.send(try bytes("go"))
            call.finish()
            var iterator = call.events.makeAsyncIterator()
            guard case .headers = try await iterator.next() else { throw TestFailure("no headers first") }
            // The server is waiting at the gate: the first message came alone, before the end.
            guard case .message(let first) = try await iterator.next() else { throw TestFailure("no message") }
            #expect(first.stringValue == "1")
            gate.open()
            guard case .message(let second) = try await iterator.next() else { throw TestFailure("no second") }
            #expect(second.stringValue == "2")
            guard case .end(let status, _) = try await iterator.next() else { throw TestFailure("no end") }
            #expect(status.isOK)
            #expect(try await iterator.next() == nil)
            await client.dispatcher.shutdown()
        }
    }

    @Test func aClientStreamSendsEveryMessageThenGetsOneAnswer() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Join")
            for value in ["a", "b", "c"] { try await call.send(try bytes(value)) }
            call.finish()
            let messages = try await allEvents(of: call).compactMap { event -> String? in
                if case .message(let bytes) = event { return bytes.stringValue }
                return nil
            }
            #expect(messages == ["a,b,c"])
            await client.dispatcher.shutdown()
        }
    }

    @Test func aBidirectionalCallAnswersEachMessageBeforeTheNextIsSent() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Chat")
            var iterator = call.events.makeAsyncIterator()
            try await call.send(try bytes("ping 1"))
            guard case .headers = try await iterator.next() else { throw TestFailure("no headers") }
            guard case .message(let first) = try await iterator.next() else { throw TestFailure("no answer") }
            #expect(first.stringValue == "pong: ping 1")
            try await call.send(try bytes("ping 2"))
            guard case .message(let second) = try await iterator.next() else { throw TestFailure("no answer") }
            #expect(second.stringValue == "pong: ping 2")
            call.finish()
            guard case .end(let status, _) = try await iterator.next() else { throw TestFailure("no end") }
            #expect(status.isOK)
            await #expect(throws: GRPCCall.SendError.self) { try await call.send(try bytes("late")) }
            await client.dispatcher.shutdown()
        }
    }

    @Test func aStatusOtherThanOKComesWithItsMessageDetailsAndTrailers() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Fail")
            try await call.send(try bytes("x"))
            call.finish()
            let events = try await allEvents(of: call)
            guard case .headers(let headers) = events.first, case .end(let status, let trailers) = events.last else {
                throw TestFailure("unexpected events \(events)")
            }
            #expect(events.count == 2)
            #expect(headers.isEmpty)
            #expect(status.code == 5)
            #expect(status.name == "NOT_FOUND")
            #expect(status.message == "no such thing")
            #expect(status.details == [1, 2, 3, 250])
            #expect(trailers.first("x-why") == "because")
            #expect(status.description == "NOT_FOUND (5): no such thing")
            await client.dispatcher.shutdown()
        }
    }

    @Test func anUnknownMethodEndsUnimplemented() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Nope")
            try await call.send(try bytes("x"))
            call.finish()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            #expect(status.name == "UNIMPLEMENTED")
            await client.dispatcher.shutdown()
        }
    }

    @Test func aCallPastItsDeadlineEndsDeadlineExceeded() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let started = ContinuousClock.now
            let call = client.dispatcher.open("/test.Test/Sleep", options: GRPCCallOptions(timeout: .milliseconds(200)))
            try await call.send(try bytes("zz"))
            call.finish()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            #expect(status.name == "DEADLINE_EXCEEDED")
            #expect(status.code == 4)
            #expect(ContinuousClock.now - started < .seconds(30))
            await client.dispatcher.shutdown()
        }
    }

    @Test func cancellingACallEndsItCancelled() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Chat")
            var iterator = call.events.makeAsyncIterator()
            try await call.send(try bytes("ping"))
            guard case .headers = try await iterator.next() else { throw TestFailure("no headers") }
            guard case .message = try await iterator.next() else { throw TestFailure("no answer") }
            call.cancel()
            guard case .end(let status, _) = try await iterator.next() else { throw TestFailure("no end") }
            #expect(status.name == "CANCELLED")
            #expect(status.message.contains("cancelled by the client"))
            await client.dispatcher.shutdown()
        }
    }

    @Test func cancellingACallBeforeItsHeadersEndsItCancelled() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Sleep")
            try await call.send(try bytes("zz"))
            call.finish()
            call.cancel()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            #expect(status.name == "CANCELLED")
            await client.dispatcher.shutdown()
        }
    }

    @Test func aRequestOverTheLimitIsRefusedSayingHowToRaiseIt() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Echo", options: GRPCCallOptions(maximumRequestSize: 16))
            let error = await #expect(throws: GRPCError.self) {
                try await call.send(try bytes(String(repeating: "y", count: 100)))
            }
            #expect(error?.status.name == "RESOURCE_EXHAUSTED")
            #expect(error?.description.contains("over the limit of 16 bytes") == true)
            #expect(error?.description.contains("GRPCCallOptions.maximumRequestSize") == true)
            call.cancel()
            await client.dispatcher.shutdown()
        }
    }

    @Test func aResponseOverTheLimitEndsResourceExhausted() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port)
            let call = client.dispatcher.open("/test.Test/Big", options: GRPCCallOptions(maximumResponseSize: 1000))
            try await call.send(try bytes("5000"))
            call.finish()
            guard case .end(let status, _)? = try await allEvents(of: call).last else { throw TestFailure("no end") }
            #expect(status.name == "RESOURCE_EXHAUSTED")
            #expect(status.message.contains("(5003 bytes) is over the limit of 1000 bytes"))
            #expect(status.message.contains("maximumResponseSize"))
            // Under the limit, the same answer arrives.
            let small = client.dispatcher.open("/test.Test/Big", options: GRPCCallOptions(maximumResponseSize: 1000))
            try await small.send(try bytes("500"))
            small.finish()
            guard case .end(let okStatus, _)? = try await allEvents(of: small).last else { throw TestFailure("no end") }
            #expect(okStatus.isOK)
            await client.dispatcher.shutdown()
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
