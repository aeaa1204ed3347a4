import Foundation
import Workspace

extension RunResult {
    /// Creates a result without a step: what a benchmark of the reports (`explorer bench
    /// report`) makes by the thousand.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint.
    ///   - iteration: the iteration, from 1.
    ///   - outcome: how it ended.
    ///   - status: the status code, when a response came.
    ///   - report: what its checks found.
    ///   - milliseconds: its time.
    ///   - error: why nothing came, when nothing did.
    package init(
        endpoint: Endpoint, iteration: Int, outcome: StepOutcome, status: Int?, report: CheckReport,
        milliseconds: Double, error: String? = nil
    ) {
        self.endpoint = endpoint.id
        folderPath = endpoint.folderPath
        name = endpoint.name
        self.iteration = iteration
        self.outcome = outcome
        self.status = status
        self.report = report
        self.error = error
        self.milliseconds = milliseconds
        attempts = 1
        line = endpoint.sourceLine
    }
}
