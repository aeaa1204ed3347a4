import Foundation

/// Runs CPU-bound test work on a thread of its own and awaits it.
///
/// Swift's cooperative pool has as many threads as the machine has cores (two here). A
/// synchronous test that computes for seconds (a whole public test suite, a fuzz run, a
/// multi-megabyte document) holds one of them all that time; two such tests at once leave
/// none for the in-process servers of the network tests running beside them, whose requests
/// then time out. On a thread of its own the work shares the cores through the scheduler
/// instead.
package func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result { try work() })
        }.start()
    }
}
