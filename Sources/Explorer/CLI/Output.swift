import Foundation

/// Writes one line to standard error.
///
/// - Parameter message: the line, without its trailing newline.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes one line to standard output at once, unbuffered (scripts read it while we run).
///
/// - Parameter line: the line, without its trailing newline.
@Sendable func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
