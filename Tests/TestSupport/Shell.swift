import Foundation

/// Runs a command line with bash in a directory and returns its standard output.
package func runWithBash(_ commandLine: String, in directory: URL, environment: [String: String]? = nil) async throws -> Data {
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
