import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import Workspace

/// Each effect service alone, without a program or a runtime: what it keeps, what it tells.
@Suite struct EffectServicesTests {
    /// Two environments to the same closed port, one through a proxy (a transport of its own).
    static let collectionText = """
        name: Services
        environments:
          - name: plain
            base_url: http://127.0.0.1:9
          - name: proxied
            base_url: http://127.0.0.1:9
            proxy: http://127.0.0.1:3128
        endpoints:
          - name: Get thing
            method: GET
            path: /thing
        """

    private func collection() throws -> APICollection {
        try CollectionLoader.parse(Self.collectionText, file: "services.yaml")
    }

    private func folder() throws -> URL { try TemporaryFolder().url }

    // MARK: - Transports

    @Test func anEnvironmentWithNothingOfItsOwnUsesTheSharedTransportAndOneWithAProxyGetsItsOwnOnce() async throws {
        let shared = AsyncHTTPClientTransport()
        let pool = TransportPool(shared: shared, collectionPath: nil)
        let collection = try collection()
        #expect(try pool.transport(for: collection.environments[0]) === shared)
        let proxied = try pool.transport(for: collection.environments[1])
        #expect(proxied !== shared)
        #expect(try pool.transport(for: collection.environments[1]) === proxied, "made once")
        #expect(pool.proxyNote(for: collection.environments[1], url: "http://example.com/") != nil)
        #expect(pool.proxyNote(for: collection.environments[0], url: "http://example.com/") == nil)
        await pool.shutdown()
    }

    // MARK: - What a cancel stops

    @Test func aCancelStopsTheWorkStartedForItsExchangeAndNoOther() async {
        let tasks = ExchangeTasks()
        let first = Task { _ = try? await Task.sleep(for: .seconds(60)) }
        let second = Task { _ = try? await Task.sleep(for: .seconds(60)) }
        let run = Task { _ = try? await Task.sleep(for: .seconds(60)) }
        tasks.started(.exchange(1), first)
        tasks.started(.exchange(2), second)
        tasks.started(.run(1), run)
        tasks.cancelExchange(1)
        #expect(first.isCancelled)
        #expect(!second.isCancelled)
        #expect(!run.isCancelled, "a run and an exchange with the same number are not the same")
        tasks.done(.exchange(2))
        tasks.cancelExchange(2)
        #expect(!second.isCancelled, "work that said it was done is no longer cancelled")
        tasks.cancelRun(1)
        #expect(run.isCancelled)
        second.cancel()
    }

    // MARK: - Cookie jars

    @Test func aJarIsReadOnceAndWhatIsDeletedIsSaved() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CookieStore(fileURL: folder.appendingPathComponent("cookies.json"))
        let jars = CookieJars(store: store)
        let key = CookieJars.Key(collection: "c", environment: "plain")
        let ignore: @Sendable (String) -> Void = { _ in }
        let jar = try #require(jars.jar(key, report: ignore))
        #expect(jars.jar(key, report: ignore) === jar, "the same jar for the session")
        _ = jar.store(setCookie: ["session=abc; Path=/"], from: try #require(URL(string: "http://example.com/")))
        try store.save(jar, collection: "c", environment: "plain")
        #expect(try jars.cookies(key).map(\.name) == ["session"])
        jars.delete(key, only: nil, report: { Issue.record("unexpected report: \($0)") })
        #expect(try jars.cookies(key).isEmpty)
        #expect(try store.cookies(collection: "c", environment: "plain").isEmpty, "the deletion is kept")
    }

    @Test func withoutAStoreNoCookiesAreKeptAndThePanelSaysSo() throws {
        let jars = CookieJars(store: nil)
        let key = CookieJars.Key(collection: "c", environment: "plain")
        let ignore: @Sendable (String) -> Void = { _ in }
        #expect(jars.jar(key, report: ignore) == nil)
        #expect(throws: CookieJars.Unkept.self) { try jars.cookies(key) }
    }

    // MARK: - The contract

    @Test func aCollectionWithoutADocumentIsNotCheckedAndOneNamedByURLIsFetchedFirst() throws {
        let contracts = ContractCache()
        guard case .ready(let none) = contracts.known(for: try collection(), report: { _, _ in }) else {
            Issue.record("a collection without openapi: needs nothing fetched")
            return
        }
        #expect(none == nil)
        let linked = try CollectionLoader.parse(
            "openapi: http://127.0.0.1:9/openapi.json\n" + Self.collectionText, file: "services.yaml")
        guard case .fetching = contracts.known(for: linked, report: { _, _ in }) else {
            Issue.record("a document named by URL is fetched before it is known")
            return
        }
    }

