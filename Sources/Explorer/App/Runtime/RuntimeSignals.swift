#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the runtime's self-pipe, read by the signal handler.
private nonisolated(unsafe) var signalPipeDescriptor: Int32 = -1

/// Turns signals into bytes on a pipe that a queue reads, so no work happens inside a signal
/// handler beyond one `write`: the TUI's runtime (SIGWINCH, SIGTERM, SIGHUP, SIGINT) and a
/// command's `Interruption`. One pipe at a time. A handler is in place when `install` returns,
/// so a signal that comes before its reader is ready waits in the pipe rather than being lost.
package enum RuntimeSignals {
    /// The signals the runtime handles.
    static let handled: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT]

    /// Installs the handlers.
    ///
    /// - Parameters:
    ///   - signals: the signals to write to the pipe.
    ///   - writeDescriptor: the pipe's (non-blocking) write end.
    package static func install(_ signals: [Int32] = handled, writeDescriptor: Int32) {
        signalPipeDescriptor = writeDescriptor
        for number in signals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { RuntimeSignals.received($0) }
            #else
            action.__sigaction_handler.sa_handler = { RuntimeSignals.received($0) }
            #endif
            action.sa_flags = Int32(SA_RESTART)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Puts the default dispositions of `signals` back.
    package static func uninstall(_ signals: [Int32] = handled) {
        guard signalPipeDescriptor >= 0 else { return }
        for number in signals { signal(number, SIG_DFL) }
        signalPipeDescriptor = -1
    }

    /// The handler: one byte naming the signal; async-signal-safe.
    static func received(_ signal: Int32) {
        let descriptor = signalPipeDescriptor
        guard descriptor >= 0 else { return }
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(descriptor, &byte, 1)
    }
}
