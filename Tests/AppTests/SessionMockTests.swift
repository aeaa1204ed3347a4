import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// The session's mock (`O`): an environment of the session alone, started and stopped through
/// effects, with its log (`L`).
@Suite struct SessionMockTests {
    private func started(port: Int = 45_123, _ state: inout AppState) {
        tuiReduce(
            &state,
            .mockStarted(MockStarted(port: port, baseURL: "http://127.0.0.1:\(port)/v1", routes: 3, source: "examples"))
        )
    }

    private func startEffect(_ effects: [AppEffect]) -> MockRequest? {
        effects.lazy.compactMap { if case .startMock(let request) = $0 { request } else { nil } }.first
    }

    @Test func oAsksForAMockOfTheActiveEnvironmentAndItBecomesTheActiveEnvironmentOnceItListens() throws {
        var state = try tuiState(environment: "staging")
        let request = try #require(startEffect(tuiPress(&state, .char("O"))))
        #expect(request.environment?.name == "staging")
        #expect(request.collection.name == "Shop API")
        #expect(state.message == "Starting a mock of staging in shop.yaml …")
        // Not an environment before it listens.
        #expect(state.environments.map(\.name) == ["local", "staging", "production"])

        started(&state)
        #expect(state.environments.map(\.name) == ["local", "staging", "production", "mock"])
        #expect(state.activeEnvironmentValue?.name == "mock")
        #expect(
            state.message
                == "Environment: mock, a mock of staging on port 45123 (3 routes, from examples): L log, O stop")
        // The collection itself does not have it: nothing writes it to the file.
        #expect(state.collection?.environments.map(\.name) == ["local", "staging", "production"])
    }

    @Test func theMockEnvironmentSendsToTheMockWithTheMockedEnvironmentsVariablesAndHeaders() throws {
        var state = try tuiState(environment: "production")
        tuiPress(&state, .char("O"))
        started(&state)
        let mock = try #require(state.activeEnvironmentValue)
        #expect(mock.baseURLTemplate == "http://127.0.0.1:45123/v1")
        // The mock is local: never protected, whatever it mocks.
        #expect(!mock.isProtected)
        // Reached directly, whatever proxy the process or the mocked environment names.
        #expect(mock.proxy == ProxySetting.none)
        state.endpointList.selected = 0
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .send(_, let plan)? = effects.first(where: { if case .send = $0 { true } else { false } }) else {
            Issue.record("Enter sent nothing: \(effects)")
            return
        }
        let resolved = try plan.resolve()
        #expect(resolved.url == "http://127.0.0.1:45123/v1/posts?page=1")
        #expect(resolved.request.headers["Authorization"] == "Bearer s3cret-prod-token")
        #expect(resolved.maskedHeaders["Authorization"] == "Bearer ••••••")
        #expect(resolved.environment.secrets == ["token"])
    }

    @Test func theListTheTitleAndThePickerShowItAsTheMockWithItsPort() throws {
        var state = try tuiState(width: 100, height: 30)
        tuiPress(&state, .char("O"))
        started(&state)
        let screen = screenText(state)
        #expect(screen.contains("● mock"))
        #expect(screen.contains("port 45123"))
        #expect(screen.contains("env  mock  port 45123"))
        tuiPress(&state, .char("e"))
        #expect(screenText(state).contains("mock, this session only"))
    }

    @Test func switchingAwayKeepsItAndOStopsItAndGoesBackToTheMockedEnvironment() throws {
        var state = try tuiState(environment: "staging")
        tuiPress(&state, .char("O"))
        started(&state)
        tuiPress(&state, .char("e"), .char("1"))
        #expect(state.activeEnvironmentValue?.name == "local")
        #expect(state.environments.map(\.name).last == "mock")
        tuiPress(&state, .char("e"), .char("4"))
        #expect(state.activeEnvironmentValue?.name == "mock")

        let effects = tuiPress(&state, .char("O"))
        #expect(effects.contains { if case .stopMock = $0 { true } else { false } })
        #expect(state.environments.map(\.name) == ["local", "staging", "production"])
        #expect(state.activeEnvironmentValue?.name == "staging")
        #expect(state.message == "Mock stopped (it answered 0 requests). Environment: staging")
    }

    @Test func stoppingWhileAnotherEnvironmentIsActiveKeepsThatOne() throws {
        var state = try tuiState()
        tuiPress(&state, .char("O"))
        started(&state)
        tuiPress(&state, .char("e"), .char("2"))
        tuiPress(&state, .char("O"))
        #expect(state.activeEnvironmentValue?.name == "staging")
        #expect(state.mock == nil)
    }

    @Test func oWhileItStartsDoesNotStartASecondOne() throws {
        var state = try tuiState()
        tuiPress(&state, .char("O"))
        let again = tuiPress(&state, .char("O"))
        #expect(startEffect(again) == nil)
        #expect(state.message == "The mock is starting …")
    }

    @Test func aMockThatCannotStartSaysWhyAndLeavesTheEnvironmentsAlone() throws {
        var state = try tuiState()
        tuiPress(&state, .char("O"))
        tuiReduce(
            &state,
            .mockFailed("/tmp/shop.yaml has no endpoint to mock, and names no OpenAPI document with `openapi:`."))
        #expect(state.mock == nil)
        #expect(state.messageIsError)
        #expect(
            state.message
                == "No mock: /tmp/shop.yaml has no endpoint to mock, and names no OpenAPI document with `openapi:`.")
        #expect(state.environments.count == 3)
        #expect(state.activeEnvironmentValue?.name == "local")
        // O tries again.
        #expect(startEffect(tuiPress(&state, .char("O"))) != nil)
    }

    @Test func aCollectionWithAnEnvironmentCalledMockGetsMock2() throws {
        let collection = try CollectionLoader.parse(
            """
            name: c
            environments:
              - { name: local, base_url: "http://127.0.0.1:9" }
              - { name: mock, base_url: "http://127.0.0.1:10" }
            endpoints: [{ name: Ping, path: /ping }]
            """, file: "c.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/c.yaml")
        tuiPress(&state, .char("O"))
        started(&state)
        #expect(state.environments.map(\.name) == ["local", "mock", "mock-2"])
        #expect(state.activeEnvironmentValue?.name == "mock-2")
    }

    @Test func aReloadOfTheCollectionKeepsTheMockEnvironmentActive() throws {
        var state = try tuiState()
        tuiPress(&state, .char("O"))
        started(&state)
        let reloaded = try CollectionLoader.parse(
            tuiCollectionYAML + "\n  - name: Ping\n    path: /ping\n", file: "shop.yaml")
        tuiReduce(&state, .collectionReloaded(reloaded))
        #expect(state.activeEnvironmentValue?.name == "mock")
        #expect(state.environments.count == 4)
    }

    @Test func theLogListsWhatItAnsweredKeepsTheNewestAndFollowsThem() throws {
        var state = try tuiState(width: 100, height: 30)
        tuiPress(&state, .char("L"))
        #expect(state.overlay == nil)
        #expect(state.message == "No mock is running: O starts one.")

        tuiPress(&state, .char("O"))
        started(&state)
        tuiPress(&state, .char("L"))
        #expect(screenText(state).contains("Nothing answered yet"))
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        tuiReduce(
            &state,
            .mockAnswered([
                MockLogLine(at: at, text: "GET /v1/posts → 200 (200 example)"),
                MockLogLine(at: at.addingTimeInterval(1), text: "GET /v1/nope\u{1B}[2J → 404"),
            ]))
        var screen = screenText(state)
        #expect(screen.contains("Mock · 2 answered"))
        #expect(screen.contains("08:00:00  GET /v1/posts → 200 (200 example)"))
        // What a request brings is drawn escaped, never raw.
        #expect(screen.contains("08:00:01  GET /v1/nope␛[2J → 404"))

        // Many more: the newest shows, and the count goes on past what is kept.
        let many = (1...MockSession.logLimit).map { MockLogLine(at: at, text: "GET /v1/posts/\($0) → 200") }
        tuiReduce(&state, .mockAnswered(many))
        screen = screenText(state)
        #expect(screen.contains("GET /v1/posts/\(MockSession.logLimit) → 200"))
        #expect(screen.contains("\(MockSession.logLimit + 2) answered"))
        #expect(state.mock?.log.count == MockSession.logLimit)

        // Scrolled up, it stays; Esc closes it.
        tuiPress(&state, KeyPress(.pageUp))
        tuiReduce(&state, .mockAnswered([MockLogLine(at: at, text: "GET /v1/latest → 200")]))
        #expect(!screenText(state).contains("GET /v1/latest"))
        tuiPress(&state, .char("G"))
        tuiReduce(&state, .mockAnswered([MockLogLine(at: at, text: "GET /v1/newest → 200")]))
        #expect(screenText(state).contains("GET /v1/newest"))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    @Test func theEnvironmentsFooterOffersTheMockKeys() throws {
        var state = try tuiState(width: 140)
        state.focus = .environments
        #expect(state.footerHints.contains(KeyHint(key: "O", label: "mock")))
        tuiPress(&state, .char("O"))
        started(&state)
        state.focus = .environments
        #expect(state.footerHints.contains(KeyHint(key: "O", label: "stop mock")))
        #expect(state.footerHints.contains(KeyHint(key: "L", label: "mock log")))
    }

    @Test func zResetsTheServedMocksResourcesAndSaysHowManyAreBack() throws {
        var state = try tuiState()
        // No mock: nothing to reset, and the key that starts one is named.
        #expect(!tuiPress(&state, .char("Z")).contains { if case .resetMock = $0 { true } else { false } })
        #expect(state.message == "No mock is running: O starts one.")
        tuiPress(&state, .char("O"))
        started(&state)
        // A mock without state has none to reset.
        #expect(tuiPress(&state, .char("Z")).isEmpty)
        #expect(state.message == "This mock keeps no state: O stops it, then U serves a stateful one.")
        tuiPress(&state, .char("O"))
        // U serves a stateful one.
        let request = try #require(startEffect(tuiPress(&state, .char("U"))))
        #expect(request.stateful)
        #expect(state.message == "Starting a stateful mock of local in shop.yaml …")
        started(&state)
        #expect(
            state.message
                == "Environment: mock, a mock of local on port 45123 (3 routes, from examples, stateful): "
                + "L log, Z reset, O stop")
        #expect(tuiPress(&state, .char("Z")).contains { if case .resetMock = $0 { true } else { false } })
        #expect(state.message == "Resetting the mock's resources …")
        tuiReduce(&state, .mockStateReset(4))
        #expect(state.message == "Mock reset: 4 resources from the document's examples.")
    }

    @Test func thePaletteOffersTheMockReset() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("p"))
        tuiType(&state, "reset the mock")
        guard case .palette(let palette) = state.overlay else {
            Issue.record("the palette is not open")
            return
        }
        let first = try #require(CommandPalette.ranked(state, palette).first)
        #expect(first.entry.target == .command(.mockReset))
        #expect(first.entry.detail == "Z")
    }
}
