import Foundation

/// Runs a command line with bash in a directory and returns its standard output.
package func runWithBash(_ commandLine: String, in directory: URL, environment: [String: String]? = nil) async throws
    -> Data
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")  // $'…' quoting needs bash
    process.arguments = ["-c", commandLine]
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait on a thread of its own: blocking one of the few cooperative threads while curl
    // talks to an in-process server that needs them deadlocks the test run.
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let data = try output.fileHandleForReading.readToEnd() ?? Data()
                process.waitUntilExit()
                continuation.resume(returning: data)
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

extension Process {
    /// Runs the process and waits for it to exit without holding a thread: its termination
    /// handler resumes the caller, so a test waiting for a slow process never takes one of the
    /// few cooperative threads that servers in other tests need.
    ///
    /// - Returns: its termination status.
    package func runToExit() async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
