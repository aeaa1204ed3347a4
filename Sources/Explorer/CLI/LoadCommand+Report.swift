import ArgumentParser
import Checks
import Foundation
import Measure
import Workspace

/// `explorer load --report html=PATH`: the load's latency as the HTML report of `explorer run`
/// draws it (one page, no script), from its HdrHistogram.
extension LoadCommand {
    /// The reports asked for (html only), read after `validate()` refused any other.
    var reportTargets: [RunReportTarget] { RunReportTarget.parsing(reports, kinds: [.html]).targets }

    /// Refuses a report that is not `html=PATH` or cannot be written, one line each.
    ///
    /// - Throws: `ExitCode(2)` after the lines on stderr.
    func validateReports() throws {
        let problems = RunReportTarget.check(reports, kinds: [.html])
        guard problems.isEmpty else {
            problems.forEach(printError)
            throw ExitCode(2)
        }
    }

    /// The load's distribution as the report draws it: the figures, the percentile curve and
    /// the histogram read from the recorder.
    static func distribution(_ recorder: LatencyRecorder, name: String) -> LatencyDistribution {
        func point(_ percentile: Double) -> LatencyDistribution.Point {
            LatencyDistribution.Point(
                percentile: percentile,
                milliseconds: percentile == 0
                    ? recorder.minimumMilliseconds : recorder.milliseconds(atPercentile: percentile))
        }
        var lower = recorder.minimumMilliseconds
        let buckets = recorder.bucketCounts(buckets: LatencyDistribution.bucketCount).map { bucket in
            defer { lower = bucket.upperMilliseconds }
            return LatencyDistribution.Bucket(lower: lower, upper: bucket.upperMilliseconds, count: bucket.count)
        }
        return LatencyDistribution(
            name: name, count: recorder.count, minimum: recorder.minimumMilliseconds,
            maximum: recorder.maximumMilliseconds, mean: recorder.meanMilliseconds,
            standardDeviation: recorder.standardDeviationMilliseconds,
            named: LatencyDistribution.namedPercentiles.map(point),
            curve: LatencyDistribution.curvePercentiles.map(point),
            buckets: buckets)
    }

    /// Writes the HTML reports of a load.
    ///
    /// - Returns: whether each was written; a failure is one line on stderr.
    func writeReports(_ result: LoadResult, title: String, masker: SecretMasker) -> Bool {
        let targets = reportTargets
        guard !targets.isEmpty else { return true }
        let recorder = result.latencies
        let seconds = result.elapsed / .seconds(1)
        let page = LoadHTMLReport(
            title: masker.mask(title),
            figures: [
                ("Requests", "\(recorder.count)"), ("Requests/s", String(format: "%.1f", result.requestsPerSecond)),
                ("Responses", "\(recorder.responses)"), ("Failures", "\(recorder.failures)"),
                ("Time", String(format: "%.2f s", seconds)),
            ],
            outcomes: recorder.statuses.sorted { $0.key < $1.key }.map {
                ("status \(result.statusName($0.key))", $0.value)
            }
                + recorder.errors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            latency: Self.distribution(recorder, name: masker.mask(title)))
        let html = Data(page.html.utf8)
        var written = true
        for target in targets {
            guard let path = target.path else { continue }
            do {
                try AtomicFile.write(html, to: URL(fileURLWithPath: path))
            } catch {
                printError("The html report cannot be written to \(path): \(error)")
                written = false
            }
        }
        return written
    }
}
