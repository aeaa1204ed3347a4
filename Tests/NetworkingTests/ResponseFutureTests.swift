import Foundation
import Networking
import Testing

@Suite struct ResponseFutureTests {
    @Test func aFutureIsLazyUntilStarted() async throws {
        let counter = CallCounter()
        let future = ResponseFuture<Int> {
            counter.hit("started")
            $0.succeed(with: 1)
        }
        #expect(counter.count("started") == 0)
        #expect(try await future.value == 1)
        future.start()
        #expect(counter.count("started") == 1)
    }

    @Test func thenMapsAndAThrowReachesError() async throws {
        struct Boom: Error {}
        #expect(try await ResponseFuture(value: 2).then { $0 * 21 }.value == 42)

        let counter = CallCounter()
        ResponseFuture(value: 2)
            .then { _ -> Int in throw Boom() }
            .then { $0 + 1 }
            .response { _ in counter.hit("response") }
            .error { error in if error is Boom { counter.hit("error") } }
            .completion { counter.hit("completion") }
            .send()
        #expect(await eventually { counter.count("completion") == 1 })
        #expect(counter.count("error") == 1)
        #expect(counter.count("response") == 0)
    }

    @Test func replaceChainsASecondFuture() async throws {
        let value = try await ResponseFuture(value: 3).replace { ResponseFuture(value: "\($0)!") }.value
        #expect(value == "3!")
    }

    @Test func joinInSeriesGivesBothValues() async throws {
        let (first, second) = try await ResponseFuture(value: 1).join { ResponseFuture(value: $0 + 1) }.value
        #expect(first == 1 && second == 2)
    }

    @Test func joinInParallelGivesBothValuesAndTheFirstErrorCancelsTheOther() async throws {
        let (number, text) = try await ResponseFuture(value: 1).join(ResponseFuture(value: "a")).value
        #expect(number == 1 && text == "a")

        struct Boom: Error {}
        let counter = CallCounter()
        let never = ResponseFuture<Int> { _ in }.cancellation { counter.hit("other cancelled") }
        let failing = ResponseFuture<Int>(error: Boom())
        await #expect(throws: Boom.self) { try await join([never, failing]).value }
        #expect(await eventually { counter.count("other cancelled") == 1 })
    }

    @Test func joinOfAnArrayKeepsOrder() async throws {
        let futures = (0..<50).map { index in
            ResponseFuture<Int> { future in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50 - index)) {
                    future.succeed(with: index)
                }
            }
        }
        #expect(try await join(futures).value == Array(0..<50))
        #expect(try await join([ResponseFuture<Int>]()).value == [])
    }

    @Test func completionRunsExactlyOnceEvenWhenFinishedTwice() async throws {
        let counter = CallCounter()
        let future = ResponseFuture<Int> { future in
            future.succeed(with: 1)
            future.fail(with: CancellationError())
            future.succeed(with: 2)
            future.cancel()
        }
        future.response { _ in counter.hit("response") }.completion { counter.hit("completion") }.send()
        #expect(await eventually { counter.count("completion") == 1 })
        #expect(counter.count("response") == 1)
        #expect(future.isFinished)
    }

    @Test func cancellingRunsCancellationThenCompletionButNotError() async throws {
        let counter = CallCounter()
        let future = ResponseFuture<Int> { future in future.onCancel { counter.hit("transport cancelled") } }
            .error { _ in counter.hit("error") }
            .cancellation { counter.hit("cancellation") }
            .completion { counter.hit("completion") }
        future.send()
        future.cancel()
        future.cancel()
        #expect(await eventually { counter.count("completion") == 1 })
        #expect(counter.count("cancellation") == 1)
        #expect(counter.count("transport cancelled") == 1)
        #expect(counter.count("error") == 0)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFutureAndResumes() async throws {
        let counter = CallCounter()
        let future = ResponseFuture<Int> { future in
            counter.hit("started")
            future.onCancel { counter.hit("cancelled") }
        }
        let task = Task { try await future.value }
        #expect(await eventually { counter.count("started") == 1 })
        task.cancel()
        await #expect(throws: TransportError.cancelled) { try await task.value }
        #expect(counter.count("cancelled") == 1)
    }

    @Test func progressIsForwardedThroughAChainAndCoalesced() async throws {
        let counter = CallCounter()
        let last = Locked64()
        let root = ResponseFuture<Int> { future in
            DispatchQueue.global().async {
                for step in 1...1000 {
                    future.update(progress: TransferProgress(completedBytes: Int64(step), expectedBytes: 1000))
                }
                future.succeed(with: 1)
            }
        }
        _ = try await root.then { $0 }
            .progress { progress in
                counter.hit("progress")
                last.set(progress.completedBytes)
            }
            .value
        #expect(await eventually { last.get() == 1000 })
        #expect(counter.count("progress") <= 1000)
    }
}

/// An Int64 readable from any thread.
final class Locked64: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    func set(_ new: Int64) {
        lock.lock()
        value = new
        lock.unlock()
    }
    func get() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
