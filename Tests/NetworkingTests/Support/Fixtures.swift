import Foundation
import Networking
import Testing

/// A server provider whose base URL can be switched.
final class TestEnvironment: ServerProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var url: URL?

    init(_ url: URL?) { self.url = url }

    var baseURL: URL? {
        lock.lock()
        defer { lock.unlock() }
        return url
    }

    func switchTo(_ url: URL?) {
        lock.lock()
        self.url = url
        lock.unlock()
    }
}

/// What the echo route answers.
struct Echo: Decodable, Sendable {
    var method: String
    var uri: String
    var path: String
    var headers: [[String]]
    var body: String
    var bodyBase64: String

    func header(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }
}

/// A transport shared by the tests of one process (one long-lived client, as in an app).
let sharedTransport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))

/// The phase of the `timedOut` error a send ends with, or what it ended with instead.
func timeoutPhase(_ transport: AsyncHTTPClientTransport, _ request: PreparedRequest, _ options: TransferOptions) async
    -> String
{
    do {
        _ = try await transport.send(request, options: options) { _ in }
        return "an answer"
    } catch TransportError.timedOut(_, let phase) {
        return phase
    } catch {
        return "\(error)"
    }
}

/// Polls a condition until it holds or the deadline passes: long, since the whole suite runs at
/// once on a pool of as many threads as cores, and only a failing test waits it out.
func eventually(timeout: Duration = .seconds(120), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Counts calls from any thread.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func hit(_ name: String) {
        lock.lock()
        counts[name, default: 0] += 1
        lock.unlock()
    }

    func count(_ name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[name, default: 0]
    }

    /// The names hit so far that start with `prefix`, sorted (what a failed expectation shows).
    func names(startingWith prefix: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return counts.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }
}
