import Contract
import Foundation
import History
import Workspace

extension MockPlan {
    /// What `explorer mock` and the TUI's mock serve of a collection in an environment: its
    /// endpoints, the operations of its `openapi:` document and, unless `source` is
    /// `.examples`, the last answers the history recorded for this collection in that
    /// environment.
    ///
    /// - Parameters:
    ///   - collection: the collection, loaded from `file`.
    ///   - file: the collection file, named in errors.
    ///   - contract: the document the collection names with `openapi:`, read (as responses are
    ///     checked against it: `ResponseContract.linked`), or `nil`.
    ///   - environment: the environment whose base path and history the mock serves, or `nil`.
    ///   - source: where answers come from.
    ///   - history: the history, read when `source` is not `.examples` (nil: no recorded answers);
    ///     only the exchanges sent from `file` answer, never another collection's.
    /// - Throws: `MockError` when the history cannot be read, or there is nothing to serve (no
    ///   endpoint and no document).
    package static func serving(
        _ collection: APICollection, file: URL, contract: OpenAPIContract?, environment: Environment?,
        source: MockSource, history: HistoryStore?
    ) throws(MockError) -> MockPlan {
        var recorded: [String: MockRecordedResponse] = [:]
        if source != .examples, let history {
            do {
                recorded = try recordedResponses(
                    of: collection.endpoints, environment: environment?.name,
                    collectionPath: APICollection.storeKey(forFileAt: file), in: history)
            } catch {
                throw MockError("explorer mock could not read the history: \(error)")
            }
        }
        let basePath = environment?.baseURL?.path ?? ""
        let plan = MockPlan(
            endpoints: collection.endpoints, contract: contract, recorded: recorded, source: source,
            basePath: basePath == "/" ? "" : basePath)
        if plan.routes.isEmpty {
            throw MockError("\(file.path) has no endpoint to mock, and names no OpenAPI document with `openapi:`.")
        }
        return plan
    }

    /// The URL the mock serves on `port`, with the first base path (`http://127.0.0.1:8080/v1`).
    package func baseURL(port: Int) -> String {
        "http://127.0.0.1:\(port)\(basePaths.first ?? "")"
    }
}
