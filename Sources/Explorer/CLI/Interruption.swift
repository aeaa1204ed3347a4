import App
import Foundation
import Synchronization

/// Signals a command handles while it works, instead of dying of them: the first one runs
/// `onSignal` (a gRPC call is cancelled and reported, a run's reports are written), a second
/// ends the process at once with 128 + its number, as a shell reports it. `end()` gives the
/// signals back their default action.
///
/// The handlers write to a pipe (`RuntimeSignals`) and are in place when `init` returns: a
/// signal that comes at once, before the pipe's reader runs, waits for it. (A dispatch signal
/// source needs the signal ignored first and registers later, and a signal between the two
/// was lost: a Ctrl-C right after a call began left the command waiting.)
final class Interruption {
    private let reader: (any DispatchSourceRead)?
    private let signals: [Int32]
    private let received = Received()

    /// Starts handling `signals`.
    ///
    /// - Parameters:
    ///   - signals: SIGINT (Ctrl-C) unless said.
    ///   - onSignal: called once, with the signal's number, on the first one.
    init(_ signals: [Int32] = [SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // Without a pipe the signals keep their default action: the command dies of them.
            reader = nil
            return
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        let received = received
        let reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
        reader.setEventHandler {
            for number in Self.drain(readEnd) {
                let first = received.count.withLock {
                    $0 += 1
                    return $0 == 1
                }
                if first { onSignal(number) } else { exit(128 + number) }
            }
        }
        reader.setCancelHandler {
            close(readEnd)
            close(writeEnd)
        }
        reader.resume()
        self.reader = reader
        RuntimeSignals.install(signals, writeDescriptor: writeEnd)
    }

    /// Stops handling the signals; whether one came (counting one still in the pipe).
    @discardableResult
    func end() -> Bool {
        if let reader {
            RuntimeSignals.uninstall(signals)
            let late = Self.drain(Int32(reader.handle)).count
            received.count.withLock { $0 += late }
            reader.cancel()
        }
        return received.count.withLock { $0 } > 0
    }

    /// The signals waiting in the pipe (its read end does not block).
    private static func drain(_ descriptor: Int32) -> [Int32] {
        var numbers: [Int32] = []
        var bytes = [UInt8](repeating: 0, count: 16)
        while case let count = read(descriptor, &bytes, bytes.count), count > 0 {
            numbers += bytes.prefix(count).map { Int32($0) }
        }
        return numbers
    }

    /// How many signals came.
    private final class Received: Sendable {
        let count = Mutex(0)
    }
}
