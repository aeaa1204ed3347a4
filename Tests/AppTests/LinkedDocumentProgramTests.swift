import Checks
import Foundation
import TestSupport
import Testing

@testable import App
@testable import Demo
@testable import Workspace

/// The TUI's checks against an `openapi:` document named by URL: fetched before the first
/// request of the session goes out, then kept (never fetched per response).
@Suite struct LinkedDocumentProgramTests {
    @Test func theDocumentIsFetchedOnceAndEveryResponseIsChecked() async throws {
        let api = try await DemoServer.start(port: 0)
        let documents = try await DocumentServer.start(["/openapi.json": .init(DemoOpenAPI.json)])
        let url = documents.url("/openapi.json?session=\(UUID().uuidString)")
        let collection = try CollectionLoader.parse(
            """
            name: Linked
            openapi: \(url.absoluteString)
            environments: [{ name: local, base_url: "\(try #require(api.environments.first).baseURL.absoluteString)" }]
            endpoints: [{ name: User, path: /users/1, operation: getUser }]
            """, file: "linked.yaml")
        let plan = RequestPlan(
            endpoint: try #require(collection.endpoint(withID: "User")), collection: collection,
            environment: try #require(collection.environments.first), revision: 1)
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        for exchange in 1...2 {
            program.perform(.send(exchange: exchange, plan), send: reported.append)
            #expect(await reported.wait { if case .checked(exchange, _) = $0 { true } else { false } })
        }
        let schemas = reported.all.compactMap { action -> SchemaCheck? in
            if case .checked(_, let report) = action { report.schema } else { nil }
        }
        #expect(schemas.count == 2)
        #expect(schemas.allSatisfy { $0.passed && $0.document == url.absoluteString && $0.operation != nil })
        #expect(documents.requests.count == 1)
        #expect(!reported.all.contains { if case .message(_, isError: true) = $0 { true } else { false } })
        await program.shutdown()
        await documents.stop()
        await api.stop()
    }
}
