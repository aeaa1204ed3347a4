import Foundation

/// Writes one line to standard error, control characters escaped: a message quotes what
/// servers and files said (a GraphQL or OAuth2 error, a name from an import), and none of it
/// reaches the terminal raw.
///
/// - Parameter message: the line, without its trailing newline.
func printError(_ message: String) {
    writeStandardError(ExchangeOutput.escapingControls(message) + "\n")
}

/// Writes text to standard error as it is (a prompt, a progress line redrawn in place).
///
/// A failure is ignored: nothing is left to tell when standard error cannot be written to
/// (closed, or its terminal gone), and Foundation's `write(_:)` would end the process with a
/// fatal error and a stack trace.
func writeStandardError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

/// Writes one line to standard output at once, unbuffered (scripts read it while we run).
///
/// - Parameter line: the line, without its trailing newline.
@Sendable func printLine(_ line: String) {
    writeStandardOutput(Data((line + "\n").utf8))
}

/// Writes bytes to standard output. When its reader has gone (`explorer history | head -1`
/// read what it wanted), the process ends as command-line tools do, by SIGPIPE (status 141,
/// no message), not with Foundation's fatal error and a stack trace; any other failure (a full
/// disk) is a sentence on standard error and status 1.
///
/// - Parameter data: the bytes.
@Sendable func writeStandardOutput(_ data: Data) {
    do {
        try FileHandle.standardOutput.write(contentsOf: data)
    } catch {
        let failure = error as NSError
        let cause = failure.userInfo[NSUnderlyingErrorKey] as? NSError ?? failure
        if cause.domain == NSPOSIXErrorDomain, cause.code == Int(EPIPE) {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(141)
        }
        printError("explorer could not write to standard output: \(cause.localizedDescription)")
        exit(1)
    }
}