    @Test func aDocumentThatDoesNotReadIsToldAsAnErrorAndNotCheckedAgainstUntilItChanges() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("services.yaml")
        try Data(("openapi: missing.yaml\n" + Self.collectionText).utf8).write(to: file)
        let collection = try CollectionLoader.load(from: file)
        let contracts = ContractCache()
        let told = Collected<String>()
        guard case .ready(let validation) = contracts.known(for: collection, report: { told.append("\($1) \($0)") })
        else {
            Issue.record("a file is read at once")
            return
        }
        #expect(validation == nil)
        #expect(told.all.count == 1)
        #expect(told.all.first?.hasPrefix("true Responses are not checked against openapi:") == true)
        _ = contracts.known(for: collection, report: { sentence, _ in told.append(sentence) })
        #expect(told.all.count == 1, "told once while the file is the same")
    }

    // MARK: - The session's mock

    @Test func aProgramWithoutAMockHostSaysHowToServeOne() async {
        let control = SessionMockControl(host: nil, queue: .global())
        let told = Collected<AppAction>()
        control.start(MockRequest(collection: try! collection(), environment: nil), send: told.append)
        #expect(
            await told.wait { action in
                if case .mockFailed(let sentence) = action { return sentence.contains("explorer mock") }
                return false
            })
        await control.shutdown()
    }

    @Test func whatTheMockAnswersInABurstReachesTheReducerAsOneBatchAndAStopWaitsForItsStart() async throws {
        let host = RecordingMockHost()
        let control = SessionMockControl(host: host, queue: .global())
        let told = Collected<AppAction>()
        control.start(MockRequest(collection: try collection(), environment: nil), send: told.append)
        #expect(
            await told.wait { if case .mockStarted = $0 { return true } else { return false } })
        for number in 1...5 { host.answer("GET /thing \(number)") }
        #expect(
            await told.wait { action in
                if case .mockAnswered(let lines) = action { return lines.count == 5 }
                return false
            })
        control.stop()
        await control.shutdown()
        #expect(host.changes.all == ["start", "stop"], "the stop asked while one runs is that one")
    }

    @Test func theMockRunsOneStartOrStopAtATimeAndThenOnlyTheLastRequestThatWaited() {
        var machine = SessionMockControl.StateMachine<String>()
        guard case .start("a") = machine.startRequested("a") else {
            Issue.record("a start from stopped starts")
            return
        }
        // Asked while "a" starts: only the last waits.
        guard case .none = machine.startRequested("b"), case .none = machine.stopRequested(),
            case .none = machine.startRequested("c")
        else {
            Issue.record("nothing else runs while a start runs")
            return
        }
        guard case .start("c") = machine.startEnded(succeeded: true) else {
            Issue.record("the last request runs once the start ends")
            return
        }
        #expect(machine.state == .starting)
        guard case .none = machine.startEnded(succeeded: true) else {
            Issue.record("nothing waited")
            return
        }
        #expect(machine.state == .serving)
        #expect(!machine.isBusy)
        guard case .stop = machine.stopRequested(), case .none = machine.stopRequested() else {
            Issue.record("a second stop while one runs is that one")
            return
        }
        guard case .none = machine.stopEnded() else {
            Issue.record("nothing waited")
            return
        }
        #expect(machine.state == .stopped)
        guard case .none = machine.stopRequested() else {
            Issue.record("stopping what is stopped does nothing")
            return
        }
    }

    @Test func aStopAskedWhileAStartRunsStopsWhatStartedAndAFailedStartLeavesNothingToStop() {
        var served = SessionMockControl.StateMachine<String>()
        _ = served.startRequested("a")
        _ = served.stopRequested()
        guard case .stop = served.startEnded(succeeded: true) else {
            Issue.record("what started is stopped")
            return
        }
        var failed = SessionMockControl.StateMachine<String>()
        _ = failed.startRequested("a")
        _ = failed.stopRequested()
        guard case .none = failed.startEnded(succeeded: false) else {
            Issue.record("a start that failed serves nothing to stop")
            return
        }
        #expect(failed.state == .stopped)
        #expect(!failed.isBusy)
    }

    // MARK: - The user's files

    @Test func aBodySavedWhereAFileIsGoesBesideIt() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = UserFiles(admission: { _, _ in nil })
        let path = folder.appendingPathComponent("body.json").path
        guard case .message(let first, false) = files.saveBody(Data("{}".utf8), to: path) else {
            Issue.record("a body is saved")
            return
        }
        #expect(first == "Saved 2 bytes to \(path)")
        guard case .message(let second, false) = files.saveBody(Data("[]".utf8), to: path) else {
            Issue.record("a second body is saved too")
            return
        }
        #expect(second.hasPrefix("\(path) exists; saved 2 bytes to "))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}", "the first is untouched")
    }

    // MARK: - The editor

    @Test func anEditorThatChangesNothingChangesNothingAndOneThatSavesAnEndpointEditsIt() throws {
        let endpoint = try #require(try collection().endpoints.first)
        let untouched = EditorSession(editor: { _ in .finished })
        guard case .message("Not changed.", false) = untouched.edit(endpoint) else {
            Issue.record("an edit that changes nothing says so")
            return
        }
        let renaming = EditorSession(editor: { file in
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            try? Data(text.replacingOccurrences(of: "/thing", with: "/things").utf8).write(to: file)
            return .finished
        })
        guard case .endpointEdited(let edited) = renaming.edit(endpoint) else {
            Issue.record("a saved edit reaches the reducer")
            return
        }
        #expect(edited.path == "/things")
    }

    // MARK: - The clipboard

    @Test func copyingWritesOneOSC52SequenceToTheTerminal() {
        let written = Collected<String>()
        Clipboard(writer: written.append).copy("hello")
        #expect(written.all == ["\u{1B}]52;c;aGVsbG8=\u{07}"])
    }
}

/// A mock host that serves nothing: it records what it was asked and lets a test answer.
private final class RecordingMockHost: MockHosting, Sendable {
    let changes = Collected<String>()
    private let log = Collected<@Sendable (String) -> Void>()

    func start(_ request: MockRequest, log: @escaping @Sendable (String) -> Void) async throws -> MockStarted {
        changes.append("start")
        self.log.append(log)
        return MockStarted(port: 9, baseURL: "http://127.0.0.1:9", routes: 1, source: "test")
    }

    func stop() async {
        changes.append("stop")
    }

    func answer(_ line: String) {
        log.all.last?(line)
    }
}
