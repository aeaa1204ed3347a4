import Foundation
import NetworkingCore
import Synchronization

/// What a cancel stops, by exchange and run id: the request in flight, and the work started
/// for it before it goes out (prerequisites, an `openapi:` document fetched first, a GraphQL
/// schema validated first) or a folder run.
package final class ExchangeTasks: Sendable {
    /// Work that a cancel stops besides a request in flight.
    package enum Key: Hashable, Sendable {
        case exchange(Int)
        case run(Int)
    }

    private let requests = Mutex<[Int: ResponseFuture<Response<Data?>>]>([:])
    private let tasks = Mutex<[Key: Task<Void, Never>]>([:])

    package init() {}

    /// Keeps the request in flight for exchange `id` until `finished(_:)` or a cancel.
    package func inFlight(_ id: Int, _ future: ResponseFuture<Response<Data?>>) {
        requests.withLock { $0[id] = future }
    }

    /// Forgets exchange `id`'s request once it has completed.
    package func finished(_ id: Int) {
        _ = requests.withLock { $0.removeValue(forKey: id) }
    }

    /// Keeps a task that a cancel of `key` stops.
    package func started(_ key: Key, _ task: Task<Void, Never>) {
        tasks.withLock { $0[key] = task }
    }

    /// Forgets `key`'s task once it has done its work; call from the task before it hands on.
    package func done(_ key: Key) {
        _ = tasks.withLock { $0.removeValue(forKey: key) }
    }

    /// Cancels exchange `id`: its request in flight and the work started for it.
    package func cancelExchange(_ id: Int) {
        requests.withLock { $0.removeValue(forKey: id) }?.cancel()
        tasks.withLock { $0.removeValue(forKey: .exchange(id)) }?.cancel()
    }

    /// Cancels folder run `id`.
    package func cancelRun(_ id: Int) {
        tasks.withLock { $0.removeValue(forKey: .run(id)) }?.cancel()
    }
}
