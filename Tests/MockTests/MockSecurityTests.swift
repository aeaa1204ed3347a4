import Foundation
import History
import Mock
import NetworkingCore
import Testing
import Workspace

/// What the mock keeps to: the history of the collection it mocks, and the names of this
/// machine in `Host` (a page that rebinds its own name to 127.0.0.1 reads nothing).
@Suite struct MockSecurityTests {
    @Test func historyAnswersComeFromTheMockedCollectionOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mock-collections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore(fileURL: folder.appendingPathComponent("history.sqlite"))
        let mocked = folder.appendingPathComponent("public/explorer.yaml")
        let other = folder.appendingPathComponent("private/explorer.yaml")
        func answer(from file: URL, body: String) -> HistoryEntry {
            HistoryEntry(
                collectionPath: APICollection.storeKey(forFileAt: file), environment: "local", endpoint: "Get user",
                method: "GET",
                url: "http://127.0.0.1:1/users/1", status: 200, responseBody: Data(body.utf8))
        }
        _ = try store.record(contentsOf: [answer(from: mocked, body: "public"), answer(from: other, body: "private")])
        let environment = Environment(name: "local", baseURLTemplate: "http://127.0.0.1:1")
        func served(_ file: URL) throws -> [String: MockRecordedResponse] {
            let collection = APICollection(
                name: "API", environments: [environment],
                items: [.endpoint(Endpoint(name: "Get user", method: .get, path: "/users/1"))], sourceURL: file)
            return try MockPlan.serving(
                collection, file: file, contract: nil, environment: environment, source: .history, history: store
            ).recorded
        }
        #expect(try served(mocked)["Get user"]?.body == Data("public".utf8))
        #expect(try served(other)["Get user"]?.body == Data("private".utf8))
        let never = folder.appendingPathComponent("never/explorer.yaml")
        #expect(try served(never).isEmpty)
    }

    @Test func onlyTheNamesOfThisMachineAreAnsweredUnlessAllowed() {
        let local = MockAllowedHosts()
        #expect(local.allows("127.0.0.1:8080"))
        #expect(local.allows("LOCALHOST:8080"))
        #expect(local.allows("localhost."))
        #expect(local.allows(nil))
        #expect(!local.allows("rebound-name.example:8080"))
        #expect(!local.allows("127.0.0.1.rebound-name.example"))
        #expect(!local.allows("[::2]:8080"))
        let added = MockAllowedHosts(adding: ["Dev.Example.test:443"])
        #expect(added.allows("dev.example.test:8080"))
        #expect(!added.allows("other.example"))
        #expect(MockAllowedHosts(adding: ["*"]).allows("anything.example"))
    }

    @Test func aRequestForAnotherNameIsMisdirectedAndLogged() async throws {
        let log = LogLines()
        let plan = MockPlan(endpoints: [], contract: try MockServerTests.demoContract())
        try await MockServerTests.withMock(plan, log: log) { (server: MockServer) async throws in
            let refused = try await MockServerTests.send(
                "GET", "/v1/users", to: server, headers: ["Host": "rebound-name.example:\(server.port)"])
            #expect(refused.status == 421)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            #expect(
                refused.json?["detail"]?.stringValue
                    == "explorer mock answers only requests to 127.0.0.1 or localhost, not to rebound-name.example:\(server.port): start it with --allow-host rebound-name.example to answer that name too."
            )
            #expect(refused.json?["items"] == nil)
            #expect(try await MockServerTests.send("GET", "/v1/users", to: server).status == 200)
            #expect(
                log.lines.first?.hasSuffix(
                    "GET /v1/users → 421 (refused Host rebound-name.example:\(server.port): --allow-host to answer it)")
                    == true,
                "\(log.lines)")
        }
    }

    @Test func anAllowedNameIsAnswered() async throws {
        let plan = MockPlan(endpoints: [], contract: try MockServerTests.demoContract())
        let server = try await MockServer.start(
            plan: plan, port: 0, allowedHosts: MockAllowedHosts(adding: ["dev.example.test"]))
        let answered = try? await MockServerTests.send(
            "GET", "/v1/users", to: server, headers: ["Host": "dev.example.test:\(server.port)"])
        let other = try? await MockServerTests.send("GET", "/v1/users", to: server, headers: ["Host": "other.example"])
        await server.stop()
        #expect(answered?.status == 200)
        #expect(other?.status == 421)
    }
}
