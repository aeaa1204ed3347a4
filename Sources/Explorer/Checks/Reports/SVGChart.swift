import Foundation

/// The charts of the HTML reports, as inline SVG: nothing to run, nothing to fetch.
///
/// Each draws into a fixed view box that the page scales to its width; every mark carries a
/// `<title>` (the browser's tooltip) with its figures, so a chart is readable without a script.
enum SVGChart {
    /// The view box's width.
    static let width = 960.0
    /// The plot's margins: left for the axis labels, bottom for the x labels.
    static let left = 56.0
    static let bottom = 24.0
    static let top = 12.0

    /// The most bars the time chart draws one by one, each with its tooltip; a longer run's
    /// chart has one column per unit of its width instead.
    static let barLimit = 1_000

    /// A bar chart of time per request, in the run's order, coloured by outcome: one
    /// `rect.bar` per result up to `barLimit` results; past that, the results in columns
    /// (more bars than the chart has pixels), each column as high as its slowest request of
    /// each outcome, one `path.bar` per outcome (three elements where there would be
    /// thousands; every request's time is in the table).
    ///
    /// - Parameter results: the requests, in order.
    static func timePerRequest(_ results: [RunResult]) -> String {
        let height = 220.0
        let plotWidth = width - left - 8
        let highest = niceCeiling(results.map(\.milliseconds).max() ?? 0)
        let plotHeight = height - top - bottom
        func barHeight(_ milliseconds: Double) -> Double {
            highest > 0 ? max(0.5, milliseconds / highest * plotHeight) : 0.5
        }
        var svg: String
        if results.count <= barLimit {
            let slot = plotWidth / Double(max(1, results.count))
            let barWidth = max(slot * 0.8, min(slot, 0.5))
            svg = open(height: height, label: "Time per request: \(results.count) bars")
            svg += axes(height: height, highest: highest)
            svg.reserveCapacity(svg.utf8.count + results.count * 120)
            for (index, result) in results.enumerated() {
                let bar = barHeight(result.milliseconds)
                let outcome = outcomeClass(result.outcome)
                let iteration = result.iteration > 1 ? " #\(result.iteration)" : ""
                svg +=
                    "<rect class=\"bar \(outcome)\" x=\"\(number(left + Double(index) * slot))\" "
                    + "y=\"\(number(height - bottom - bar))\" width=\"\(number(barWidth))\" "
                    + "height=\"\(number(bar))\"><title>\(HTMLReport.escape(result.endpoint))\(iteration): "
                    + "\(HTMLReport.milliseconds(result.milliseconds)) (\(outcome))</title></rect>\n"
            }
        } else {
            let columns = Int(plotWidth)
            let slot = plotWidth / Double(columns)
            svg = open(
                height: height,
                label: "Time per request: \(results.count) requests in \(columns) columns, each its slowest")
            svg += axes(height: height, highest: highest)
            // The slowest of each outcome in each column, in the order they are drawn: what
            // did not pass over what did.
            let outcomes = ["passed", "error", "failed"]
            var slowest = Array(repeating: Array(repeating: -1.0, count: columns), count: outcomes.count)
            var counts = Array(repeating: 0, count: outcomes.count)
            for (index, result) in results.enumerated() {
                let column = index * columns / results.count
                let kind = outcomes.firstIndex(of: outcomeClass(result.outcome)) ?? 0
                slowest[kind][column] = max(slowest[kind][column], result.milliseconds)
                counts[kind] += 1
            }
            for (kind, outcome) in outcomes.enumerated() where counts[kind] > 0 {
                svg += "<path class=\"bar \(outcome)\" d=\""
                for (column, milliseconds) in slowest[kind].enumerated() where milliseconds >= 0 {
                    let bar = barHeight(milliseconds)
                    svg +=
                        "M\(number(left + Double(column) * slot)),\(number(height - bottom - bar))"
                        + "h\(number(slot))v\(number(bar))h-\(number(slot))z"
                }
                let fewest = results.count / columns
                let most = (results.count + columns - 1) / columns
                let size = fewest == most ? "\(most)" : "\(fewest)–\(most)"
                svg +=
                    "\"><title>\(counts[kind]) \(outcome): each column the slowest of its \(size) requests"
                    + "</title></path>\n"
            }
        }
        svg += "<text x=\"\(number(left))\" y=\"\(number(height - 6))\">1</text>"
        svg +=
            "<text x=\"\(number(width - 8))\" y=\"\(number(height - 6))\" text-anchor=\"end\">\(results.count)</text>"
        return svg + "</svg>\n"
    }

