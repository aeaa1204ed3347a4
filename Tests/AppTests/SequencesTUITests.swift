import Foundation
import TestSupport
import Testing

@testable import App
@testable import Checks
@testable import Demo
@testable import History
@testable import Terminal
@testable import Workspace

/// The TUI's sequence features: the variables view (`v`) with each value and where it came
/// from, clearing a captured one (`x`); a folder run (`Ctrl-R`) with results beside each
/// endpoint and `explorer run`'s summary; `requires:` sent first on a TUI send.
@Suite struct SequencesTUITests {
    // MARK: - Variables view

    /// Captured 9 minutes before `tuiNow` (06:13 UTC).
    private let capturedAt = tuiNow.addingTimeInterval(-9 * 60)

    private func variablesState() throws -> AppState {
        var state = try tuiState(width: 100, height: 30)
        let effects = tuiPress(&state, .char("v"))
        guard case .listVariables(let environment, _)? = effects.first else {
            Issue.record("v asks for the variables, got \(effects)")
            return state
        }
        #expect(environment.name == "local")
        #expect(screenText(state).contains("Reading the variables"))
        let rows = environment.shownVariables(
            captured: [
                "order_id": CapturedVariable(
                    value: "order-77", endpoint: "Orders/Create", capturedAt: capturedAt, isSecret: false),
                "session": CapturedVariable(
                    value: "sess-s3cret", endpoint: "Auth/Login", capturedAt: capturedAt, isSecret: true),
            ], processEnvironment: [:])
        tuiReduce(&state, .variablesListed(environment: "local", rows))
        return state
    }

    @Test func theVariablesViewShowsEachValueAndWhereItCameFrom() throws {
        let state = try variablesState()
        let screen = screenText(state)
        #expect(screen.contains("order_id = order-77"))
        #expect(screen.contains("captured from Orders/Create 06:04"))
        #expect(screen.contains("session = ••••••"), "a secret capture is masked")
        #expect(screen.contains("captured from Auth/Login 06:04"))
        #expect(!screen.contains("sess-s3cret"))
        #expect(screen.contains("user_id = 1"))
        #expect(screen.contains("environment"))
        assertSnapshot(tuiScreen(state), named: "variables-100x30")
    }

    @Test func aCaptureFromAnotherDayShowsItsDate() throws {
        let state = try tuiState()
        let yesterday = OverlayView.originText(
            .captured(endpoint: "Auth/Login", at: tuiNow.addingTimeInterval(-86_400)), state: state)
        #expect(yesterday.hasPrefix("captured from Auth/Login 20"))
        #expect(yesterday.count == "captured from Auth/Login 2026-05-09 06:13".count)
    }

