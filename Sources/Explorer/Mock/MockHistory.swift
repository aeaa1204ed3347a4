import Foundation
import History
import Workspace

extension MockPlan {
    /// The last response the history recorded for each endpoint in an environment (exchanges
    /// that failed before a status are passed over).
    ///
    /// - Parameters:
    ///   - endpoints: the collection's endpoints.
    ///   - environment: the environment's name, or `nil` for any.
    ///   - collectionPath: the collection file's path, to keep to its exchanges, or `nil`.
    ///   - store: the history.
    /// - Returns: the answers by endpoint id; endpoints never answered are absent.
    /// - Throws: `HistoryError` when the history cannot be read.
    package static func recordedResponses(
        of endpoints: [Endpoint], environment: String?, collectionPath: String?,
        in store: HistoryStore
    ) throws -> [String: MockRecordedResponse] {
        var recorded: [String: MockRecordedResponse] = [:]
        for endpoint in endpoints {
            let query = HistoryQuery(
                endpoint: endpoint.id, environment: environment, collectionPath: collectionPath, limit: 5)
            for summary in try store.summaries(matching: query)
            where summary.status != nil && summary.transportError == nil {
                guard let entry = try store.entry(id: summary.id), let status = entry.status else { continue }
                recorded[endpoint.id] = MockRecordedResponse(
                    status: status, headers: entry.responseHeaders.map { ($0.name, $0.value) },
                    body: entry.responseBody ?? Data())
                break
            }
        }
        return recorded
    }
}
