import Foundation
import Networking
import Testing

// The example of docs/networking.md, kept compiling and passing: a ServerProvider, a dispatcher, a future
// chain with decoding, and an error body read as problem details.

private final class Environment: ServerProvider {
    var baseURL: URL?
    init(baseURL: URL?) { self.baseURL = baseURL }
}

private struct Post: Decodable, Sendable {
    let id: Int
    let title: String
}

@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleWorks() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let lines = Lines()

        // --- docs/networking.md example begins (with the test server's address) ---
        let environment = Environment(baseURL: server.baseURL.appendingPathComponent("readme/v1"))
        // One shared AsyncHTTPClient transport, shut down at exit; callbacks on the main queue unless
        // you pass another (a program whose main thread runs no main queue must).
        let dispatcher = NetworkDispatcher(serverProvider: environment, callbackQueue: .global())

        // Callbacks:
        dispatcher.future(from: BasicRequest(path: "/posts/1"))
            .ensureValidResponse()
            .ensureDecoded(Post.self)
            .response { response in lines.append("\(response.statusCode): \(response.body.title)") }
            .error { error in lines.append("failed: \(error)") }
            .completion { lines.append("done") }
            .send()

        // async/await, and an error body that is never lost:
        do {
            _ = try await dispatcher.future(from: BasicRequest(path: "/posts/2")).ensureValidResponse().ensureDecoded(
                Post.self
            ).value
        } catch let error as HTTPError {
            lines.append("\(error.status): \(error.problemDetails?.detail ?? "")")
        }
        // --- docs/networking.md example ends ---

        #expect(await eventually { lines.all.contains("done") })
        #expect(lines.all.contains("200 OK: Hello, Linux"))
        #expect(lines.all.contains("404 Not Found: No post with that id."))
        withExtendedLifetime(environment) {}
    }
}

/// Lines collected from any thread.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
