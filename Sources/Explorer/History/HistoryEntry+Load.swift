import Foundation
import NetworkingCore
import Workspace

extension HistoryEntry {
    /// The content type of a load's summary entry: its body is the load's report as JSON.
    package static let loadSummaryContentType = "application/vnd.explorer.load+json"

    /// The one entry a load (`explorer load`) keeps in the history, instead of one per request:
    /// the request as it was sent (secrets masked), the status most responses had, the median
    /// latency as its time, and the load's report (requests a second, percentiles, statuses,
    /// failures) as its body.
    ///
    /// - Parameters:
    ///   - resolved: the request the load sent.
    ///   - startedAt: when the load started.
    ///   - collectionPath: the collection file, if any.
    ///   - summary: the report, as JSON.
    ///   - mostCommonStatus: the status most responses had; `nil` when none came.
    ///   - milliseconds: the median latency.
    package init(
        loadOf resolved: ResolvedRequest, startedAt: Date, collectionPath: String?, summary: Data,
        mostCommonStatus: Int?, milliseconds: Double
    ) {
        self.init(sending: resolved, startedAt: startedAt, collectionPath: collectionPath)
        status = mostCommonStatus
        reason = "load summary"
        responseHeaders = ["Content-Type": Self.loadSummaryContentType]
        responseBody = summary
        responseBodySize = summary.count
        contentType = Self.loadSummaryContentType
        timings = HistoryTimings(totalMilliseconds: milliseconds)
        if mostCommonStatus == nil { transportError = "No request of the load got a response." }
    }

    /// Whether this entry is a load's summary rather than one exchange.
    package var isLoadSummary: Bool { contentType == Self.loadSummaryContentType }
}
