import Foundation
@testable import Networking
@testable import NetworkingCore
import Testing

/// The hand-over between the transport and a body's reader.
@Suite struct BodyChannelTests {
    @Test func aReaderSlowerThanTheConnectionHoldsNoMoreThanTheBuffer() async throws {
        let channel = BodyChannel()
        let chunk = Data(repeating: 7, count: 64 * 1024)
        // The connection fills the buffer, then refills it after every read: it is never
        // empty, as with any reader slower than the network.
        while channel.push(chunk) {}
        for _ in 0..<(4 * BodyChannel.highWater / chunk.count) {
            let read = try await channel.next()
            #expect(read == chunk)
            channel.push(chunk)
            #expect(channel.retainedBytes <= BodyChannel.highWater + chunk.count)
        }
        channel.finish()
        var rest = 0
        while let piece = try await channel.next() { rest += piece.count }
        #expect(rest > 0)
        #expect(channel.retainedBytes == 0)
    }

    @Test func aFailureHandsOverWhatIsBufferedFirstAndCancellingDropsIt() async throws {
        let failed = BodyChannel()
        failed.push(Data("one".utf8))
        failed.push(Data("two".utf8))
        failed.fail(TransportError.timedOut(url: URL(string: "http://127.0.0.1/")!, phase: "the total deadline passed"))
        #expect(try await failed.next() == Data("one".utf8))
        #expect(try await failed.next() == Data("two".utf8))
        await #expect(throws: TransportError.self) { try await failed.next() }

        let cancelled = BodyChannel()
        cancelled.push(Data("one".utf8))
        cancelled.cancel()
        #expect(cancelled.retainedBytes == 0)
        await #expect(throws: TransportError.cancelled) { try await cancelled.next() }
    }
}