    /// The class a result's mark takes: `passed`, `failed` or `error`.
    static func outcomeClass(_ outcome: StepOutcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .failed: "failed"
        case .transportFailure, .notSent: "error"
        }
    }

    /// A histogram: one `rect.bucket` per range, its height the count.
    static func histogram(_ latency: LatencyDistribution) -> String {
        let height = 200.0
        let plotWidth = width / 2 - left - 8
        let most = Double(latency.buckets.map(\.count).max() ?? 0)
        let plotHeight = height - top - bottom
        let slot = plotWidth / Double(max(1, latency.buckets.count))
        var svg = open(height: height, width: width / 2, label: "Latency histogram of \(latency.name)")
        svg += axes(height: height, highest: most, width: width / 2, unit: "")
        for (index, bucket) in latency.buckets.enumerated() {
            let barHeight = most > 0 ? Double(bucket.count) / most * plotHeight : 0
            svg +=
                "<rect class=\"bucket\" x=\"\(number(left + Double(index) * slot + 1))\" "
                + "y=\"\(number(height - bottom - barHeight))\" width=\"\(number(max(0.5, slot - 2)))\" "
                + "height=\"\(number(barHeight))\"><title>\(HTMLReport.milliseconds(bucket.lower))–"
                + "\(HTMLReport.milliseconds(bucket.upper)): \(bucket.count)</title></rect>\n"
        }
        svg +=
            "<text x=\"\(number(left))\" y=\"\(number(height - 6))\">\(HTMLReport.milliseconds(latency.minimum))</text>"
        svg +=
            "<text x=\"\(number(width / 2 - 8))\" y=\"\(number(height - 6))\" text-anchor=\"end\">"
            + "\(HTMLReport.milliseconds(latency.maximum))</text>"
        return svg + "</svg>\n"
    }

    /// The percentile curve: latency (up) against percentile (across), through the curve's
    /// points, with a `circle.mark` on each named percentile.
    static func percentileCurve(_ latency: LatencyDistribution) -> String {
        let height = 200.0
        let chartWidth = width / 2
        let plotWidth = chartWidth - left - 8
        let plotHeight = height - top - bottom
        let highest = niceCeiling(latency.maximum)
        func x(_ percentile: Double) -> Double { left + percentile / 100 * plotWidth }
        func y(_ milliseconds: Double) -> Double {
            height - bottom - (highest > 0 ? milliseconds / highest * plotHeight : 0)
        }
        var svg = open(height: height, width: chartWidth, label: "Latency percentiles of \(latency.name)")
        svg += axes(height: height, highest: highest, width: chartWidth)
        let points = latency.curve.map { "\(number(x($0.percentile))),\(number(y($0.milliseconds)))" }
        svg += "<polyline class=\"curve\" points=\"\(points.joined(separator: " "))\"/>\n"
        for point in latency.named {
            svg +=
                "<circle class=\"mark\" cx=\"\(number(x(point.percentile)))\" cy=\"\(number(y(point.milliseconds)))\" "
                + "r=\"3\"><title>p\(Int(point.percentile)): \(HTMLReport.milliseconds(point.milliseconds))</title>"
                + "</circle>\n"
        }
        for percentile in [0.0, 50, 90, 100] {
            svg +=
                "<text x=\"\(number(x(percentile)))\" y=\"\(number(height - 6))\" text-anchor=\"middle\">"
                + "p\(Int(percentile))</text>"
        }
        return svg + "</svg>\n"
    }

    // MARK: - Parts

    private static func open(height: Double, width: Double = width, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\" "
            + "aria-label=\"\(HTMLReport.escape(label))\" preserveAspectRatio=\"xMinYMin meet\">\n"
    }

    /// The two axes with three labelled lines across: 0, half and the top value.
    private static func axes(height: Double, highest: Double, width: Double = width, unit: String = " ms") -> String {
        let plotHeight = height - top - bottom
        var svg = ""
        for fraction in [0.0, 0.5, 1] {
            let lineY = height - bottom - fraction * plotHeight
            let value = highest * fraction
            let label = unit.isEmpty ? "\(Int(value.rounded()))" : HTMLReport.milliseconds(value)
            svg +=
                "<line class=\"axis\" x1=\"\(number(left))\" y1=\"\(number(lineY))\" x2=\"\(number(width - 8))\" "
                + "y2=\"\(number(lineY))\"/><text x=\"\(number(left - 4))\" y=\"\(number(lineY + 4))\" "
                + "text-anchor=\"end\">\(label)</text>\n"
        }
        return svg
    }

    /// A round number at or above the value (1, 2 or 5 times a power of ten), for the top of an axis.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 0 }
        let power = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }

    /// A coordinate with at most two decimals, without a trailing `.00`.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        if fraction == 0 { return "\(whole)" }
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        return fraction % 10 == 0
            ? "\(sign)\(whole).\(fraction / 10)" : "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
