import Foundation
import Workspace

/// Starts and stops the mock server a TUI session serves its collection from (`O`):
/// `explorer mock`'s server, in this process. The executable gives it to the program, since
/// the App module does not link the server; a program without one says so when asked.
package protocol MockHosting: Sendable {
    /// Serves a mock of `request.collection` on a free port of 127.0.0.1 (a mock already
    /// served is stopped first).
    ///
    /// - Parameters:
    ///   - request: the collection and the environment to mock.
    ///   - log: called with one line per request the mock answers, from any thread.
    /// - Returns: where it listens and what it serves.
    /// - Throws: an error whose description is one sentence for the user (nothing to serve,
    ///   a document that does not read, no port).
    func start(_ request: MockRequest, log: @escaping @Sendable (String) -> Void) async throws -> MockStarted

    /// Stops the mock (nothing when none is served); returns once its port is released.
    func stop() async

    /// Forgets what the served mock's clients posted, changed and deleted: its resources are
    /// the document's examples again.
    ///
    /// - Returns: how many resources it keeps now, or `nil` when no stateful mock is served.
    func resetState() async -> Int?
}

extension MockHosting {
    /// A host whose mocks keep no state has nothing to reset.
    package func resetState() async -> Int? { nil }
}

/// What the TUI asks to mock: the collection as loaded, in one of its environments.
package struct MockRequest: Sendable {
    /// The collection (its `sourceURL` locates its `openapi:` document).
    package let collection: APICollection
    /// The environment whose base path, variables and history the mock serves, or `nil`.
    package let environment: Environment?
    /// Whether it keeps resources as `explorer mock --stateful` does (in memory only).
    package let stateful: Bool

    package init(collection: APICollection, environment: Environment?, stateful: Bool = false) {
        self.collection = collection
        self.environment = environment
        self.stateful = stateful
    }
}

/// A mock that listens.
package struct MockStarted: Sendable {
    /// Its port on 127.0.0.1.
    package let port: Int
    /// Its base URL, with the base path it serves (`http://127.0.0.1:8080/v1`).
    package let baseURL: String
    /// How many routes it answers.
    package let routes: Int
    /// Where its answers come from (`examples`, `history`), for the message.
    package let source: String

    package init(port: Int, baseURL: String, routes: Int, source: String) {
        self.port = port
        self.baseURL = baseURL
        self.routes = routes
        self.source = source
    }
}

/// One request the mock answered, as its log shows it.
package struct MockLogLine: Sendable, Hashable {
    /// When it was answered.
    package let at: Date
    /// `GET /v1/users/1 → 200 (example 'ada')`, as the request wrote it (untrusted: drawn
    /// through the sanitizer).
    package let text: String

    package init(at: Date, text: String) {
        self.at = at
        self.text = text
    }
}
