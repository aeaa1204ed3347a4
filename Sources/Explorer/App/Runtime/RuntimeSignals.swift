#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the runtime's self-pipe, read by the signal handler.
private nonisolated(unsafe) var signalPipeDescriptor: Int32 = -1

/// Turns SIGWINCH, SIGTERM, SIGHUP and SIGINT into bytes on a pipe the runtime's main
/// queue reads, so no work happens inside a signal handler beyond one `write`.
enum RuntimeSignals {
    /// The signals the runtime handles.
    static let handled: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT]

    /// Installs the handlers.
    ///
    /// - Parameter writeDescriptor: the pipe's (non-blocking) write end.
    static func install(writeDescriptor: Int32) {
        signalPipeDescriptor = writeDescriptor
        for number in handled {
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

    /// Puts the default dispositions back.
    static func uninstall() {
        guard signalPipeDescriptor >= 0 else { return }
        signalPipeDescriptor = -1
        for number in handled { signal(number, SIG_DFL) }
    }

    /// The handler: one byte naming the signal; async-signal-safe.
    static func received(_ signal: Int32) {
        let descriptor = signalPipeDescriptor
        guard descriptor >= 0 else { return }
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(descriptor, &byte, 1)
    }
}
