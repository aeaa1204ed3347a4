import Foundation
import Synchronization
import Workspace

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers `{{prompt "Label"}}` for the CLI: asks on the terminal (stderr, so stdout stays the
/// response), without echo when the label names a credential (`Password`, `API token` …), each
/// label once per process. When stdin is not a terminal nobody can answer: the request is not
/// sent, and the error says to give the answer with `--var "Label=…"` (exit code 2).
final class TerminalPrompter: TemplatePrompter, Sendable {
    private struct Asked {
        var answers: [String: String] = [:]
        var secrets: [String] = []
    }
    /// A whole prompt runs under the lock, so two requests never ask at once.
    private let asked = Mutex(Asked())

    /// Why a prompt could not be answered.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var secretAnswers: [String] { asked.withLock { $0.secrets } }

    func answer(_ label: String) throws -> String {
        try asked.withLock { asked in
            if let given = asked.answers[label] { return given }
            guard isatty(STDIN_FILENO) == 1 else {
                throw Failure(
                    description:
                        "prompt \"\(label)\" needs a terminal to ask on (stdin is not one); "
                        + "give the answer with --var \"\(label)=…\""
                )
            }
            let secret = PromptAnswers.isSecret(label)
            writeStandardError(ExchangeOutput.escapingControls("\(label): ", keepingLineBreaks: false))
            var saved = termios()
            let hidden = secret && tcgetattr(STDIN_FILENO, &saved) == 0
            if hidden {
                var quiet = saved
                quiet.c_lflag &= ~tcflag_t(ECHO)
                tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
            }
            let line = readLine(strippingNewline: true)
            if hidden {
                tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                writeStandardError("\n")
            }
            guard let line else { throw Failure(description: "prompt \"\(label)\" got no answer (end of input)") }
            asked.answers[label] = line
            if secret { asked.secrets.append(line) }
            return line
        }
    }
}

extension RequestResolver {
    /// The CLI's resolver: `{{prompt "Label"}}` asks on the terminal (one prompter per
    /// process, so a label is asked once however many requests use it).
    static var asking: RequestResolver {
        var resolver = RequestResolver()
        resolver.prompter = TerminalPrompter.shared
        return resolver
    }
}

extension TerminalPrompter {
    /// The process's prompter.
    static let shared = TerminalPrompter()
}
