#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the async-signal-safe restore needs, set up before the terminal changes mode.
///
/// Signal handlers cannot take locks or allocate, so this lives in plain globals written
/// once on the main thread before any handler is installed.
private nonisolated(unsafe) var restoreDescriptor: Int32 = -1
private nonisolated(unsafe) var restoreTermios = termios()
private nonisolated(unsafe) var restoreArmed = false
private nonisolated(unsafe) var restoreSequence: UnsafeMutablePointer<UInt8>?
private nonisolated(unsafe) var restoreSequenceLength = 0
private nonisolated(unsafe) var handlersInstalled = false
/// The actions in place before ours, by signal number, put back before re-raising so the
/// Swift runtime's backtracer (or a core dump) still happens.
private nonisolated(unsafe) var previousActions: UnsafeMutablePointer<sigaction>?

/// Puts the terminal back the way it was on every way out: a normal end, `exit`, a
/// crash signal. Only async-signal-safe calls (`write`, `tcsetattr`) are made from a
/// signal handler.
enum TerminalRestore {
    /// Mouse reporting, bracketed paste and attributes off, cursor shown, alternate screen
    /// left: what an interrupted session may have left on.
    static let resetSequence =
        "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"

    /// Signals that end the process abnormally; the handler restores and re-raises.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// Saves the terminal's settings and installs the exit and crash handlers.
    ///
    /// - Parameter descriptor: the terminal's file descriptor.
    static func arm(descriptor: Int32) {
        restoreDescriptor = descriptor
        if tcgetattr(descriptor, &restoreTermios) != 0 { restoreDescriptor = -1 }
        if restoreSequence == nil {
            let bytes = Array(resetSequence.utf8)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            restoreSequence = buffer
            restoreSequenceLength = bytes.count
        }
        restoreArmed = true
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { TerminalRestore.restoreNow() }
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        previous.initialize(repeating: sigaction(), count: 65)
        previousActions = previous
        for signal in crashSignals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { TerminalRestore.crashed($0) }
            #else
            action.__sigaction_handler.sa_handler = { TerminalRestore.crashed($0) }
            #endif
            // No SA_RESETHAND: the handler itself puts the previous action back, so the
            // Swift runtime's backtracer (if it had installed one) still reports the crash.
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Disarms after a clean end (the terminal is already restored).
    static func disarm() {
        restoreArmed = false
    }

    /// Writes the reset sequence and the saved settings; safe inside a signal handler.
    static func restoreNow() {
        guard restoreArmed else { return }
        restoreArmed = false
        let fd = restoreDescriptor
        guard fd >= 0 else { return }
        if let sequence = restoreSequence { _ = write(fd, sequence, restoreSequenceLength) }
        _ = tcsetattr(fd, TCSANOW, &restoreTermios)
    }

    /// The crash handler: restore, put the previous handler back, and re-raise so it (or
    /// the default action) runs.
    static func crashed(_ signal: Int32) {
        restoreNow()
        if let previousActions, signal > 0, signal < 65 {
            sigaction(signal, previousActions + Int(signal), nil)
        } else {
            Glibc.signal(signal, SIG_DFL)
        }
        raise(signal)
    }
}