    @Test func xClearsTheSelectedCapturedVariableAndNotAFileVariable() throws {
        var state = try variablesState()
        let cleared = tuiPress(&state, .char("x"))
        guard case .clearCapture(let name, let environment, _)? = cleared.first else {
            Issue.record("x on a captured variable clears it, got \(cleared)")
            return
        }
        #expect(name == "order_id" && environment.name == "local")
        #expect(state.message == "Cleared order_id (captured from Orders/Create).")

        tuiPress(&state, .char("j"))
        tuiPress(&state, .char("j"))
        let refused = tuiPress(&state, .char("x"))
        #expect(!refused.contains { if case .clearCapture = $0 { return true } else { return false } })
        #expect(state.message?.contains("comes from the collection file") == true)

        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    // MARK: - Folder runs

    private func selectRow(_ label: String, _ state: inout AppState) throws {
        let index = try #require(state.endpointRows.firstIndex { $0.folder == label || $0.endpoint?.name == label })
        state.endpointList.selected = index
    }

    @Test func ctrlRRunsTheSelectedFolderOrTheFolderOfTheSelectedEndpoint() throws {
        var state = try tuiState()
        try selectRow("Users", &state)
        guard case .runFolder(_, let plan)? = tuiPress(&state, .ctrl("r")).first else {
            Issue.record("Ctrl-R runs the folder")
            return
        }
        #expect(plan.endpoints.map(\.id) == ["Users/Get user", "Users/Create user"])
        #expect(plan.environment.name == "local")
        #expect(state.message?.hasPrefix("Running Users · local") == true)

        var top = try tuiState()
        try selectRow("List posts", &top)
        guard case .runFolder(_, let all)? = tuiPress(&top, .ctrl("r")).first else {
            Issue.record("Ctrl-R on a top-level endpoint runs the collection")
            return
        }
        #expect(all.endpoints.count == 3)
    }

    @Test func aProtectedEnvironmentIsNotRunFromTheTUIWhenTheFolderSendsMoreThanGets() throws {
        var state = try tuiState(environment: "production")
        try selectRow("Users", &state)
        #expect(tuiPress(&state, .ctrl("r")).isEmpty)
        #expect(state.message?.contains("explorer run --yes") == true)
    }

    @Test func resultsShowBesideEachEndpointAndTheSummaryAtTheEnd() throws {
        var state = try tuiState(width: 100, height: 30)
        try selectRow("Users", &state)
        guard case .runFolder(let id, let plan)? = tuiPress(&state, .ctrl("r")).first else {
            Issue.record("Ctrl-R runs the folder")
            return
        }
        var passed = SequenceStep<Int>(endpoint: plan.endpoints[0], report: CheckReport(), attempts: 1)
        passed.exchange = SentExchange(
            response: CheckedResponse(status: 200, headers: [:], body: Data(), durationMilliseconds: 12),
            failure: nil, record: 200)
        let first = RunResult(step: passed, iteration: 1, status: 200, milliseconds: 12)
        tuiReduce(&state, .runStepped(run: id, first))
        #expect(state.message?.contains("[1/2] ✓ Users/Get user 200") == true)
        #expect(screenText(state).contains("✓ -"), "the result shows beside the endpoint")

        // Esc stops a run in progress.
        #expect(
            tuiPress(&state, KeyPress(.escape)).contains {
                if case .cancelRun(id) = $0 { return true } else { return false }
            })

        var failed = SequenceStep<Int>(endpoint: plan.endpoints[1], report: CheckReport(), attempts: 1)
        failed.exchange = SentExchange(response: nil, failure: "Connection refused", record: 0)
        let second = RunResult(step: failed, iteration: 1, status: nil, milliseconds: 3)
        let summary = RunSummary(
            collection: "Shop API", environment: "local", results: [first, second], seconds: 0.2, startedAt: tuiNow)
        #expect(
            tuiReduce(&state, .runFinished(run: id, summary)).contains {
                if case .loadHistory = $0 { return true } else { return false }
            })
        let screen = screenText(state)
        #expect(screen.contains("Run · Users · local"))
        #expect(screen.contains("ENDPOINT"))
        #expect(screen.contains("Connection refused"))
        #expect(state.message == "Users · local: 2 requests in 0.20 s: 1 passed, 0 failed, 1 error")
        #expect(state.messageIsError)
    }

    // MARK: - Against the demo API

    private func demoCollection(port: Int) throws -> APICollection {
        try CollectionLoader.parse(
            """
            name: Chain
            environments:
              - name: local
                base_url: http://127.0.0.1:\(port)
            endpoints:
              - folder: Steps
                endpoints:
                  - name: Health
                    path: /users/1
                    assert: [status == 200]
                  - name: Missing
                    path: /users/999999
                    assert: [status == 200]
                  - name: After health
                    path: /users/2
                    requires: [Steps/Health]
                    assert: [status == 200]
                  - name: After missing
                    path: /users/3
                    requires: [Steps/Missing]
            """, file: "chain.yaml")
    }

    private func temporaryHistory() throws -> HistoryStore {
        let folder = try TemporaryFolder().url
        return try HistoryStore(fileURL: folder.appendingPathComponent("history.sqlite"))
    }

    @Test func aTUISendSendsWhatTheEndpointRequiresFirstAndNotTheEndpointWhenThatFails() async throws {
        let server = try await DemoServer.start(port: 0)
        let collection = try demoCollection(port: try #require(server.environments.first).port)
        let environment = try #require(collection.environments.first)
        let store = try temporaryHistory()
        let program = ExplorerProgram(
            history: HistoryRecorder(store: store, report: { _ in }), collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        let send: @Sendable (AppAction) -> Void = { reported.append($0) }

        let after = try collection.endpoint(named: "Steps/After health")
        program.perform(
            .send(
                exchange: 1, RequestPlan(endpoint: after, collection: collection, environment: environment, revision: 1)
            ), send: send)
        #expect(await reported.wait { if case .received(exchange: 1, _) = $0 { return true } else { return false } })
        let first = reported.all.compactMap { if case .message(let text, _) = $0 { return text } else { return nil } }
            .first
        #expect(
            first == "Sent Steps/Health first (it captures nothing, so it is always sent first): 200 OK, 1/1 checks")

        let blocked = try collection.endpoint(named: "Steps/After missing")
        program.perform(
            .send(
                exchange: 2,
                RequestPlan(endpoint: blocked, collection: collection, environment: environment, revision: 1)),
            send: send)
        #expect(
            await reported.wait {
                if case .resolveFailed(exchange: 2, let why) = $0 {
                    return why
                        == "Steps/Missing did not succeed (404 Not Found, 0/1 checks), so Steps/After missing was not sent."
                }
                return false
            })
        #expect(!reported.all.contains { if case .received(exchange: 2, _) = $0 { return true } else { return false } })
        // The prerequisites are in the history with the exchange itself.
        #expect(await reported.wait { if case .recorded(exchange: 1, _) = $0 { return true } else { return false } })
        // Recorded off the main queue: poll for them.
        let deadline = ContinuousClock.now + .seconds(120)
        while try store.summaries().count < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(
            Set(try store.summaries().compactMap(\.endpoint)) == [
                "Steps/Health", "Steps/After health", "Steps/Missing",
            ])
        await program.shutdown()
        await server.stop()
    }

    @Test func aFolderRunSendsEachEndpointThroughTheRunnerAndEndsWithTheSummary() async throws {
        let server = try await DemoServer.start(port: 0)
        let collection = try demoCollection(port: try #require(server.environments.first).port)
        let environment = try #require(collection.environments.first)
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        let plan = RunPlan(
            collection: collection, environment: environment, endpoints: Array(collection.endpoints.prefix(3)),
            title: "Steps")
        program.perform(.runFolder(run: 7, plan), send: { reported.append($0) })
        #expect(await reported.wait { if case .runFinished(run: 7, _) = $0 { return true } else { return false } })
        guard case .runFinished(_, let summary)? = reported.all.last else {
            Issue.record("the summary comes last")
            return
        }
        // Health, Missing, then After health (its Health is sent again first: it captures nothing).
        #expect(
            summary.results.map(\.endpoint) == ["Steps/Health", "Steps/Missing", "Steps/Health", "Steps/After health"])
        #expect(summary.results.map(\.outcome) == [.passed, .failed, .passed, .passed])
        #expect(summary.exitCode == 3)
        let stepped = reported.all.filter { if case .runStepped(run: 7, _) = $0 { return true } else { return false } }
        #expect(stepped.count == 4)
        await program.shutdown()
        await server.stop()
    }
}
