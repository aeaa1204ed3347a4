import App
import Checks
import Formats
import Foundation
import History
import Mock
import Synchronization
import Workspace

/// The TUI's mock (`O`): `explorer mock`'s server and plan, in this process, on a free port of
/// 127.0.0.1. It answers from the collection's OpenAPI examples when the collection names a
/// document, else from the history's last answers in the mocked environment (`--from
/// history`), since without a document that is all there is to answer with. A stateful one
/// (`U`) keeps resources as `explorer mock --stateful` does (in memory, never on disk), and
/// `resetState()` (`Z`) forgets what changed.
final class SessionMockHost: MockHosting {
    /// The history the answers of a collection without a document come from.
    private let history: HistoryStore?
    private let server = Mutex<MockServer?>(nil)
    private let store = Mutex<MockStateStore?>(nil)

    init(history: HistoryStore?) {
        self.history = history
    }

    func start(_ request: MockRequest, log: @escaping @Sendable (String) -> Void) async throws -> MockStarted {
        await stop()
        let collection = request.collection
        guard let file = collection.sourceURL else { throw MockError("the collection has no file to mock.") }
        let source: MockSource = collection.openAPI == nil ? .history : .examples
        let contract = try await ResponseContract.linked(for: collection)
        let plan = try MockPlan.serving(
            collection, file: file, contract: contract?.contract, environment: request.environment,
            source: source, history: history)
        let state = request.stateful ? MockStateStore(seededFrom: plan) : nil
        let started = try await MockServer.start(
            plan: plan, port: 0, state: state, accessLog: { line in log(Self.withoutPrefix(line)) })
        server.withLock { $0 = started }
        store.withLock { $0 = state }
        return MockStarted(
            port: started.port, baseURL: plan.baseURL(port: started.port), routes: plan.routes.count,
            source: source.rawValue)
    }

    func resetState() async -> Int? {
        guard let state = store.withLock({ $0 }) else { return nil }
        state.reset()
        return state.count
    }

    func stop() async {
        store.withLock { $0 = nil }
        let running = server.withLock { server in
            defer { server = nil }
            return server
        }
        await running?.stop()
    }

    /// The access log's line without the column that names the server (`mock       GET …`):
    /// in the TUI's log every line is the mock's.
    static func withoutPrefix(_ line: String) -> String {
        guard line.hasPrefix("mock ") else { return line }
        return String(line.dropFirst(4).drop { $0 == " " })
    }
}
