import Foundation
import Testing

@testable import Networking
@testable import NetworkingCore

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

/// One clock for every body's deadlines.
@Suite struct BodyClockTests {
    let url = URL(string: "http://127.0.0.1/")!

    /// Waits (polling) until the channel has ended with an error, and returns its phase.
    func failure(of channel: BodyChannel) async throws -> String? {
        do {
            while try await channel.next() != nil {}
            return nil
        } catch TransportError.timedOut(_, let phase) {
            return phase
        }
    }

    @Test func aNearerDeadlineWatchedAfterAFarOneStillFailsOnTime() async throws {
        let clock = BodyClock()
        let far = BodyChannel()
        far.watch(deadline: .now + .seconds(600), idle: nil, url: url, clock: clock)
        let near = BodyChannel()
        let started = ContinuousClock.now
        near.watch(deadline: .now + .milliseconds(50), idle: nil, url: url, clock: clock)
        let phase = try await failure(of: near)
        #expect(phase?.contains("total deadline") == true)
        // Failed by its deadline, not by the far one's: well before the far one is due.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(far.isOpen)
        #expect(clock.count == 1)
        far.finish()
        #expect(clock.count == 0)
    }

    @Test func theIdleTimeCountsOnlyWhileTheReaderWaits() async throws {
        let clock = BodyClock()
        let waiting = BodyChannel()
        waiting.watch(deadline: nil, idle: .milliseconds(40), url: url, clock: clock)
        // Nobody reads this one: it holds a chunk and is never waited on.
        let unread = BodyChannel()
        unread.push(Data("kept".utf8))
        unread.watch(deadline: nil, idle: .milliseconds(40), url: url, clock: clock)
        let phase = try await failure(of: waiting)
        #expect(phase == "no bytes for 40 ms")
        #expect(unread.isOpen)
        unread.finish()
        #expect(try await unread.next() == Data("kept".utf8))
        #expect(clock.count == 0)
    }

    @Test func bodiesThatEndInTimeLeaveTheClock() async throws {
        let clock = BodyClock()
        for _ in 0..<1000 {
            let channel = BodyChannel()
            channel.watch(deadline: .now + .seconds(30), idle: .seconds(10), url: url, clock: clock)
            channel.push(Data("{}".utf8))
            channel.finish()
            #expect(try await channel.next() == Data("{}".utf8))
        }
        #expect(clock.count == 0)
    }
}
