/// Why the terminal could not be set up.
package enum CursesError: Error, Sendable, CustomStringConvertible {
    /// No terminal to draw on (neither /dev/tty nor stdin/stdout is one).
    case noTerminal
    /// ncurses does not know the terminal type.
    case setupFailed(term: String)

    /// One clear sentence.
    package var description: String {
        switch self {
        case .noTerminal:
            return "explorer's interface needs a terminal, and neither /dev/tty nor standard input is one."
        case .setupFailed(let term):
            return "The terminal type '\(term)' is unknown to ncurses; set TERM to xterm-256color or similar."
        }
    }
}
