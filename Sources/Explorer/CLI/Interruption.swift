import Foundation
import Synchronization

/// Signals a command handles while it works, instead of dying of them: the first one runs
/// `onSignal` (a gRPC call is cancelled and reported, a run's reports are written), a second
/// ends the process at once with 128 + its number, as a shell reports it. `end()` gives the
/// signals back their default action.
final class Interruption {
    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    /// Starts handling `signals`.
    ///
    /// - Parameters:
    ///   - signals: SIGINT (Ctrl-C) unless said.
    ///   - onSignal: called once, with the signal's number, on the first one.
    init(_ signals: [Int32] = [SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
        let received = received
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let first = received.count.withLock {
                    $0 += 1
                    return $0 == 1
                }
                if first { onSignal(number) } else { exit(128 + number) }
            }
            source.resume()
            return source
        }
        self.signals = signals
    }

    private let signals: [Int32]

    /// Stops handling the signals; whether one came.
    @discardableResult
    func end() -> Bool {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
        return received.count.withLock { $0 } > 0
    }

    /// How many signals came.
    private final class Received: Sendable {
        let count = Mutex(0)
    }
}
