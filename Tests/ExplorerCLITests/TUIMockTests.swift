import Demo
import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import ExplorerCLI
@testable import Workspace

/// The TUI's mock (`O`) for real: the reducer and the program as the runtime runs them, the
/// mock server on 127.0.0.1 serving the demo's own OpenAPI document, and a request of the
/// session sent to it through the program's transport.
@Suite struct TUIMockTests {
    /// The reducer on a state and the program on its effects, in order, as the runtime does;
    /// what the effects report is folded back in by `settle(until:)`.
    final class Session {
        var state: AppState
        let program: ExplorerProgram
        let reported = Collected<AppAction>()
        private var folded = 0

        init(_ state: AppState, program: ExplorerProgram) {
            self.state = state
            self.program = program
        }

        /// What a key bound to `command` does.
        func press(_ command: AppCommand) {
            perform(AppReducer.perform(command, &state))
        }

        private func run(_ action: AppAction) {
            perform(AppReducer.reduce(&state, action))
        }

        private func perform(_ effects: [AppEffect]) {
            for effect in effects {
                program.perform(effect, send: reported.append)
            }
        }

        /// Waits until an action satisfying `condition` is reported, folding every reported
        /// action into the state in order.
        func settle(
            timeout: Duration = .seconds(120), until condition: @escaping @Sendable (AppAction) -> Bool
        ) async -> Bool {
            let arrived = await reported.wait(timeout: timeout, for: condition)
            while folded < reported.all.count {
                let next = reported.all[folded]
                folded += 1
                run(next)
            }
            return arrived
        }
    }

    private func folder() throws -> URL { try TemporaryFolder().url }

    @Test func aRequestSentInTheMockEnvironmentIsAnsweredByTheMockServerAndLogged() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(DemoOpenAPI.json.utf8).write(to: folder.appendingPathComponent("demo-openapi.json"))
        let file = folder.appendingPathComponent("api.yaml")
        // Nothing listens on port 9: an answer can only come from the mock.
        try """
        name: Mocked
        openapi: demo-openapi.json
        environments:
          - name: local
            base_url: http://127.0.0.1:9/v1
            variables: { user_id: "42" }
        endpoints:
          - name: Get user
            path: /users/{{user_id}}
        """.write(to: file, atomically: true, encoding: .utf8)
        let collection = try CollectionLoader.load(from: file)
        let state = AppState(collection: collection, collectionPath: file.path)
        let program = ExplorerProgram(
            history: nil, collectionPath: file.path, clipboardWriter: nil,
            mockHost: SessionMockHost(history: nil))
        let session = Session(state, program: program)

        session.press(.mock)
        // Starting compiles the document's schemas: alone it takes a tenth of a second, but in
        // CI's whole parallel run on two cores it once took over 30 s. Waiting longer costs
        // nothing when it starts sooner.
        #expect(
            await session.settle(timeout: .seconds(120)) { if case .mockStarted = $0 { true } else { false } })
        let port = try #require(session.state.mock?.port)
        #expect(session.state.activeEnvironmentValue?.name == "mock")
        #expect(session.state.activeEnvironmentValue?.baseURLTemplate == "http://127.0.0.1:\(port)/v1")

        session.press(.send)
        #expect(await session.settle { if case .received = $0 { true } else { false } })
        let response = try #require(session.state.shown?.response)
        #expect(response.status == 200)
        #expect(session.state.shown?.url == "http://127.0.0.1:\(port)/v1/users/42")
        let body = (0..<response.document.lineCount).map { response.document.plainLine($0) }.joined(separator: "\n")
        // The document's example of `GET /users/{id}`.
        #expect(body.contains("\"email\": \"ada@example.com\""))

        #expect(
            await session.settle { action in
                if case .mockAnswered(let lines) = action {
                    lines.contains { $0.text.hasPrefix("GET /v1/users/42 → 200") }
                } else {
                    false
                }
            })
        #expect(session.state.mock?.answered == 1)

        // O stops it: the environment goes, and the port is closed.
        session.press(.mock)
        #expect(session.state.activeEnvironmentValue?.name == "local")
        await program.shutdown()
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        await #expect(throws: (any Error).self) {
            _ = try await transport.send(
                PreparedRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/v1/users/1")!),
                options: TransferOptions(timeout: .seconds(5), followsRedirects: false)
            ) { _ in }
        }
        try? await transport.shutdown()
    }

    @Test func aCollectionWithNothingToServeGetsAClearMessage() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("empty.yaml")
        try "name: Empty\nenvironments: [{ name: local, base_url: \"http://127.0.0.1:9\" }]\nendpoints: []\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let state = AppState(collection: try CollectionLoader.load(from: file), collectionPath: file.path)
        let program = ExplorerProgram(
            history: nil, collectionPath: file.path, clipboardWriter: nil, mockHost: SessionMockHost(history: nil))
        let session = Session(state, program: program)
        session.press(.mock)
        #expect(await session.settle { if case .mockFailed = $0 { true } else { false } })
        #expect(
            session.state.message
                == "No mock: \(file.path) has no endpoint to mock, and names no OpenAPI document with `openapi:`.")
        #expect(session.state.environments.map(\.name) == ["local"])
        await program.shutdown()
    }

    @Test func aProgramWithoutAHostSaysItCannotServeAMock() async throws {
        let collection = try CollectionLoader.parse("name: c\nendpoints: [{ name: P, path: /p }]\n", file: "c.yaml")
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let session = Session(AppState(collection: collection, collectionPath: "/tmp/c.yaml"), program: program)
        session.press(.mock)
        #expect(await session.settle { if case .mockFailed = $0 { true } else { false } })
        #expect(
            session.state.message
                == "No mock: this explorer cannot serve a mock; run explorer mock in another terminal.")
        await program.shutdown()
    }
}
