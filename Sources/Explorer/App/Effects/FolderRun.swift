import Checks
import Foundation
import Terminal
import Workspace

/// What a folder run sends: endpoints of the collection, in file order, in one environment,
/// through the sequence runner `explorer run` uses (captures flow, `requires:` go first).
package struct RunPlan: Sendable {
    /// The collection (its `requires:` and variables).
    package let collection: APICollection
    /// The environment to send in.
    package let environment: Environment
    /// The endpoints, in file order, with their session edits.
    package let endpoints: [Endpoint]
    /// What is run, as the user named it (`Auth`, or the collection's name for all).
    package let title: String
    /// The answers to `{{prompt}}` calls given so far.
    package var answers = PromptAnswers()
}

/// A folder run of the TUI (`Ctrl-R`): its results as they come, and the summary at the end.
struct FolderRun: Sendable {
    let id: Int
    /// The folder (or the collection's name) and the environment.
    let title: String
    /// How many endpoints were asked for (prerequisites come on top).
    let total: Int
    /// One result per endpoint sent, in order.
    var results: [RunResult] = []
    /// Set when the run ended.
    var summary: RunSummary?

    var isRunning: Bool { summary == nil }

    /// The last result of an endpoint in this run: `✓ 5/5` beside it in the endpoints list.
    func resultSpans(for endpointID: String) -> [Span]? {
        guard let result = results.last(where: { $0.endpoint == endpointID }) else { return nil }
        let role: Role =
            switch result.outcome {
            case .passed: .status2xx
            case .failed: .status4xx
            case .transportFailure, .notSent: .error
            }
        return [Span(result.mark + " " + result.checksText, role: role)]
    }

    /// The status line while it runs: `Running Auth · dev: [2/3] ✓ Auth/Login 200 5/5`.
    var progressLine: String {
        guard let last = results.last else { return "Running \(title): starting … (Esc stops)" }
        let failed = results.filter { $0.outcome != .passed }.count
        let failures = failed > 0 ? " · \(failed) not passed" : ""
        return "Running \(title): [\(results.count)/\(max(total, results.count))] \(last.mark) \(last.endpoint) "
            + "\(last.status.map(String.init) ?? "---") \(last.checksText)\(failures) (Esc stops)"
    }
}
