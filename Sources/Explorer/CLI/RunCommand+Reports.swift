import ArgumentParser
import Checks
import Foundation
import History
import NetworkingCore
import Synchronization
import Workspace

/// `explorer run --report KIND=PATH` (and `--junit FILE`): the reports a run writes, checked
/// before anything is sent, written at its end and on Ctrl-C with what ran.
extension RunCommand {
    /// The reports asked for, in order: each `--report`, and `--junit FILE` as `junit=FILE`.
    /// Read after `validate()`, which refused any that cannot be parsed.
    var reportTargets: [RunReportTarget] { RunReportTarget.parsing(reports).targets + junitTarget }

    /// `--junit FILE`, as the report `junit=FILE`.
    private var junitTarget: [RunReportTarget] { junit.map { [RunReportTarget(kind: .junit, path: $0)] } ?? [] }

    /// Whether a report shows requests and responses (so each result keeps its exchange).
    var reportsShowExchanges: Bool { reportTargets.contains { $0.kind == .json || $0.kind == .html } }

    /// Whether a result keeps its headers and bodies for the reports: only a request that did
    /// not pass, among the first `RunSummary.htmlDetailedFailures` of them, and only when an
    /// HTML report shows them (the JSON report lists neither). A run of many failures holds
    /// the few the report details, not up to 32 KB of bodies for every one.
    ///
    /// - Parameters:
    ///   - outcome: the result's outcome.
    ///   - failuresBefore: how many results before it in the run did not pass.
    ///   - targets: the reports asked for.
    static func keepsDetails(_ outcome: StepOutcome, failuresBefore: Int, targets: [RunReportTarget]) -> Bool {
        outcome != .passed && failuresBefore < RunSummary.htmlDetailedFailures
            && targets.contains { $0.kind == .html }
    }

    /// Refuses reports that cannot be written, one line each, before anything is sent.
    ///
    /// - Throws: `ExitCode(2)` after the lines on stderr.
    func validateReports() throws {
        let problems = RunReportTarget.check(reports, extra: junitTarget)
        guard problems.isEmpty else {
            problems.forEach(printError)
            throw ExitCode(2)
        }
    }

    /// The exchange a report shows: history's entry with its secrets masked as history masks
    /// them, and the check report masked. A request the HTML report details keeps its headers
    /// and bodies (`keepsDetails`); any other keeps only its `traceparent` (its trace id is in
    /// every report) and its sizes: nothing shows the rest, which is neither masked nor kept.
    static func reported(
        _ entry: HistoryEntry, secrets: [String], keepsDetails: Bool
    ) -> (exchange: ReportedExchange, checks: CheckReport?) {
        var entry = entry
        if !keepsDetails {
            (entry.requestBody, entry.responseBody) = (nil, nil)
            entry.requestHeaders = HTTPHeaders(
                entry.requestHeaders.fields.filter { $0.name.utf8.count == 11 && $0.name.lowercased() == "traceparent" }
            )
            entry.responseHeaders = HTTPHeaders()
        }
        let masked = HistorySecretMasking.masked(
            entry, secrets: secrets, bodyCap: keepsDetails ? ReportedExchange.bodyLimit + 1 : 0)
        func fields(_ headers: HTTPHeaders) -> [ReportedExchange.Header] {
            headers.map { ReportedExchange.Header(name: $0.name, value: $0.value) }
        }
        let exchange = ReportedExchange(
            method: masked.method, url: masked.url, startedAt: masked.startedAt,
            requestHeaders: fields(masked.requestHeaders), requestBody: masked.requestBody,
            requestBodySize: masked.requestBodySize, reason: masked.reason,
            responseHeaders: fields(masked.responseHeaders), responseBody: masked.responseBody,
            responseBodySize: masked.responseBodySize, totalMilliseconds: masked.timings.totalMilliseconds,
            headMilliseconds: masked.timings.headMilliseconds, keepsBodies: keepsDetails)
        return (exchange, masked.checks)
    }

    /// The collection file as a report names it: relative to the repository a GitHub job
    /// checked out (`GITHUB_WORKSPACE`), else to the working directory, when it is inside.
    static func reportedPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"] ?? FileManager.default.currentDirectoryPath
        let base = URL(fileURLWithPath: root).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Writes every report file and prints GitHub's annotations (to stdout, or stderr under
    /// `--json`, whose stdout is one JSON object).
    ///
    /// - Returns: whether every file was written; a failure is one line on stderr.
    @discardableResult
    static func writeReports(_ summary: RunSummary, to targets: [RunReportTarget], json: Bool) -> Bool {
        // Worked out once: the JSON and HTML reports show the same figures.
        let latencies =
            targets.contains { $0.kind == .json || $0.kind == .html } ? summary.latencyDistributions : []
        // The files are made and written at once (each is flushed to disk), the problems
        // said after in the reports' order.
        let problems = Mutex([String?](repeating: nil, count: targets.count))
        DispatchQueue.concurrentPerform(iterations: targets.count) { index in
            let target = targets[index]
            guard let path = target.path else { return }
            let data: Data =
                switch target.kind {
                case .junit: Data(summary.junitXML.utf8)
                case .json: summary.jsonReportData(latencies: latencies)
                case .html: Data(summary.htmlReport(latencies: latencies).utf8)
                case .github: Data()
                }
            do {
                try AtomicFile.write(data, to: URL(fileURLWithPath: path))
            } catch {
                let problem = "The \(target.kind.rawValue) report cannot be written to \(path): \(error)"
                problems.withLock { $0[index] = problem }
            }
        }
        for target in targets where target.path == nil {
            // What a response brings is in the messages: control characters shown, not written.
            let annotations = ExchangeOutput.escapingControls(summary.githubAnnotations())
            if json { writeStandardError(annotations) } else { ExchangeOutput.write(annotations) }
        }
        let said = problems.withLock { $0.compactMap { $0 } }
        said.forEach(printError)
        return said.isEmpty
    }
}

/// What a run has done so far, for the reports written when it is interrupted: the results
/// of the endpoints that finished, in the order they are reported.
final class RunSoFar: Sendable {
    private let results = Mutex<[RunResult]>([])
    private let finished = Mutex(false)

    /// Adds results that finished.
    func append(_ more: [RunResult]) {
        results.withLock { $0 += more }
    }

    /// The results so far.
    var all: [RunResult] { results.withLock { $0 } }

    /// Marks the run as finished (an interruption after that writes nothing more); returns
    /// whether it had finished already.
    func finish() -> Bool {
        finished.withLock { done in
            defer { done = true }
            return done
        }
    }
}
