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
    /// Where the mock is in its life, and the start or stop that runs (what `shutdown` waits for).
    private let life = Mutex<(machine: StateMachine<Start>, running: Task<Void, Never>?)>((StateMachine(), nil))
    /// What the mock answered and the reducer has not been told yet: sent together, at most
    /// every `logInterval`, so that a mock under load does not flood the main queue.
    private let unsent = Mutex<[MockLogLine]>([])

    /// A start asked for: what to serve, and where to tell how it went.
    struct Start {
        let request: MockRequest
        let send: @Sendable (AppAction) -> Void
    }

    package init(host: (any MockHosting)?, queue: DispatchQueue) {
        self.host = host
        self.queue = queue
    }

    /// Starts the mock (after a start or stop that runs); its answers are told in batches.
    package func start(_ request: MockRequest, send: @escaping @Sendable (AppAction) -> Void) {
        guard host != nil else {
            send(.mockFailed("this explorer cannot serve a mock; run explorer mock in another terminal."))
            return
        }
        run { $0.startRequested(Start(request: request, send: send)) }
    }

    /// Stops the mock (nothing when none is served).
    package func stop() {
        run { $0.stopRequested() }
    }

    /// Resets the served mock's resources and tells how many it keeps (`nil`: none served).
    package func reset(send: @escaping @Sendable (AppAction) -> Void) {
        guard let host else {
            send(.mockStateReset(nil))
            return
        }
        Task { send(.mockStateReset(await host.resetState())) }
    }

    /// Stops the mock and returns once its port is released.
    package func shutdown() async {
        stop()
        while let running = life.withLock({ $0.running }) { await running.value }
    }

    /// Feeds the machine an event and runs what it says; each start or stop, once it ends,
    /// feeds it its outcome and runs what follows.
    private func run(_ event: (inout StateMachine<Start>) -> StateMachine<Start>.Action) {
        life.withLock { life in
            perform(event(&life.machine), in: &life)
        }
    }

    /// Starts the task an action needs (called under the lock).
    private func perform(
        _ action: StateMachine<Start>.Action,
        in life: inout (machine: StateMachine<Start>, running: Task<Void, Never>?)
    ) {
        guard let host else { return }
        switch action {
        case .none:
            if !life.machine.isBusy { life.running = nil }
        case .start(let start):
            life.running = Task {
                var succeeded = false
                do {
                    let started = try await host.start(start.request) { [weak self] line in
                        self?.answered(line, send: start.send)
                    }
                    succeeded = true
                    start.send(.mockStarted(started))
                } catch {
                    start.send(.mockFailed(sentence(describing: error)))
                }
                self.run { $0.startEnded(succeeded: succeeded) }
            }
        case .stop:
            life.running = Task {
                await host.stop()
                self.run { $0.stopEnded() }
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
