import Dispatch
import Foundation
import Synchronization
import Workspace

/// Starts and stops the session's mock (`O`) through its host, one change at a time, and
/// tells the reducer what it answered in batches.
package final class SessionMockControl: Sendable {
    /// How long answered requests gather before the reducer is told of them.
    package static let logInterval = DispatchTimeInterval.milliseconds(50)

    /// Serves the mock; `nil` when this program cannot (tests).
    private let host: (any MockHosting)?
    /// Where a batch of answers is delivered from.
    private let queue: DispatchQueue
    /// The last start or stop: each waits for the one before, so that a stop never overtakes
    /// the start it stops.
    private let lastChange = Mutex<Task<Void, Never>?>(nil)
    /// What the mock answered and the reducer has not been told yet: sent together, at most
    /// every `logInterval`, so that a mock under load does not flood the main queue.
    private let unsent = Mutex<[MockLogLine]>([])

    package init(host: (any MockHosting)?, queue: DispatchQueue) {
        self.host = host
        self.queue = queue
    }

    /// Starts the mock; its answers are told in batches.
    package func start(_ request: MockRequest, send: @escaping @Sendable (AppAction) -> Void) {
        afterLastChange { host in
            guard let host else {
                send(.mockFailed("this explorer cannot serve a mock; run explorer mock in another terminal."))
                return
            }
            do {
                let started = try await host.start(request) { [weak self] line in self?.answered(line, send: send) }
                send(.mockStarted(started))
            } catch {
                send(.mockFailed(sentence(describing: error)))
            }
        }
    }

    /// Stops the mock (nothing when none is served).
    package func stop() {
        afterLastChange { host in await host?.stop() }
    }

    /// Stops the mock and returns once its port is released.
    package func shutdown() async {
        stop()
        await lastChange.withLock { $0 }?.value
    }

    /// Runs `change` after the previous start or stop has finished.
    private func afterLastChange(_ change: @escaping @Sendable ((any MockHosting)?) async -> Void) {
        let host = self.host
        lastChange.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await change(host)
            }
        }
    }

    /// One answered request: the first of a batch schedules the batch's delivery.
    private func answered(_ text: String, send: @escaping @Sendable (AppAction) -> Void) {
        let line = MockLogLine(at: Date(), text: text)
        let first = unsent.withLock { lines in
            lines.append(line)
            return lines.count == 1
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + Self.logInterval) {
            let lines = self.unsent.withLock { lines in
                defer { lines.removeAll() }
                return lines
            }
            send(.mockAnswered(lines))
        }
    }
}
