import Dispatch

extension ResponseFuture {
    /// Maps the value; a throw fails the chain and reaches `error`.
    ///
    /// Starting the new future starts this one; cancelling it cancels this one.
    ///
    /// - Parameter transform: turns the value into a new one; runs on the delivering thread.
    /// - Returns: a future of the transformed value.
    public func then<U: Sendable>(_ transform: @escaping @Sendable (T) throws -> U) -> ResponseFuture<U> {
        ResponseFuture<U>(callbackQueue: callbackQueue) { next in
            next.onCancel { self.cancel() }
            self.observeProgress { next.update(progress: $0) }
            self.observe { outcome in
                switch outcome {
                case .success(let value):
                    do { next.succeed(with: try transform(value)) } catch { next.fail(with: error) }
                case .failure(let error): next.fail(with: error)
                case .cancelled: next.cancel()
                }
            }
            self.start()
        }
    }

    /// Replaces the value with another future (flat map): e.g. send a second request that
    /// depends on the first response.
    ///
    /// - Parameter next: makes the next future from the value; a throw fails the chain.
    /// - Returns: a future of the next future's value.
    public func replace<U: Sendable>(_ next: @escaping @Sendable (T) throws -> ResponseFuture<U>) -> ResponseFuture<U> {
        ResponseFuture<U>(callbackQueue: callbackQueue) { result in
            result.onCancel { self.cancel() }
            self.observeProgress { result.update(progress: $0) }
            self.observe { outcome in
                switch outcome {
                case .success(let value):
                    do {
                        let inner = try next(value)
                        result.onCancel { inner.cancel() }
                        inner.observeProgress { result.update(progress: $0) }
                        inner.observe { innerOutcome in result.finish(with: innerOutcome) }
                        inner.start()
                    } catch {
                        result.fail(with: error)
                    }
                case .failure(let error): result.fail(with: error)
                case .cancelled: result.cancel()
                }
            }
            self.start()
        }
    }

    /// Joins in series: after this value arrives, starts a future made from it and gives both.
    ///
    /// - Parameter next: makes the second future from the first value.
    /// - Returns: a future of both values.
    public func join<U: Sendable>(_ next: @escaping @Sendable (T) throws -> ResponseFuture<U>) -> ResponseFuture<(T, U)>
    {
        replace { first in try next(first).then { second in (first, second) } }
    }

    /// Joins in parallel: starts both futures and gives both values; the first error wins and
    /// cancels the other.
    ///
    /// - Parameter other: the future to run alongside this one.
    /// - Returns: a future of both values.
    public func join<U: Sendable>(_ other: ResponseFuture<U>) -> ResponseFuture<(T, U)> {
        let pair = ResponseFuture<[any Sendable]>.all(
            [self.then { $0 as any Sendable }, other.then { $0 as any Sendable }],
            callbackQueue: callbackQueue)
        return pair.then { values in (values[0] as! T, values[1] as! U) }
    }

    /// Finishes with the given outcome.
    func finish(with outcome: Outcome) {
        switch outcome {
        case .success(let value): succeed(with: value)
        case .failure(let error): fail(with: error)
        case .cancelled: cancel()
        }
    }
}

extension ResponseFuture {
    /// Joins an array in parallel: starts every future and gives their values in order; the
    /// first error wins and cancels the others. An empty array gives an empty array.
    ///
    /// - Parameters:
    ///   - futures: the futures to run together.
    ///   - callbackQueue: the queue the joined future's callbacks run on.
    /// - Returns: a future of every value, in the order of `futures`.
    public static func all<Element: Sendable>(
        _ futures: [ResponseFuture<Element>], callbackQueue: DispatchQueue = .global()
    ) -> ResponseFuture<[Element]> where T == [Element] {
        ResponseFuture<[Element]>(callbackQueue: callbackQueue) { joined in
            let count = futures.count
            guard count > 0 else { return joined.succeed(with: []) }
            let results = Locked<[Element?]>(Array(repeating: nil, count: count))
            let remaining = Locked(count)
            joined.onCancel { for future in futures { future.cancel() } }
            for (index, future) in futures.enumerated() {
                future.observe { outcome in
                    switch outcome {
                    case .success(let value):
                        results.withLock { $0[index] = value }
                        let left = remaining.withLock { left -> Int in
                            left -= 1
                            return left
                        }
                        if left == 0 { joined.succeed(with: results.withLock { $0.map { $0! } }) }
                    case .failure(let error):
                        joined.fail(with: error)
                        for other in futures where other !== future { other.cancel() }
                    case .cancelled:
                        joined.cancel()
                    }
                }
            }
            for future in futures { future.start() }
        }
    }
}

/// Joins futures of one type in parallel.
///
/// - Parameter futures: the futures to run together.
/// - Returns: a future of every value, in order; the first error wins and cancels the others.
public func join<Element: Sendable>(_ futures: [ResponseFuture<Element>]) -> ResponseFuture<[Element]> {
    ResponseFuture<[Element]>.all(futures, callbackQueue: futures.first?.callbackQueue ?? .global())
}
